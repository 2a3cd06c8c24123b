#!/usr/bin/env python3
"""stubbench report A.json B.json ...: saved runs side by side (across_runs.h),
on recorded runs of two machines (tests/data/across: an AMD Zen 4 VM in the
key-less schema 2, an Intel Xeon 0xcf VM in schema 4) and a kernel run.
Each cell must be what the JSON holds: the delta (%) of the variant times
its baseline's cycles; the text within 100 columns; bad input exit 2.
usage: across_runs.py STUBBENCH DATA_DIR"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

exe, data = sys.argv[1], sys.argv[2]
zen4, host, xeon = (f"{data}/across/{n}.json" for n in ("zen4-seed001", "zen4-host", "xeon-0xcf-padded"))
kernel = f"{data}/answer_kernel.json"


def report(*args):
    p = subprocess.run([exe, "report", *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def expected(path, variant, batch):
    """The variant's added cycles and % at batch, from the file itself."""
    d = json.load(open(path))
    rows = [r for r in d["results"] if r["batch"] == batch and r.get("placement", -1) in (-1, None)]
    row = next(r for r in rows if r["variant"] == variant)
    base_name = {"private": "baseline", "host-private": "host-baseline", "hybrid": "baseline"}[variant]
    base = next(r for r in rows if r["variant"] == base_name)
    pct = row["delta_vs_baseline_pct"]
    return pct / 100 * base["cycles_per_iter"]["mean"], pct


# JSON: every cell as the files say, at the largest batch all three have.
rc, out, err = report("--format=json", zen4, host, xeon)
check(rc == 0, f"json: exit {rc}: {err}")
doc = json.loads(out) if rc == 0 else {"machines": [], "batch": 0}
check(doc["batch"] == 4096, f"json: batch {doc['batch']}, want 4096 (the largest all have)")
# The two runs of the Zen 4 VM (seed flavour, host flavour) share its row.
check([m["runs"] for m in doc["machines"]] == [[zen4, host], [xeon]], f"json: a row per machine: {doc['machines']}")
cells = 0
for m in doc["machines"]:
    for variant, cost in m["added_cost_per_call"].items():
        path = next(p for p in m["runs"] if any(r["variant"] == variant for r in json.load(open(p))["results"]))
        cyc, pct = expected(path, variant, doc["batch"])
        check(abs(cost["cycles"]["value"] - cyc) < 1e-6 * max(1, abs(cyc)), f"{path} {variant}: cycles "
              f"{cost['cycles']['value']}, the file gives {cyc}")
        check(abs(cost["pct"]["value"] - pct) < 1e-9, f"{path} {variant}: % {cost['pct']['value']}, want {pct}")
        lo, hi = cost["cycles"]["ci95"]
        check(lo <= cost["cycles"]["value"] <= hi, f"{path} {variant}: CI [{lo}, {hi}] holds its value")
        cells += 1
check(cells == 4, f"json: {cells} cells, want 4 (private in two runs, host-private in two)")
check(doc["machines"][1]["machine"] == "Intel Xeon", f"a run without cpuid named by its model: {doc['machines'][1]}")
check("hybrid (zen4-seed001.json)" in (doc["not_matched"] or ""), f"not_matched: {doc['not_matched']}")

# Text: the answer first, every line within 100 columns, a row per run.
rc, out, err = report(zen4, host, xeon, kernel)
lines = out.splitlines()
check(rc == 0, f"text: exit {rc}: {err}")
check(lines and lines[0].startswith("added cost per call at batch 4096"), f"text: first line {lines[:1]}")
check(all(len(l) <= 100 for l in lines), "text: a line over 100 columns: " + max(lines, key=len, default=""))
check(any(l.startswith("not matched (on one machine only): ") for l in lines), "text: the not-matched line")
check(sum(l.startswith("Intel Xeon ") for l in lines) >= 1, "text: the Xeon's row")
check(any("twins vs kernel" in l for l in lines), "text: the kernel run's verdicts column")

# Markdown: one table, a header, its rule and a row per run.
rc, out, err = report("--format=markdown", zen4, xeon)
rows = [l for l in out.splitlines() if l.startswith("|")]
check(rc == 0 and len(rows) == 4 and rows[1].startswith("|---"), f"markdown: {rc} {rows}")
check("private" in rows[0] and "cycles," in rows[2], f"markdown: header and cell: {rows[:3]}")

# What cannot be matched: exit 2, one line naming it.
for args, want in (((zen4, xeon, "--variant=hybrid,host-hybrid"), "no run has variant 'host-hybrid'"),
                   ((zen4, host), None),
                   ((zen4, f"{data}/run_kernel.json"), "no variant is in runs of two machines"),
                   (("--batch=3", zen4, xeon), "has no variant's figure at batch 3"),
                   (("--variant=nope", zen4, xeon), "no run has variant 'nope'"),
                   (("--format=xml", zen4, xeon), "unknown format 'xml'"),
                   ((zen4, f"{data}/nonexistent.json"), "nonexistent.json")):
    rc, out, err = report(*args)
    if want is None:  # one machine: its own variants, side by side
        check(rc == 0 and "1 machine, 2 runs" in out, f"{args}: exit {rc}, {out!r}")
        continue
    check(rc == 2 and want in err and len(err.strip().splitlines()) == 1, f"{args}: exit {rc}, said {err!r}")

# diff runs: the change ("new") side by side, not its parts' ablations; its
# cycles are the run's own figure (its baseline, the old side, is no
# "baseline" row).
diffs = [f"{data}/answer_diff.json", f"{data}/answer_diff_no_parts.json"]
rc, out, err = report("--format=json", *diffs)
doc = json.loads(out) if rc == 0 else {"machines": [{"added_cost_per_call": {}}], "batch": 0}
costs = doc["machines"][0]["added_cost_per_call"]
check(rc == 0 and list(costs) == ["new"], f"diff runs: columns {list(costs)}, want ['new']: {err}")
want = next(r for r in json.load(open(diffs[0]))["results"] if r["variant"] == "new" and r["batch"] == doc["batch"])
check("new" in costs and abs(costs["new"]["cycles"]["value"] - want["delta_vs_baseline_cycles"]) < 1e-6,
      f"diff runs: new's cycles {costs.get('new')}, the file gives {want.get('delta_vs_baseline_cycles')}")

# A run with figures per core state (the Xeon's busy run 5 with the
# core_states member report --from-blocks makes): the first column's
# codegen by state, as the member holds it.
with tempfile.TemporaryDirectory() as tmp:
    x = f"{data}/xeon-0xcf"
    log = os.path.join(tmp, "sweep-5.blocks.csv")
    with gzip.open(f"{x}/sweep-5.blocks.csv.gz", "rb") as z, open(log, "wb") as f:
        f.write(z.read())
    rc, out, err = report(f"{x}/sweep-5.json", f"--from-blocks={log}", f"--quiet-levels={x}/quiet-levels",
                          "--format=json")
    rep = json.loads(out) if rc == 0 else {"core_states": {}, "figures": []}
    run5 = json.load(open(f"{x}/sweep-5.json"))
    run5["core_states"] = dict(rep["core_states"], figures=rep["figures"])
    live = os.path.join(tmp, "run5-states.json")
    json.dump(run5, open(live, "w"))
    rc, out, err = report("--format=json", live, xeon)
    doc = json.loads(out) if rc == 0 else {"machines": [{}], "batch": 0}
    first = next(iter(doc["machines"][0].get("added_cost_per_call", {})), None)
    by = doc["machines"][0].get("by_core_state", {})
    check(rc == 0 and set(by) == {"busy"}, f"by core state: {rc} {sorted(by)} {err}")
    for f in rep["figures"]:
        if f["variant"] == first and f["batch"] == doc["batch"] and f["state"] in by:
            got = by[f["state"]]["codegen"]
            check(got["value"] == f["codegen"]["cycles"] and got["ci95"] == f["codegen"]["ci95"],
                  f"{f['state']}: {got} against {f['codegen']}")

# A negative cost's own line says faster (the Xeon's private, CI below
# zero), within 100 columns; no line of the Zen 4 sweep, which shows none.
rc, out, err = report(xeon)
neg = [l for l in out.splitlines() if l.startswith("private ")]
check(rc == 0 and len(neg) == 1 and "(faster; " in neg[0] and " -" in neg[0] and len(neg[0]) <= 100,
      f"the Xeon run's summary: {out!r}")
rc, out, err = report(f"{data}/answer_sweep.json")
check(rc == 0 and "faster" not in out, f"the Zen 4 sweep's summary: {out!r}")

# The atlas and a run of one of its machine kinds (a later kernel build):
# the run is marked, no two rows read alike, the machine counted once, an
# 80-column form, and "-" explained where it is printed.
atlas_src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results", "atlas")
with tempfile.TemporaryDirectory() as tmp:
    atlas = os.path.join(tmp, "atlas")
    os.mkdir(atlas)
    for n in sorted(os.listdir(atlas_src)):
        shutil.copy(os.path.join(atlas_src, n), atlas)
    entries = [os.path.join(atlas, n) for n in sorted(os.listdir(atlas))]
    mine = json.load(open(os.path.join(atlas, "intel-6-a7-vm.json")))
    mine["kernel"] = mine["kernel"].replace(" #", "-later #", 1) if " #" in mine["kernel"] else mine["kernel"] + "x"
    run = os.path.join(tmp, "run.json")
    json.dump(mine, open(run, "w"))
    env = dict(os.environ, STUBBENCH_ATLAS=atlas)

    def atlas_report(*args):
        p = subprocess.run([exe, "report", *args], capture_output=True, text=True, timeout=60, env=env)
        return p.returncode, p.stdout, p.stderr

    kinds = len(entries)
    for width in ("100", "80"):
        rc, out, err = atlas_report(f"--width={width}", *entries, run)
        lines = out.splitlines()
        check(rc == 0, f"atlas + run, width {width}: exit {rc}: {err}")
        check(f"{kinds} machines, {kinds + 1} runs" in out, f"width {width}: machines counted as machines: {lines[:2]}")
        check(all(len(l) <= int(width) for l in lines), f"width {width}: a line over: " + max(lines, key=len, default=""))
        marked = [l for l in lines if ", this run" in l]
        check(marked and all("6/0xa7" in l for l in marked), f"width {width}: the run marked: {marked}")
        if any(l.rstrip().endswith("  -") for l in lines):
            check(lines[-1].startswith("-: "), f"width {width}: '-' printed but not explained: {lines[-1:]}")
    rc, out, err = atlas_report("--format=json", *entries, run)
    doc = json.loads(out) if rc == 0 else {"machines": [], "n_machines": 0}
    rows = [m["row"] + " " + m["kernel"] + " " + str(m["return_thunk"]) for m in doc["machines"]]
    check(len(rows) == kinds + 1 and len(set(rows)) == len(rows), f"json: rows read alike: {rows}")
    check(doc["n_machines"] == kinds and [m["this_run"] for m in doc["machines"]] == [False] * kinds + [True],
          f"json: n_machines {doc['n_machines']}, this_run {[m['this_run'] for m in doc['machines']]}")
    # Without the atlas beside it, the two runs of one machine and kernel
    # release still read apart: by the kernel's whole release.
    rc, out, err = report("--format=json", os.path.join(atlas, "intel-6-a7-vm.json"), run)
    doc = json.loads(out) if rc == 0 else {"machines": []}
    rows = [(m["row"], m["kernel"]) for m in doc["machines"]]
    check(len(rows) == 2 and rows[0] != rows[1], f"two kernel builds: rows {rows}")
    # A run with no figure at the batch the others share (a kernel run of
    # n/a cells on a busy machine): left out and named, the others shown.
    only8 = json.load(open(zen4))
    only8["results"] = [r for r in only8["results"] if r["batch"] == 8]
    b8 = os.path.join(tmp, "zen4-b8.json")
    json.dump(only8, open(b8, "w"))
    rc, out, err = report(zen4, xeon, b8)
    lines = out.splitlines()
    check(rc == 0 and "left out (no variant's figure at batch 4096): zen4-b8.json" in lines
          and "2 machines, 2 runs" in lines[0], f"a run left out: {rc} {lines[:3]} {err}")
    rc, out, err = report("--width=39", run)
    check(rc == 2 and "--width" in err, f"--width=39: exit {rc}, {err!r}")

checks_done("across_runs")

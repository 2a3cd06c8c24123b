#!/usr/bin/env python3
"""kernel_by_load: a kernel run judged again from its --blocks log
(`stubbench report RUN.json --from-blocks=LOG`, docs/kernel-verdict.md):
the placed twin's added cost paired by load, and where a kernel figure's
spread comes from. On runs recorded on the Intel Xeon 6/0xa7 VM (fc-v1300,
perf_event driver, --loads=8 --time=16; results/intel-xeon-0xa7-vm.md,
2026-12-07), tests/data/kernel-by-load/:

- harness-loop-3: the placed per-run twin under the harness's loop (main
  b35cd5a), whose private added cost sat 6-7 cycles below the kernel's on
  every two-line load: from the JSON alone private reads inconclusive at
  batch 4096; paired by load it differs, and the "not reproduced" line
  names the gap paired by load (5-8 cycles, the twin below);
- driver-1: the placed twin run by the driver twin: the verdicts paired
  by load agree at more batch sizes than the unpaired ones, none differs;
- driver-3: per-run private not resolved at batch 4096 (±10.3 cycles):
  from the JSON alone the source is not known and said so; from the log,
  the loads differ (sub_big on one or two lines), the spread between
  loads at least twice the one within them;
- driver-1 with the kernel's per-run baseline at 4096 made wide (its CI
  in the JSON, its blocks within each load in the log, by +-100 in pairs
  that leave each load's mean): "the driver's own spread"; with the CI
  made wide and the blocks left as recorded, neither source accounts for
  it and no cause is named;
- harness-loop-3 with driver-3's log: refused (exit 2, the log named).
Every summary within 10 lines of at most 100 columns; every verdict line
of a run judged from its log says its added costs are paired by load.

usage: kernel_by_load.py STUBBENCH DATA_DIR"""
import csv
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tempfile

# checks.py and report_docs.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402
from report_docs import summary_lines  # noqa: E402

sb, data = sys.argv[1], os.path.join(sys.argv[2], "kernel-by-load")


def report(what, run, log=None):
    """The summary of run (a JSON document), from log (CSV text) where
    given, its form checked; its verdict lines say whether they are paired."""
    if log is None:
        lines = summary_lines(sb, run, what)
    else:
        with tempfile.TemporaryDirectory() as d:
            rp, lp = os.path.join(d, "run.json"), os.path.join(d, "run.blocks")
            with open(rp, "w") as f:
                json.dump(run, f)
            with open(lp, "w") as f:
                f.write(log)
            p = subprocess.run([sb, "report", rp, "--from-blocks=" + lp], capture_output=True, text=True)
        lines = p.stdout.splitlines()
        check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
        check(0 < len(lines) <= 10, f"{what}: {len(lines)} lines: {lines}")
        for x in lines:
            check(len(x) <= 100, f"{what}: a line of {len(x)} columns: {x!r}")
    verdict_lines = [x for x in lines if x.lstrip().startswith("placed twin")]
    check(verdict_lines, f"{what}: no verdict line: {lines}")
    if log is not None:
        check(all("(added paired by load)" in x for x in verdict_lines), f"{what}: not said paired: {lines}")
    else:
        check(not any("paired" in x for x in lines), f"{what}: paired without a log: {lines}")
    return lines


def refused(what, run_name, log):
    """report of run_name's JSON with another run's log: refused (2), the log named."""
    with tempfile.TemporaryDirectory() as d:
        lp = os.path.join(d, "other.blocks")
        with open(lp, "w") as f:
            f.write(log)
        p = subprocess.run([sb, "report", os.path.join(data, run_name + ".json"), "--from-blocks=" + lp],
                           capture_output=True, text=True)
    check(p.returncode == 2 and not p.stdout and lp in p.stderr and "not the run's log" in p.stderr,
          f"{what}: exit {p.returncode}, {p.stderr!r}")


def load(name):
    with open(os.path.join(data, name + ".json")) as f:
        run = json.load(f)
    with gzip.open(os.path.join(data, name + ".blocks.csv.gz"), "rt") as f:
        log = f.read()
    return run, log


def counts(lines):
    """{kind: {verdict: n}} from the counts line(s) of a summary."""
    out = {}
    for x in lines:
        m = re.match(r"all batches, absolute/added: (\d+)/(\d+) agree, (\d+)/(\d+) differ, (\d+)/(\d+) inconclusive", x)
        if m:
            n = [int(g) for g in m.groups()]
            out = {"absolute": dict(agree=n[0], differ=n[2], inconclusive=n[4]),
                   "added": dict(agree=n[1], differ=n[3], inconclusive=n[5])}
        m = re.match(r"(absolute|added cost), all batches: (\d+) agree, (\d+) differ, (\d+) inconclusive", x)
        if m:
            out["absolute" if m.group(1) == "absolute" else "added"] = dict(
                agree=int(m.group(2)), differ=int(m.group(3)), inconclusive=int(m.group(4)))
    return out


def shape_verdicts(lines, shape):
    """The verdicts line after the shape's figures line, as {name: verdict}."""
    for i, x in enumerate(lines):
        if x.startswith(f"  {shape} "):
            for y in lines[i + 1:]:
                if y.lstrip().startswith("placed twin"):
                    return dict(re.findall(r"(base|private|hybrid) (agree|differ|inconclusive|n/a)", y))
    return {}


# The harness loop: inconclusive from the two CIs, differ paired by load.
run, log = load("harness-loop-3")
alone, paired = report("harness-loop-3", run), report("harness-loop-3 log", run, log)
check(shape_verdicts(alone, "per-run").get("private") == "inconclusive", f"harness-loop-3 unpaired: {alone}")
check(shape_verdicts(paired, "per-run").get("private") == "differ", f"harness-loop-3 paired: {paired}")
gap = [re.match(r"per-run private not reproduced: twin below kernel by ([0-9.]+) cycles/iter, paired by load", x)
       for x in paired]
gap = [float(m.group(1)) for m in gap if m]
check(gap and 5 <= gap[0] <= 8, f"harness-loop-3: no paired gap line of 5-8 cycles: {paired}")
check(counts(paired)["added"]["differ"] > counts(alone)["added"]["differ"], f"harness-loop-3 counts: {paired}")

# The driver twin: more agree paired by load, none differs.
run, log = load("driver-1")
alone, paired = report("driver-1", run), report("driver-1 log", run, log)
ca, cp = counts(alone)["added"], counts(paired)["added"]
check(cp["agree"] > ca["agree"] and cp["differ"] == 0, f"driver-1 added counts {ca} then {cp}: {paired}")

# Not resolved: the loads differ, said only where the log says so.
run, log = load("driver-3")
want = "private not resolved at batch 4096: ±10.3 cycles (this run has no figures by load)"
alone = report("driver-3", run)
check(any(x.strip() == want for x in alone), f"driver-3 without its log: no {want!r}: {alone}")
paired = report("driver-3 log", run, log)
m = [re.search(r"private not resolved at batch 4096: the loads differ: ±([0-9.]+) cycles, ±([0-9.]+) within a load$",
               x) for x in paired]
m = [x for x in m if x]
check(m and float(m[0].group(1)) >= 2 * float(m[0].group(2)) and float(m[0].group(1)) >= 10.3 / 2,
      f"driver-3: no 'the loads differ' line: {paired}")
check(not any("driver's own spread" in x for x in paired), f"driver-3: the driver named: {paired}")


def widened(run, log, spread):
    """driver-1's kernel per-run baseline at 4096 with its CI +-40 cycles
    and its blocks within each load moved by +-spread in pairs."""
    run = json.loads(json.dumps(run))
    for r in run["results"]:
        if r.get("side") == "kernel" and r["variant"] == "baseline-per-run" and r["batch"] == 4096:
            c = r["cycles_per_iter"]
            c["ci95"] = [c["mean"] - 40, c["mean"] + 40]
    rows = list(csv.reader(io.StringIO(log)))
    head = rows[0]
    at = {k: i for i, k in enumerate(head)}
    mine = [row for row in rows[1:] if row[at["arm"]] == "baseline-per-run" and row[at["batch"]] == "4096"]
    seen = {}
    for row in mine:
        seen[row[at["state"]]] = seen.get(row[at["state"]], 0) + 1
    moved = {}
    for row in mine:
        k = moved.get(row[at["state"]], 0)
        moved[row[at["state"]]] = k + 1
        if k < seen[row[at["state"]]] // 2 * 2:  # in pairs: the load's odd block out stays
            v = float(row[at["cycles_per_iter"]]) + (spread if k % 2 == 0 else -spread)
            row[at["cycles_per_iter"]] = f"{v:.4f}"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return run, out.getvalue(), seen


run, log = load("driver-1")
wide_run, wide_log, seen = widened(run, log, 100.0)
check(sum(1 for n in seen.values() if n >= 2) >= 2, f"driver-1: too few loads of two blocks at 4096: {seen}")
lines = report("driver-1 widened", wide_run, wide_log)
want = "  per-run not resolved at batch 4096: the driver's own spread is ±40.0 cycles"
check(want in lines, f"driver-1 widened: no {want!r}: {lines}")
wide_run, _, _ = widened(run, log, 0.0)
lines = report("driver-1 CI wide alone", wide_run, log)
m = [x for x in lines if x.startswith("  per-run not resolved at batch 4096: ±40.0 cycles (±")]
check(m and not any("driver's own" in x or "loads differ" in x for x in lines),
      f"driver-1 CI wide alone: a cause named, or none of the figures: {lines}")

# Another run's log is refused, not judged.
refused("driver-3's log for harness-loop-3", "harness-loop-3", load("driver-3")[1])

checks_done("kernel_by_load")

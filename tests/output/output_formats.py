#!/usr/bin/env python3
"""Runs a short stubbench sweep in each output format and checks the output's
structure (no timing is judged): JSON parses back with every field, CSV has
one row per variant x batch, and --format=seed lines match what upstream's
run_common.sh prints and parses."""
import csv
import io
import json
import os
import re
import subprocess
import sys

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

sb = sys.argv[1]
# Every block is kept (STUBBENCH_TEST_DISTURB_NONE): this test checks the
# output's structure, and on a busy host every block may be flagged disturbed,
# which leaves no samples and exits 1 whatever the structure.
os.environ["STUBBENCH_TEST_DISTURB_NONE"] = "1"
# The seed flavour alone: its keys are checked field by field below (the
# host flavour's further down).
ARGS = ["--samples=100", "--batch=1,64", "--seed=3", "--flavour=seed001", "--padded"]
VARIANTS = ["baseline", "private", "hybrid"]
# The baselines padded to private's and hybrid's layout, measured with
# --padded in groups of their own for the codegen and layout costs (not in
# the seeds' format): no rows of their own.
PADDED = ["padded-private", "padded-hybrid"]


def run(*extra):
    p = subprocess.run([sb, *ARGS, *extra], capture_output=True, text=True)
    check(p.returncode == 0, f"stubbench {' '.join(extra)} exited {p.returncode}: {p.stderr}")
    return p.stdout


# JSON parse-back.
doc = json.loads(run("--format=json"))
for key in ("tool", "version", "machine", "cpu", "seed", "timer", "core_ghz_median", "elapsed_s",
            "blocks", "disturbed_blocks", "results"):
    check(key in doc, f"JSON lacks {key}")
for key in ("kind", "reason", "cpuid_rdtscp", "rdtscp_executes", "granularity_ticks", "tsc_hz"):
    check(key in doc["timer"], f"JSON timer lacks {key}")
check(doc["seed"] == 3, "seed not echoed")
# How the result was made: schema, date, the exact command line, options, kernel, revision.
check(doc.get("schema_version") == 4, f"schema_version {doc.get('schema_version')}")
# What the CIs hold: this run's spread, never the record's; the record of
# past runs gives a next-run range once it holds five runs of these cells
# (the tests' record, in the build tree, grows with every ctest).
scope = doc.get("ci_scope")
check(isinstance(scope, str) and "srso" not in scope
      and scope.startswith("the CIs hold what varies within this run, not what moves whole runs; ")
      and ("'next run' (" in scope or "no 'next run' range yet: the record of past runs (" in scope),
      f"ci_scope {scope!r}: the sweep re-rolls its states")
# The host flavour behind srso_return_thunk's replica: the CIs say what no
# one run covers; behind plain returns, nothing.
for thunk, want in (("srso_return_thunk", True), ("ret", False)):
    p = subprocess.run([sb, "--samples=50", "--batch=64", "--variant=baseline,private", "--flavour=host",
                        f"--thunk={thunk}", "--format=json"], capture_output=True, text=True)
    scope = json.loads(p.stdout).get("ci_scope") if p.returncode == 0 else None
    check(p.returncode == 0, f"--flavour=host --thunk={thunk} exited {p.returncode}: {p.stderr}")
    check(bool(scope and "srso_return_thunk can change state" in scope) == want,
          f"--thunk={thunk}: ci_scope {scope!r}")
    check(("CIs: the host flavour's" in p.stderr) == want, f"--thunk={thunk}: stderr {p.stderr!r}")
check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", doc.get("date", "")) is not None,
      f"date {doc.get('date')!r} is not ISO 8601 UTC")
check(doc.get("argv") == [sb, *ARGS, "--format=json"], f"argv {doc.get('argv')}")
check(doc.get("kernel", "").startswith("Linux "), f"kernel {doc.get('kernel')!r}")
check(re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?|unknown", doc.get("git", "")) is not None, f"git {doc.get('git')!r}")
# The revision is the source tree's as it was built (each build writes it):
# one taken at configure time named an older commit after the next one.
src = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
head = subprocess.run(["git", "-C", src, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True)
# A build of uncommitted changes (-dirty) may have been committed since.
if head.returncode == 0 and doc.get("git") != "unknown" and not doc["git"].endswith("-dirty"):
    check(doc["git"].split("-")[0] == head.stdout.strip(),
          f"git {doc['git']!r}: the source tree is at {head.stdout.strip()} (build again)")
cfg = doc.get("config") or {}
check(cfg.get("batches") == [1, 64] and cfg.get("samples") == 100 and cfg.get("seed") == 3
      and cfg.get("format") == "json", f"config {cfg}")
res = doc["results"]
check([(r["variant"], r["batch"]) for r in res] ==
      [(v, b) for b in (1, 64) for v in VARIANTS], f"results order {[(r['variant'], r['batch']) for r in res]}")
for r in res:
    c = r["cycles_per_iter"]
    check(c["ci95"][0] <= c["mean"] <= c["ci95"][1], f"{r['variant']}-{r['batch']}: mean outside its CI")
    check(c["min"] <= c["median"] <= c["max"], f"{r['variant']}-{r['batch']}: min/median/max order")
    check(r["samples"] + r["outlier_samples"] + r["disturbed_samples"] >= 1, "no samples")
    # A replica's main prog has a symbol: its size is known, never 0.
    check(isinstance(r["code_bytes"], int) and r["code_bytes"] > 0, f"{r['variant']}: code_bytes {r['code_bytes']}")
    # The cell's key, field by field: the seed replicas, where they were built.
    key = {f: r.get(f) for f in ("side", "family", "codegen", "flavour", "return", "shape", "placement")}
    family = "replica-padded" if r["variant"] in PADDED else "replica"
    check(key == {"side": "replica", "family": family, "codegen": r["variant"], "flavour": "seed-v2-jul2024-ibt",
                  "return": "ret", "shape": "per-run", "placement": None}, f"{r['variant']}: key {key}")
    if r["variant"] == "baseline":
        check("delta_vs_baseline_pct" not in r and "matched_delta_cycles" not in r, "baseline has a delta")
        continue
    lo, hi = r["delta_ci95_pct"]
    check(lo <= r["delta_vs_baseline_pct"] <= hi, f"{r['variant']}: delta outside its CI")
    # The codegen cost: against the padded baseline where there is one;
    # the layout cost beside it (the padded baseline against the baseline,
    # each in a group of its own at the same placements).
    want = "padded-" + r["variant"] if r["variant"] in VARIANTS else "baseline"
    check(r.get("codegen_against") == want, f"{r['variant']}: codegen against {r.get('codegen_against')}")
    lo, hi = r["matched_ci95"]
    check(lo <= r["matched_delta_cycles"] <= hi, f"{r['variant']}: codegen outside its CI")
    check(isinstance(r.get("codegen_modes"), list) and "codegen_median_cycles" in r, f"{r['variant']}: codegen modes")
    check(("layout_cost_cycles" in r) == (r["variant"] in VARIANTS), f"{r['variant']}: layout cost")
    if r["variant"] in VARIANTS:
        lo, hi = r["layout_ci95"]
        check(lo <= r["layout_cost_cycles"] <= hi, f"{r['variant']}: layout outside its CI")

# Keys of copies at placements and of their rows over placements; of the
# host flavour's replicas and of a twin.
p = subprocess.run([sb, "--samples=30", "--batch=64", "--variant=baseline,private", "--placements=2",
                    "--flavour=seed001", "--format=json"], capture_output=True, text=True)
check(p.returncode == 0, f"--placements=2 exited {p.returncode}: {p.stderr}")
pdoc = json.loads(p.stdout) if p.returncode == 0 else {"results": [], "across_placements": []}
check(sorted((r["codegen"], r["placement"]) for r in pdoc["results"]) ==
      [("baseline", 0), ("baseline", 1), ("private", 0), ("private", 1)],
      f"--placements keys {[(r.get('codegen'), r.get('placement')) for r in pdoc['results']]}")
check([(r["variant"], r["codegen"], r["placement"], r["side"]) for r in pdoc.get("across_placements", [])] ==
      [("baseline", "baseline", None, "replica"), ("private", "private", None, "replica")],
      f"across_placements keys {pdoc.get('across_placements')}")
p = subprocess.run([sb, "--samples=30", "--batch=64", "--variant=host-hybrid,twin-per-run-private",
                    "--format=json"], capture_output=True, text=True)
check(p.returncode == 0, f"host and twin variants exited {p.returncode}: {p.stderr}")
hdoc = json.loads(p.stdout) if p.returncode == 0 else {"results": []}
# The host flavour's group against its own baseline first; the twin with
# the seed's group.
check([(r["family"], r["side"], r["codegen"], r["return"], r["flavour"]) for r in hdoc["results"]] ==
      [("replica-host", "replica", "baseline", "rethunk", "v6.18-noibt-its-rethunk"),
       ("replica-host", "replica", "hybrid", "rethunk", "v6.18-noibt-its-rethunk"),
       ("replica", "replica", "baseline", "ret", "seed-v2-jul2024-ibt"),
       ("twin", "twin", "private", "rethunk", "v6.18-noibt-its-rethunk")],
      f"host and twin keys {[(r.get('family'), r.get('side'), r.get('codegen')) for r in hdoc['results']]}")

# The lab: every alternative's paired cost also against its group's
# mainline; the placement control (the baseline's bytes) against the
# baseline alone.
p = subprocess.run([sb, "lab", "--samples=30", "--batch=64", "--shape=per-run", "--format=json"],
                   capture_output=True, text=True)
check(p.returncode == 0, f"lab exited {p.returncode}: {p.stderr}")
ldoc = json.loads(p.stdout) if p.returncode == 0 else {"results": []}
for r in ldoc["results"]:
    alt = r.get("codegen")
    want = None if alt in ("baseline", "mainline", "placement-control") else "lab-mainline" + r["variant"][len("lab-" + alt):]
    # The arms it is taken against are fixed; a figure from 30 samples may
    # lack a CI and be left out, but never stands without its reference.
    check(r.get("reference_against") == want and (want is not None or "vs_reference_cycles" not in r),
          f"lab {r['variant']}: reference {r.get('reference_against')}, want {want}")
    check(alt == "baseline" or r.get("codegen_against", "").startswith("lab-baseline"),
          f"lab {r['variant']}: codegen against {r.get('codegen_against')}")
check(len(ldoc["results"]) == 30, f"lab: {len(ldoc['results'])} results")

# CSV.
rows = list(csv.DictReader(io.StringIO(run("--format=csv"))))
# A run whose blocks fell in several core states adds a row per variant,
# batch and state after the cells' rows (docs/output-formats.md): no
# samples of its own, the cells' rows then read "all".
per_state = [r for r in rows if r["samples"] == ""]
rows = [r for r in rows if r["samples"] != ""]
check(all(r["core_state"] in ("quiet", "busy", "unknown") for r in per_state) and
      all(r["core_state"] == "all" for r in rows if per_state), "CSV rows per core state")
check(all(float(r["tsc_hz"]) > 1e8 for r in per_state), "CSV rows per core state: the run's columns")
check(len(rows) == 2 * len(VARIANTS), f"CSV has {len(rows)} rows")
check(all(r["timer"] in ("rdtscp+lfence", "lfence+rdtsc+lfence") for r in rows), "CSV timer column")
check(rows and rows[1]["delta_pct"] != "" and rows[0]["delta_pct"] == "", "CSV delta columns")
check(rows and rows[1]["codegen_cycles"] != "" and rows[1]["layout_cycles"] != "" and rows[0]["codegen_cycles"] == ""
      and rows[3]["layout_cycles"] == "", "CSV codegen and layout columns")
check(all(float(r["tsc_hz"]) > 1e8 and int(r["tsc_granularity_ticks"]) >= 1 and
          r["rdtscp_executes"] in ("0", "1") for r in rows), "CSV probe columns")

# Seed lines: run_common.sh's summarize prints printf "%-20s %s (drops %s)\n"
# with the bench name "NAME-B: " and hits()/drops() extract, with sed -E,
# "[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M\/s".
hits = r"[0-9]+\.[0-9]+ ± [0-9]+\.[0-9]+M/s"
line_re = re.compile(r"^(?P<name>(no-private-stack|private-stack|hybrid)-(?P<b>[0-9]+): *) (?P<hits>" + hits +
                     r") \(drops (?P<drops>" + hits + r")\)$")
lines = run("--format=seed").splitlines()
check(len(lines) == 6, f"{len(lines)} seed lines")
names = []
for ln in lines:
    m = line_re.match(ln)
    check(m is not None, f"seed line does not match run_common.sh's format: {ln!r}")
    if m:
        check(len(m.group("name")) >= 20, f"name not padded to %-20s: {ln!r}")
        names.append(m.group(2) + "-" + m.group("b"))
check(names == ["no-private-stack-1", "private-stack-1", "hybrid-1",
                "no-private-stack-64", "private-stack-64", "hybrid-64"], f"seed names {names}")
# The seed's own line, as printed in seed 001, matches the same expression.
check(line_re.match("private-stack-64:    1534.630 ± 2.063M/s (drops 0.000 ± 0.000M/s)") is not None,
      "the expression rejects the seed's own line")

# The seed config reproduces run_bench_private_stack.sh's variants.
out = subprocess.run([sb, "--config=" + sys.argv[2], "--samples=50"], capture_output=True, text=True)
check(out.returncode == 0, f"seed config run failed: {out.stderr}")
got = [ln.split(":")[0] for ln in out.stdout.splitlines()]
check(got == [f"{v}-{b}" for b in (1, 8, 64, 512, 2048, 4096) for v in ("no-private-stack", "private-stack")],
      f"seed config lines {got}")

checks_done("output_formats")

#!/usr/bin/env python3
"""footprint_cli: stubbench footprint end to end.

usage: footprint_cli.py STUBBENCH

A short run (--copies=1,3, both layouts, two variants, --format=json):
  - exit 0; one document of the common shape (schema_version, argv, git,
    mitigations, results) with a result per variant x copies x layout,
    each with the common fields and a "footprint" object (variant, copies,
    layout; delta_cycles for the private variant, none for the baseline);
    "footprint_run" names the layouts, copies and perf map;
  - /tmp/perf-<pid>.map holds one line per function of every copy:
    (1 + 3) copies x 2 layouts x 2 variants x 2 functions, each named
    "<symbol>@<layout><copy>" with its size, at 32 distinct addresses;
  - --format=csv is the common CSV (its header, a row per result);
  - without gnuplot on PATH, --plot says so in one line and the run exits 0;
  - bad input (--format=seed and gbench included) exits 2 with one line naming it.
No timing is compared with anything.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402


exe = sys.argv[1]
# The pid of the run names its perf map: exec keeps the shell's pid.
p = subprocess.run(["sh", "-c", 'echo $$; exec "$0" footprint --copies=1,3 --samples=6 --format=json', exe],
                   capture_output=True, text=True, env=dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1"))
check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
pid, _, doc = p.stdout.partition("\n")
d = {}
try:
    d = json.loads(doc)
except ValueError as e:
    check(False, "no JSON document: %s" % e)
rows = d.get("results", [])
check(d.get("tool") == "stubbench footprint" and d.get("schema_version") == 4, "tool, schema_version")
check(d.get("argv", [None])[1:2] == ["footprint"] and isinstance(d.get("git"), str) and
      sorted(d.get("mitigations", {})) == ["indirect_target_selection", "retbleed", "spec_rstack_overflow",
                                           "spectre_v2"], "argv, git, mitigations")
fr = d.get("footprint_run", {})
check(fr.get("layouts") == ["packed", "spread"] and fr.get("copies") == [1, 3] and
      fr.get("perf_map") == "/tmp/perf-%s.map" % pid.strip() and fr.get("baseline") == "twin-per-run-baseline",
      "footprint_run %s" % fr)
want = {(v, c, l) for v in ["twin-per-run-baseline", "twin-per-run-private"] for c in [1, 3]
        for l in ["packed", "spread"]}
fps = [r.get("footprint", {}) for r in rows]
got = {(f.get("variant"), f.get("copies"), f.get("layout")) for f in fps}
check(got == want and len(rows) == 8, "results %s" % sorted(got, key=str))
for r, f in zip(rows, fps):
    # The arm's name says the cell; the footprint object says it in fields.
    check(r["variant"] == "%s@%s/%s" % (f.get("variant"), f.get("layout"), f.get("copies")) and
          r["batch"] == 2048, "name and batch of %s" % r["variant"])
    if r["samples"] == 0:  # a cell whose every block was disturbed: null, never 0
        check(r["cycles_per_iter"] is None and "delta_cycles" not in f, "number without samples: %s" % r)
        continue
    check(isinstance(r["cycles_per_iter"]["mean"], float), "cycles_per_iter of %s" % r["variant"])
    if f.get("variant") == "twin-per-run-baseline":
        check("delta_cycles" not in f and "delta_vs_baseline_pct" not in r, "baseline with a delta: %s" % f)
        continue
    base = [x for x in rows if x.get("footprint", {}).get("variant") == "twin-per-run-baseline" and
            x["footprint"]["layout"] == f.get("layout") and x["footprint"]["copies"] == f.get("copies")]
    if base and base[0]["samples"] > 0:
        # The delta in cycles is the interleaved delta's % of the baseline's
        # mean; its CI may be null with few samples, the estimate is not.
        want_d = base[0]["cycles_per_iter"]["mean"] * r["delta_vs_baseline_pct"] / 100
        check(isinstance(f.get("delta_cycles"), float) and abs(f["delta_cycles"] - want_d) <= 1e-3 * max(1, abs(want_d)),
              "private's delta_cycles %s, want %s" % (f.get("delta_cycles"), want_d))
        check(len(f.get("delta_ci95_cycles", [])) == 2 and
              all(x is None or isinstance(x, float) for x in f["delta_ci95_cycles"]), "delta CI of %s" % f)
path = "/tmp/perf-%s.map" % pid.strip()
lines = []
if os.path.exists(path):
    lines = open(path).read().splitlines()
    os.remove(path)
check(len(lines) == 32, "%s: %d lines, want 32" % (path, len(lines)))
pat = re.compile(r"^[0-9a-f]+ [0-9a-f]+ \S+@(packed|spread)[0-9]+$")
check(all(pat.match(l) for l in lines), "perf map line format: %s" % lines[:2])
for copy in range(3):
    check(sum(l.endswith("@spread%d" % copy) for l in lines) == 4 * (2 if copy == 0 else 1),
          "copy %d of the spread layout named for each function and variant" % copy)
check(len({l.split()[0] for l in lines}) == 32, "perf map: 32 distinct addresses")

# CSV: the common writer's header, a row per result.
p = subprocess.run([exe, "footprint", "--copies=2", "--layout=spread", "--samples=3", "--format=csv"],
                   capture_output=True, text=True, env=dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1"))
lines = p.stdout.splitlines()
check(p.returncode == 0 and len(lines) == 3 and lines[0].startswith("variant,seed_name,batch,samples,") and
      lines[1].startswith("twin-per-run-baseline@spread/2,") and lines[2].startswith("twin-per-run-private@spread/2,"),
      "csv: exit %d, %r" % (p.returncode, lines[:3]))

# Without gnuplot: one line saying so, the run goes on and exits 0.
p = subprocess.run([exe, "footprint", "--copies=2", "--layout=packed", "--samples=3", "--plot=/tmp/unused.png"],
                   capture_output=True, text=True,
                   # every block kept: on a busy core a 3-round run could
                   # keep none, and say so before it looks for gnuplot
                   env={"PATH": "/nonexistent", "STUBBENCH_TEST_DISTURB_NONE": "1"})
check(p.returncode == 0 and p.stderr.count("gnuplot not found") == 1 and "packed" in p.stdout,
      "no gnuplot: exit %d, %r" % (p.returncode, p.stderr))
check(not os.path.exists("/tmp/unused.png"), "a plot written without gnuplot")

for args, msg in [(["--copies=0"], "--copies"), (["--layout=dense"], "unknown layout 'dense'"),
                  (["--format=seed"], "--format"), (["--format=gbench"], "--format=gbench has no place"), (["--batch=8"], "does not apply"),
                  (["--variant=twin-in-loop-private"], "in-loop variant"),
                  (["--variant=nope"], "unknown variant 'nope'"),
                  (["--variant=twin-per-run-private,twin-per-run-private"], "listed twice"),
                  (["--copies=200000"], "more than 1 GiB")]:
    p = subprocess.run([exe, "footprint"] + args, capture_output=True, text=True)
    check(p.returncode == 2 and msg in p.stderr and p.stderr.count("\n") == 1,
          "%s: exit %d, %r" % (args, p.returncode, p.stderr))
# The summary: the live run's stdout starts with it (at most 10 lines of at
# most 100 columns, the header first, a row per copies, a column per layout,
# the line on the next run); `report` of the JSON prints the same lines.
def summary_form(name, lines, copies):
    check(1 <= len(lines) <= 10, "%s: %d summary lines" % (name, len(lines)))
    check(all(len(x) <= 100 for x in lines), "%s: a line over 100 columns" % name)
    check(lines and lines[0].startswith("stubbench footprint: "), "%s: header %r" % (name, lines[:1]))
    check(len(lines) > 1 and lines[1] == "twin-per-run-private vs twin-per-run-baseline, cycles added per call "
          "(95 % CI):", "%s: title %r" % (name, lines[1:2]))
    check(len(lines) > 2 and re.match(r"^copies +packed +spread$", lines[2]), "%s: grid header" % name)
    rows = [x for x in lines if re.match(r"^ *[0-9]+  [+-]", x)]
    check([int(x.split()[0]) for x in rows] == copies, "%s: rows %s" % (name, rows))
    check(any(x.startswith("within this run only: whole runs have moved these by more") for x in lines),
          "%s: no line on the next run" % name)


env = dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1")
quiet = ["--past-runs=none", "--quiet-levels=none", "--samples=6", "--processes=1"]
p = subprocess.run([exe, "footprint", "--copies=1,3"] + quiet, capture_output=True, text=True, env=env)
check(p.returncode == 0, "summary run: exit %d: %s" % (p.returncode, p.stderr))
summary_form("live", p.stdout.splitlines(), [1, 3])
check("perf map: every copy named in" in p.stderr and "perf map" not in p.stdout,
      "the perf map's line goes to stderr with the summary alone")
p = subprocess.run([exe, "footprint", "--copies=1,3", "--table"] + quiet, capture_output=True, text=True, env=env)
check(re.search(r"^layout +copies +variant +cyc/call", p.stdout, re.M) is not None, "--table: no table")
check(p.stdout.splitlines()[0].startswith("stubbench footprint: "), "--table: the summary first")
check(all(len(x) <= 100 for x in p.stdout.splitlines()), "--table: a line over 100 columns")
with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
    f.write(doc)
    f.flush()
    p = subprocess.run([exe, "report", f.name], capture_output=True, text=True)
    check(p.returncode == 0, "report: exit %d %s" % (p.returncode, p.stderr))
    summary_form("report", p.stdout.splitlines(), [1, 3])

checks_done("footprint_cli")

#!/usr/bin/env python3
"""footprint_cli: stubbench footprint end to end.

usage: footprint_cli.py STUBBENCH

A short run (--copies=1,3, both layouts, two variants, --format=json):
  - exit 0; one JSON document with a row per variant x copies x layout,
    each with variant, copies, layout, cycles_per_iter and the delta
    fields (null for the baseline, numbers for the other variant);
  - /tmp/perf-<pid>.map holds one line per function of every copy:
    (1 + 3) copies x 2 layouts x 2 variants x 2 functions, each named
    "<symbol>@<layout><copy>" with its size, at 32 distinct addresses;
  - without gnuplot on PATH, --plot says so in one line and the run exits 0;
  - bad input exits 2 with one line naming it.
No timing is compared with anything.
"""
import json
import os
import re
import subprocess
import sys

failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", msg)


exe = sys.argv[1]
# The pid of the run names its perf map: exec keeps the shell's pid.
p = subprocess.run(["sh", "-c", 'echo $$; exec "$0" footprint --copies=1,3 --samples=6 --format=json', exe],
                   capture_output=True, text=True, env=dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1"))
check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
pid, _, doc = p.stdout.partition("\n")
rows = []
try:
    rows = json.loads(doc)["rows"]
except (ValueError, KeyError) as e:
    check(False, "no JSON document with rows: %s" % e)
want = {(v, c, l) for v in ["twin-per-run-baseline", "twin-per-run-private"] for c in [1, 3]
        for l in ["packed", "spread"]}
got = {(r["variant"], r["copies"], r["layout"]) for r in rows}
check(got == want and len(rows) == 8, "rows %s" % sorted(got))
# A cell whose every block was disturbed (a loaded machine) has no number:
# null, never 0.
samples = {(r["variant"], r["copies"], r["layout"]): r["samples"] for r in rows}
for r in rows:
    if r["samples"] == 0:
        check(r["cycles_per_iter"] is None and r["delta_cycles"] is None, "number without samples: %s" % r)
        continue
    check(isinstance(r["cycles_per_iter"], float), "cycles_per_iter of %s" % r)
    if r["variant"] == "twin-per-run-baseline":
        check(r["delta_cycles"] is None, "baseline with a delta: %s" % r)
    elif samples[("twin-per-run-baseline", r["copies"], r["layout"])] > 0:
        # The CI may be null with three samples; the estimates are not.
        check(all(isinstance(r[k], float) for k in ["delta_cycles", "delta_pct"]) and
              all(r[k] is None or isinstance(r[k], float) for k in ["delta_ci_lo", "delta_ci_hi"]),
              "private without a delta: %s" % r)
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
                  (["--format=seed"], "--format"), (["--batch=8"], "does not apply"),
                  (["--variant=twin-in-loop-private"], "in-loop variant"),
                  (["--variant=nope"], "unknown variant 'nope'"),
                  (["--variant=twin-per-run-private,twin-per-run-private"], "listed twice"),
                  (["--copies=200000"], "more than 1 GiB")]:
    p = subprocess.run([exe, "footprint"] + args, capture_output=True, text=True)
    check(p.returncode == 2 and msg in p.stderr and p.stderr.count("\n") == 1,
          "%s: exit %d, %r" % (args, p.returncode, p.stderr))
print("footprint_cli: %d failures" % failures)
sys.exit(1 if failures else 0)

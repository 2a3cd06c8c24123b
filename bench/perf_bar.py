#!/usr/bin/env python3
"""The harness's performance bar (a benchmark, not a test: it judges timings).

Runs the default sweep RUNS times on one core and reports, against the
harness's bar:
  - each sweep finishes in <= 10 s;
  - at batch >= 64 the private/baseline and hybrid/baseline 95 % CI
    half-widths are <= 0.1 percentage point, and the RUNS runs agree within
    0.3 points;
  - at batch 1 the CI half-width is <= 1 point.
usage: bench/perf_bar.py [STUBBENCH] [RUNS] [extra stubbench flags...]
"""
import json
import subprocess
import sys
import time

sb = sys.argv[1] if len(sys.argv) > 1 else "build/stubbench"
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
extra = sys.argv[3:]

docs, walls = [], []
for i in range(runs):
    t0 = time.monotonic()
    p = subprocess.run([sb, "--format=json", f"--seed={i + 1}", *extra], capture_output=True, text=True)
    walls.append(time.monotonic() - t0)
    if p.returncode != 0:
        sys.exit(f"run {i + 1} failed: {p.stderr}")
    docs.append(json.loads(p.stdout))

ok = True


def verdict(cond):
    global ok
    ok &= cond
    return "ok  " if cond else "MISS"


print(f"machine: {docs[0]['machine']}, CPU {docs[0]['cpu']}, timer {docs[0]['timer']['kind']}")
print(f"{verdict(max(walls) <= 10)} wall time per sweep: " + ", ".join(f"{w:.1f}s" for w in walls))
print(f"{'variant':8} {'batch':>6}  " + "  ".join(f"run{i + 1:<14}" for i in range(runs)) + "  spread  max-CI")
cells = {}
for d in docs:
    for r in d["results"]:
        if "delta_vs_baseline_pct" in r:
            cells.setdefault((r["variant"], r["batch"]), []).append(
                (r["delta_vs_baseline_pct"], (r["delta_ci95_pct"][1] - r["delta_ci95_pct"][0]) / 2))
for (v, b), vals in sorted(cells.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    deltas = [x[0] for x in vals]
    halves = [x[1] for x in vals]
    spread = max(deltas) - min(deltas)
    if b >= 64:
        good = max(halves) <= 0.1 and spread <= 0.3
    elif b == 1:
        good = max(halves) <= 1.0
    else:
        good = True
    print(f"{verdict(good)}{v:8} {b:6}  " + "  ".join(f"{d:+7.2f}±{h:<6.2f}" for d, h in zip(deltas, halves)) +
          f"  {spread:5.2f}  {max(halves):5.2f}")
print("bar met" if ok else "bar missed")
sys.exit(0 if ok else 1)

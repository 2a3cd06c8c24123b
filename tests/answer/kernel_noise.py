#!/usr/bin/env python3
"""kernel_noise: no kernel figure whose CI is wider than a cost's is printed as a
cost (docs/kernel-verdict.md, "Not resolved"). On recorded kernel runs read
back with `stubbench report`:

- the Intel Xeon 6/0xa7 VM's perf_event run (fc-v1300, batch 1-4096): every
  kernel figure the summary prints has a 95 % CI half-width within the bound
  (10 cycles or 10 % of the base's cost, never more than it); the counts of verdicts name the
  figures not resolved, which get none;
- the AMD Zen 4 VM's short perf_event run at batches 8 and 64, whose kernel
  figures are all spread: each shape says "not resolved at batch 64: ±X
  cycles" with the widest spread, and, this run having kept no figures by
  load, that it cannot say where the spread comes from (names no cause:
  tests/answer/kernel_by_load.py has the runs that can); no verdict is
  counted;
- the Intel run with one added cost made wide: named after the resolved
  figures, folded within 100 columns;
- the Intel run with the per-run kernel rows at batch 4096 made as wide as
  the line seen on that VM (base 374.9 [-3687.5, 4437.3]): one line naming
  them, within 100 columns; and with a figure made far apart but not
  resolved, the summary's "most apart" and "not reproduced" lines never name
  it.
Every summary line within 100 columns, at most 10 lines.

usage: kernel_noise.py STUBBENCH DATA_DIR"""
import json
import os
import re
import sys

# checks.py and report_docs.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402
from report_docs import load, result_row, summary_lines  # noqa: E402

sb, data = sys.argv[1], sys.argv[2]
BOUND = 10.0      # cycles, or 10 % of the base's cost where that is more


FIG = re.compile(r"(base|private|hybrid) ([+-]?[0-9.]+) \[([+-]?[0-9.]+), ([+-]?[0-9.]+)\]")


def printed_within_bound(lines, what):
    """Every kernel figure of a shape line: half-width <= min(10, base)."""
    for x in lines:
        if not re.match(r"  (per-run|in-loop) ", x):
            continue
        base = None
        for name, v, lo, hi in FIG.findall(x):
            v, lo, hi = float(v), float(lo), float(hi)
            if name == "base":
                base = v
            half = max(v - lo, hi - v)
            bound = min(abs(base), max(BOUND, 0.1 * abs(base))) if base is not None else BOUND
            check(half <= bound + 0.01, f"{what}: {name} {v} [{lo}, {hi}] printed, half-width {half:.2f} > {bound}")


# The Intel Xeon run: figures within the bound, the rest counted apart.
xeon = load(data, "kernel_xeon_0xa7_perf_event.json")
lines = summary_lines(sb, xeon, "xeon")
printed_within_bound(lines, "xeon")
# Both kinds' counts in one line (the gap line takes the room of the second).
check("all batches, absolute/added: 9/7 agree, 14/3 differ, 7/10 inconclusive, 6/0 not resolved" in lines,
      f"xeon counts: {lines}")
check("  per-run base 12.17 [12.13, 12.22], private +9.91 [+9.08, +10.71], hybrid +1.05 [+0.95, +1.21]" in lines,
      f"xeon per-run line: {lines}")

# The Zen 4 run at batches 8 and 64: the page fault's spread, said so.
zen = load(data, "kernel_zen4_perf_event_b8_64.json")
lines = summary_lines(sb, zen, "zen4")
printed_within_bound(lines, "zen4")
for shape, spread in (("per-run", "45.9"), ("in-loop", "103.4")):
    want = f"  {shape} not resolved at batch 64: ±{spread} cycles (this run has no figures by load)"
    check(want in lines, f"zen4: no line {want!r}: {lines}")
check("absolute, all batches: 0 agree, 0 differ, 0 inconclusive, 12 not resolved (no verdict)" in lines,
      f"zen4 counts: {lines}")
check(not any(x.startswith("          placed twin:") for x in lines), f"zen4: a verdict line: {lines}")


# The line seen on the Xeon VM at a small batch, made at batch 4096.
wide = json.loads(json.dumps(xeon))
r = result_row(wide, "baseline-per-run", 4096)
r["cycles_per_iter"].update(mean=374.9, ci95=[-3687.5, 4437.3])
lines = summary_lines(sb, wide, "wide")
printed_within_bound(lines, "wide")
want = "  per-run not resolved at batch 4096: ±4062.4 cycles (this run has no figures by load)"
check(want in lines, f"wide: no line {want!r}: {lines}")

# One added cost not resolved beside resolved figures: named after them,
# the line folded within 100 columns.
part = json.loads(json.dumps(xeon))
r = result_row(part, "private-per-run", 4096)
r["delta_ci95_cycles"] = [-40.0, 60.0]
lines = summary_lines(sb, part, "part")
printed_within_bound(lines, "part")
check(any(x.startswith("  per-run base 12.17 [12.13, 12.22], hybrid +1.05 [+0.95, +1.21]") for x in lines) and
      any(x.strip().startswith("private not resolved at batch 4096: ±50.1 cycles (this run has no figures by load)")
          for x in lines),
      f"part: {lines}")

# A figure far apart from its twin but not resolved is never "most apart"
# (no driver line, so that the summary has room for it).
far = json.loads(json.dumps(xeon))
far.pop("kernel_driver", None)
r = result_row(far, "hybrid-in-loop", 64)
r["cycles_per_iter"].update(mean=5000.0, ci95=[1000.0, 9000.0])
lines = summary_lines(sb, far, "far")
most = [x for x in lines if x.startswith("most apart, twin - kernel: ") or " not reproduced" in x]
check(most and all("hybrid in-loop @64" not in x and "in-loop hybrid @64" not in x for x in most),
      f"far: 'most apart' or 'not reproduced' {most}: {lines}")
check("absolute, all batches: 9 agree, 13 differ, 7 inconclusive, 7 not resolved (no verdict)" in lines,
      f"far counts: {lines}")

checks_done("kernel_noise")

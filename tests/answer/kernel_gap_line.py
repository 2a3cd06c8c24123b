#!/usr/bin/env python3
"""kernel_gap_line: a kernel run's summary never leaves a bare "differ"
(docs/kernel-verdict.md, "Not reproduced"). On recorded kernel runs read back
with `stubbench report`:

- the Intel Xeon 6/0xa7 VM's two perf_event runs (fc-v1300): one line names
  what the placed twin does not reproduce at the summary's batch: the
  twin's figure below or above the kernel's, by how many cycles per
  iteration (the rule's line kept, the counts in one line): per-run private in the first run, per-run base in the second
  (where private reads inconclusive);
- the AMD run whose twins return by a plain ret: the in-loop base's gap;
- a run with no differing verdict (the AMD run at fc-v1098): no such line;
- the Xeon run with one figure not resolved (a fifth shape line): the line
  still printed, the counts of both kinds folded into one line;
- the Xeon run with figures made wide (a base of six digits): the line
  shortened to fit;
- kernel --obj's recorded run with its twins made 8 cycles dearer: each
  program's "differ" says by how much and which way.
Every summary within 10 lines of at most 100 columns; wherever a shape's
verdicts say "differ", a "not reproduced" line is there.

usage: kernel_gap_line.py STUBBENCH DATA_DIR"""
import json
import os
import sys

# checks.py and report_docs.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402
from report_docs import load, result_row, summary_lines  # noqa: E402

sb, data = sys.argv[1], sys.argv[2]


def report(doc, what):
    """The summary of doc, its form checked; a shape whose twin differs has
    its one "not reproduced" line."""
    lines = summary_lines(sb, doc, what)
    differ = any(x.lstrip().startswith(("placed twin", "aligned twin")) and " differ" in x for x in lines)
    gap = [x for x in lines if " not reproduced" in x]
    check(not differ or len(gap) == 1, f"{what}: a differ with {len(gap)} gap lines: {lines}")
    return lines


xeon = load(data, "kernel_xeon_0xa7_perf_event.json")
lines = report(xeon, "xeon")
want = "per-run private not reproduced: twin +3.1 below kernel +9.9 by 6.8 cycles/iter; cause unknown"
check(want in lines, f"xeon: no line {want!r}: {lines}")
check("all batches, absolute/added: 9/7 agree, 14/3 differ, 7/10 inconclusive, 6/0 not resolved" in lines,
      f"xeon counts: {lines}")
check(any(x.startswith("verdict: CI of twin - kernel within") for x in lines), f"xeon: the rule's line: {lines}")

lines = report(load(data, "kernel_xeon_0xa7_perf_event_2.json"), "xeon run 2")
want = "per-run base not reproduced: twin 15.6 above kernel 12.1 by 3.4 cycles/iter; cause unknown"
check(want in lines, f"xeon run 2: no line {want!r}: {lines}")

lines = report(load(data, "answer_kernel_thunk_ret.json"), "thunk ret")
want = "in-loop base not reproduced: twin 14.1 below kernel 78.9 by 64.8 cycles/iter; cause unknown"
check(want in lines, f"thunk ret: no line {want!r}: {lines}")

lines = report(load(data, "answer_kernel.json"), "agreeing")
check(not any("not reproduced" in x for x in lines), f"agreeing: a gap line: {lines}")

# A fifth shape line: the counts fold into one line, the gap line stays.
part = json.loads(json.dumps(xeon))
result_row(part, "private-per-run", 4096)["delta_ci95_cycles"] = [-40.0, 60.0]
lines = report(part, "part")
want = "all batches, absolute/added: 9/7 agree, 14/2 differ, 7/10 inconclusive, 6/1 not resolved"
check(want in lines, f"part: no line {want!r}: {lines}")
check(any(x.startswith("per-run base not reproduced: twin 15.8 above kernel 12.2 by 3.6") for x in lines),
      f"part: gap line: {lines}")

# Figures of six digits: the line shortened to fit the columns.
wide = json.loads(json.dumps(xeon))
result_row(wide, "baseline-per-run", 4096)["cycles_per_iter"].update(mean=123456.7, ci95=[123450.1, 123463.3])
result_row(wide, "baseline-per-run-twin@loads", 4096, "placed-twin")["cycles_per_iter"].update(
    mean=987654.3, ci95=[987648.2, 987660.1])
result_row(wide, "private-per-run", 4096).update(delta_vs_baseline_cycles=123456.7,
                                                 delta_ci95_cycles=[123453.1, 123460.2])
lines = report(wide, "wide")
check(any(x.startswith("per-run private not reproduced") and "below kernel +123456.7 by 12345" in x for x in lines),
      f"wide: gap line: {lines}")

# kernel --obj: a twin that differs says by how much, which way, in its line.
obj = load(data, "answer_kernel_obj.json")
for r in obj["results"]:
    if r.get("side") == "placed-twin" and r["batch"] == 4096:
        c = r["cycles_per_iter"]
        c["mean"] += 8
        c["ci95"] = [c["ci95"][0] + 8, c["ci95"][1] + 8]
lines = report(obj, "obj")
want = "  kernel 28.42 [28.31, 28.52]; twin 36.29: differ, above the kernel by 7.87 cycles; cause unknown"
check(want in lines, f"obj: no line {want!r}: {lines}")
check(any(x.endswith("twin 36.32: differ, 7.95 above") for x in lines), f"obj: the long line shortened: {lines}")
check(not any(x.endswith(": differ") for x in lines), f"obj: a bare differ: {lines}")

checks_done("kernel_gap_line")

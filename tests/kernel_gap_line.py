#!/usr/bin/env python3
"""kernel_gap_line: a kernel run's summary never leaves a bare "differ"
(docs/kernel-verdict.md, "Not reproduced"). On recorded kernel runs read back
with `stubbench report`:

- the Intel Xeon 6/0xa7 VM's two perf_event runs (fc-v1300): one line names
  what the placed twin does not reproduce at the summary's batch, with the
  kernel's figure, the twin's and the gap (kernel - twin) in cycles per
  iteration: per-run private in the first run, per-run base in the second
  (where private reads inconclusive);
- the AMD run whose twins return by a plain ret: the in-loop base's gap;
- a run with no differing verdict (the AMD run at fc-v1098): no such line;
- the Xeon run with one figure not resolved (a fifth shape line): the line
  still printed, the counts of both kinds folded into one line;
- the Xeon run with figures made wide (a base of six digits): the line
  shortened to fit.
Every summary within 10 lines of at most 100 columns; wherever a shape's
verdicts say "differ", a "not reproduced" line is there.

usage: kernel_gap_line.py STUBBENCH DATA_DIR"""
import json
import os
import subprocess
import sys
import tempfile

sb, data = sys.argv[1], sys.argv[2]
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)


def report(doc, what):
    with tempfile.NamedTemporaryFile("w", suffix=".json") as t:
        json.dump(doc, t)
        t.flush()
        p = subprocess.run([sb, "report", t.name], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
    check(0 < len(lines) <= 10, f"{what}: {len(lines)} lines: {lines}")
    for x in lines:
        check(len(x) <= 100, f"{what}: a line of {len(x)} columns: {x!r}")
    differ = any(x.lstrip().startswith(("placed twin:", "aligned twin:")) and " differ" in x for x in lines)
    gap = [x for x in lines if " not reproduced" in x]
    check(not differ or len(gap) == 1, f"{what}: a differ with {len(gap)} gap lines: {lines}")
    return lines


def load(name):
    with open(os.path.join(data, name)) as f:
        return json.load(f)


def kernel_row(doc, variant, batch, side="kernel"):
    for r in doc["results"]:
        if r.get("side") == side and r["variant"].startswith(variant) and r["batch"] == batch:
            return r
    raise KeyError((variant, batch))


xeon = load("kernel_xeon_0xa7_perf_event.json")
lines = report(xeon, "xeon")
want = "per-run private not reproduced: kernel +9.9, twin +3.1, gap +6.8 cycles/iter; cause not established"
check(want in lines, f"xeon: no line {want!r}: {lines}")
check("added cost, all batches: 7 agree, 3 differ, 10 inconclusive" in lines, f"xeon counts: {lines}")

lines = report(load("kernel_xeon_0xa7_perf_event_2.json"), "xeon run 2")
want = "per-run base not reproduced: kernel 12.1, twin 15.6, gap -3.4 cycles/iter; cause not established"
check(want in lines, f"xeon run 2: no line {want!r}: {lines}")

lines = report(load("answer_kernel_thunk_ret.json"), "thunk ret")
want = "in-loop base not reproduced: kernel 78.9, twin 14.1, gap +64.8 cycles/iter; cause not established"
check(want in lines, f"thunk ret: no line {want!r}: {lines}")

lines = report(load("answer_kernel.json"), "agreeing")
check(not any("not reproduced" in x for x in lines), f"agreeing: a gap line: {lines}")

# A fifth shape line: the counts fold into one line, the gap line stays.
part = json.loads(json.dumps(xeon))
kernel_row(part, "private-per-run", 4096)["delta_ci95_cycles"] = [-40.0, 60.0]
lines = report(part, "part")
want = "all batches, absolute/added: 9/7 agree, 14/2 differ, 7/10 inconclusive, 6/1 not resolved"
check(want in lines, f"part: no line {want!r}: {lines}")
check(any(x.startswith("per-run base not reproduced: kernel 12.2, twin 15.8, gap -3.6") for x in lines),
      f"part: gap line: {lines}")

# Figures of six digits: the line shortened to fit the columns.
wide = json.loads(json.dumps(xeon))
kernel_row(wide, "baseline-per-run", 4096)["cycles_per_iter"].update(mean=123456.7, ci95=[123450.1, 123463.3])
kernel_row(wide, "baseline-per-run-twin@loads", 4096, "placed-twin")["cycles_per_iter"].update(
    mean=987654.3, ci95=[987648.2, 987660.1])
kernel_row(wide, "private-per-run", 4096).update(delta_vs_baseline_cycles=123456.7,
                                                 delta_ci95_cycles=[123453.1, 123460.2])
lines = report(wide, "wide")
check(any(x.startswith("per-run private not reproduced") and "gap +12345" in x for x in lines),
      f"wide: gap line: {lines}")

if failures:
    print("\n".join("FAIL " + f for f in failures))
    sys.exit(1)
print("kernel_gap_line: ok")

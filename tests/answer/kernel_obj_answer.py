#!/usr/bin/env python3
"""kernel_obj_answer: kernel --obj's summary gives every program with a
private stack its figures before it adds the lines that may yield
(src/answer/kernel_obj_answer.c). On the recorded run
tests/data/answer_kernel_obj.json read back with `stubbench report`:

- as recorded: both programs, each with its heading and kernel line;
  with_frame's codegen and placed lines;
- the programs in the other order (no_frame, the one without a private
  stack, first) and with_frame's twin made to show every optional line
  (its codegen above 0 and its placed cost below: the signs differ, and
  codegen + layout do not add up): with_frame still shown with its
  codegen, placed and in-kernel lines, no "(1 more program" line, and the
  quote line only where a program shown has codegen and placed apart;
- with_frame's twin removed: no quote line (no program shown has both).
Every summary within 10 lines of at most 100 columns.

usage: kernel_obj_answer.py STUBBENCH DATA_DIR"""
import json
import os
import sys

# checks.py and report_docs.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402
from report_docs import load, summary_lines  # noqa: E402

sb, data = sys.argv[1], sys.argv[2]
QUOTE = "quote codegen for what this JIT change costs"


def program_block(lines, prog):
    """The lines from PROG's heading to the next unindented line."""
    start = [i for i, x in enumerate(lines) if x.startswith(f"{prog} at batch ")]
    if not start:
        return []
    out = [lines[start[0]]]
    for x in lines[start[0] + 1:]:
        if not x.startswith(" "):
            break
        out.append(x)
    return out


doc = load(data, "answer_kernel_obj.json")
top = max(r["batch"] for r in doc["results"])

lines = summary_lines(sb, doc, "recorded")
wf = program_block(lines, "with_frame")
check(len(program_block(lines, "no_frame")) >= 2, f"recorded: no_frame's lines: {lines}")
check(any(x.startswith("  private stack: codegen ") for x in wf) and
      any(x.startswith("    placed like the loads: ") for x in wf), f"recorded: with_frame's lines: {lines}")

crafted = json.loads(json.dumps(doc))
crafted["results"].sort(key=lambda r: not r["variant"].startswith("no_frame"))
for r in crafted["results"]:
    if r["variant"] == "with_frame-twin" and r["batch"] == top:
        for k in ("matched", "codegen_median", "codegen_mean"):
            r[f"{k}_delta_cycles" if k == "matched" else f"{k}_cycles"] = 1.0
            r[f"{k}_ci95"] = [0.5, 1.5]
        r["codegen_modes"] = [{"cycles": 1.0, "share": 1}]
        r.update(layout_cost_cycles=0.1, layout_ci95=[0.0, 0.2], delta_vs_baseline_cycles=-1.0,
                 delta_ci95_cycles=[-1.5, -0.5], delta_vs_baseline_pct=-10.0, delta_ci95_pct=[-15.0, -5.0])
lines = summary_lines(sb, crafted, "no_frame first, every optional line")
check(lines and lines[1].startswith("no_frame at batch "), f"crafted: no_frame not first: {lines}")
wf = program_block(lines, "with_frame")
check(any(x.startswith("  private stack: codegen +1.00 [+0.50, +1.50]") for x in wf),
      f"crafted: with_frame's codegen line missing: {lines}")
check(any(x.startswith("    placed like the loads: -1.00 [-1.50, -0.50]") for x in wf),
      f"crafted: with_frame's placed line missing: {lines}")
check(any(x.startswith("    in the kernel (these loads)") for x in wf), f"crafted: the kernel's A/B missing: {lines}")
check(not any("more program" in x for x in lines), f"crafted: a program left out: {lines}")
check(not any(x.startswith(QUOTE) for x in lines) or wf, f"crafted: a quote line for no program shown: {lines}")

bare = json.loads(json.dumps(crafted))
bare["results"] = [r for r in bare["results"] if not r["variant"].startswith("with_frame-twin")]
lines = summary_lines(sb, bare, "no twin")
check(not any(x.startswith(QUOTE) for x in lines), f"no twin: a quote line: {lines}")
check(any(x.startswith("with_frame at batch ") for x in lines), f"no twin: with_frame missing: {lines}")

checks_done("kernel_obj_answer")

#!/usr/bin/env python3
"""readme_summary: the README's sample summary is in the form a real run
prints. tests/data/readme_sweep.json is a default run (`./build/stubbench
--cpu=1 --format=json`, AMD EPYC Zen 4 KVM VM, 2026-12-07); `stubbench report`
of it prints the summary that run printed. The README's block under
"Every measuring command prints a summary" must have the same lines in the
same shapes: every number read as N, the header from `returns:` on, and the
atlas's line (`... elsewhere`, whose machines grow with the atlas) up to
its colon. The block also keeps the summary's bounds: at most 10 lines,
none over 100 columns.
usage: readme_summary.py STUBBENCH README DATA_DIR"""
import re
import subprocess
import sys

sb, readme, data = sys.argv[1:4]
fails = []


def shape(line):
    if line.startswith("stubbench") and " returns: " in line:
        return "HEADER returns: " + line.split(" returns: ", 1)[1]
    if re.match(r"^\S+ elsewhere \(", line):
        return line.split(":", 1)[0]
    return re.sub(r"[+-]?\d+(\.\d+)?", "N", line)


text = open(readme, encoding="utf-8").read().splitlines()
start = next((i for i, l in enumerate(text) if l.startswith("Every measuring command prints a summary")), None)
block = []
if start is None:
    fails.append("no paragraph 'Every measuring command prints a summary' in the README")
else:
    i = start + 1
    while i < len(text) and not text[i].startswith("    "):
        i += 1
    while i < len(text) and text[i].startswith("    "):
        block.append(text[i][4:])
        i += 1
p = subprocess.run([sb, "report", f"{data}/readme_sweep.json"], capture_output=True, text=True)
real = p.stdout.splitlines()
if p.returncode != 0:
    fails.append(f"report exited {p.returncode}: {p.stderr}")
if not block:
    fails.append("no sample summary after the paragraph")
if len(block) > 10 or any(len(l) > 100 for l in block):
    fails.append(f"the sample has {len(block)} lines, the widest {max(map(len, block), default=0)} columns")
if [shape(l) for l in block] != [shape(l) for l in real]:
    fails.append("the README's sample is not in the form a real run prints:\n  README:\n    "
                 + "\n    ".join(block) + "\n  the run:\n    " + "\n    ".join(real))
# The sample answers first: the codegen at identical layout is its first
# figure line, what a placed load pays beside it, then which to quote.
if len(block) > 3 and not re.match(r"^\S+\s+codegen ", block[2]):
    fails.append(f"the first figure line is not a codegen: {block[2]}")
if not any(l.startswith("quote codegen for ") for l in block):
    fails.append("no line saying which figure to quote")
for f in fails:
    print("FAIL:", f)
if not fails:
    print("readme_summary: the README's sample summary has the lines of a real run's")
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""kernel_plot_table: the kernel plot and the kernel table draw one
estimate per cell, with one CI. On a recorded `stubbench kernel
--format=json --plot` run (Zen 4, perf_event driver, batches 8-512):
`stubbench plot` draws it again, and every point of its data file (kernel,
twin and placed twin, cycles added per iteration) equals the run's table of
verdicts (kernel_run.verdicts: the --table side by side's figures) and the
side-by-side table's own text at the precision it prints. On the Intel Xeon
6/0xa7 run, the summary's kernel figures at its batch (`stubbench report`)
equal the plot's points.

usage: kernel_plot_table.py STUBBENCH DATA_DIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

sb, data = sys.argv[1], sys.argv[2]


def plot_points(run):
    """{(variant, batch): (value, lo, hi)} of the plot's data file."""
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([sb, "plot", run, f"--output={d}/k.svg"], capture_output=True, text=True)
        check(os.path.exists(f"{d}/k.dat"), f"plot {run}: no data file: {p.returncode} {p.stderr}")
        if not os.path.exists(f"{d}/k.dat"):
            return {}
        pts, name = {}, None
        for line in open(f"{d}/k.dat"):
            m = re.match(r"# (\S+): .*\(cycles added per iteration\)", line)
            if m:
                name = m.group(1)
            elif line.startswith("#") or not line.strip():
                continue
            elif name:
                b, v, lo, hi = line.split()
                pts[(name, int(b))] = (float(v), float(lo), float(hi))
        return pts


def close(a, b, tol):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


run = os.path.join(data, "kernel_zen4_plot_table.json")
doc = json.load(open(run))
pts = plot_points(run)
sides = {"kernel": "", "twin": "-twin", "placed": "-twin@loads"}
n = 0
for v in doc["kernel_run"]["verdicts"]:
    if v["variant"] == "baseline":
        continue
    for side, suffix in sides.items():
        e = v.get(side)
        key = (f"{v['variant']}-{v['shape']}{suffix}", v["batch"])
        if not e:
            check(key not in pts, f"{key}: plotted, but not in the table")
            continue
        p = pts.get(key)
        t = (e["delta_cycles"], *e["ci95"])
        check(p is not None and all(close(a, b, 1e-5) for a, b in zip(p, t)), f"{key}: plot {p}, table {t}")
        n += 1
check(n == 2 * 2 * 3 * 3, f"{n} figures compared, want 36 (2 shapes x 2 variants x 3 batches x 3 sides)")

# The side-by-side table's text: twin and placed added as the plot has them.
FIG = r"([+-]?[0-9.]+) \[([+-]?[0-9.]+), ([+-]?[0-9.]+)\]"
shape, rows = None, 0
for line in doc["kernel_run"]["side_by_side"]:
    m = re.match(r"# (per-run|in-loop) shape:", line)
    if m:
        shape = m.group(1)
        continue
    m = re.match(r"(private|hybrid)\s+(\d+)\s+" + FIG + r"\s+" + FIG + r"\s+(not resolved|" + FIG + ")", line)
    if not m or not shape:
        continue
    g = m.groups()
    batch = int(g[1])
    cells = [("-twin", g[2:5]), ("-twin@loads", g[5:8])]
    if g[8] != "not resolved":
        cells.append(("", g[9:12]))
    for suffix, txt in cells:
        p = pts.get((f"{g[0]}-{shape}{suffix}", batch))
        # As printed: 2 decimals, or 1 where the CI is wide.
        check(p is not None and all(abs(float(t) - x) <= 0.051 for t, x in zip(txt, p)),
              f"{g[0]}-{shape}{suffix}@{batch}: table {txt}, plot {p}")
    rows += 1
check(rows == 12, f"{rows} table rows of private and hybrid read, want 12")

# The Intel run: the summary's kernel line at batch 4096 equals the plot.
run = os.path.join(data, "kernel_xeon_0xa7_perf_event.json")
pts = plot_points(run)
out = subprocess.run([sb, "report", run], capture_output=True, text=True).stdout
for shape in ("per-run", "in-loop"):
    line = next((x for x in out.splitlines() if x.startswith(f"  {shape} base ")), "")
    for name in ("private", "hybrid"):
        m = re.search(name + r" " + FIG, line)
        p = pts.get((f"{name}-{shape}", 4096))
        check(m and p and all(abs(float(t) - x) <= 0.006 for t, x in zip(m.groups(), p)),
              f"xeon {name}-{shape}@4096: summary {m and m.groups()}, plot {p}")

checks_done("kernel_plot_table")

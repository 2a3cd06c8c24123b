#!/usr/bin/env python3
"""What each arm cost process by process, in the order the processes ran:
reads the CSV of `stubbench ... --blocks=FILE` and prints, per batch size,
one line per fresh process (its start time, then the median of its blocks
per arm, in core cycles per iteration). A state that changes with time
shows as a column that switches level and stays there for several
processes; arms that switch in the same processes share a cause in time.

    ./build/stubbench kernel --cpu=1 --processes=32 --time=40 --blocks=b.csv
    python3 bench/states_in_time.py b.csv [--batch=N] [--arms=A,B]

It is a benchmark's reader, not a test."""
import argparse
import csv
import signal
import statistics
import sys
from collections import defaultdict


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--batch", type=int, help="only this batch size")
    ap.add_argument("--arms", help="only these arms, comma-separated (default: every arm but the overhead arm)")
    a = ap.parse_args()
    try:
        with open(a.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"states_in_time: {a.csv}: {e.strerror}")
    if not rows or "cycles_per_iter" not in rows[0] or "role" not in rows[0]:
        sys.exit(f"states_in_time: {a.csv}: not a --blocks file (no role and cycles_per_iter columns)")
    want = set(a.arms.split(",")) if a.arms else None
    by = defaultdict(lambda: defaultdict(list))  # batch -> (process, arm) -> values
    start = defaultdict(dict)                    # batch -> process -> first t_s
    arms = defaultdict(list)
    for r in rows:
        b, p, arm = int(r["batch"]), int(r["process"]), r["arm"]
        if a.batch and b != a.batch:
            continue
        if want is not None and arm not in want:
            continue
        if want is None and r["role"] == "overhead":
            continue
        by[b][(p, arm)].append(float(r["cycles_per_iter"]))
        t = float(r["t_s"])
        start[b][p] = min(t, start[b].get(p, t))
        if arm not in arms[b]:
            arms[b].append(arm)
    if not by:
        sys.exit("states_in_time: no rows match")
    for b in sorted(by):
        names = arms[b]
        print(f"batch {b}: median cycles per iteration of each process's blocks")
        print(f"{'process':>7} {'start s':>8} " + " ".join(f"{n[:26]:>26}" for n in names))
        for p in sorted(start[b], key=lambda q: start[b][q]):
            cells = []
            for n in names:
                v = by[b].get((p, n))
                cells.append(f"{statistics.median(v):>20.2f} ({len(v):>3})" if v else f"{'-':>26}")
            print(f"{p:>7} {start[b][p]:>8.2f} " + " ".join(cells))
        print()


if __name__ == "__main__":
    main()

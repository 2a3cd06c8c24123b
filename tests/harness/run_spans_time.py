#!/usr/bin/env python3
"""A --time run spans its time even when a batch size reaches its most
rounds (400000) first: the time left goes to the next batch sizes, and what
the last one leaves is waited out. Batch 1 alone reaches the cap in well
under a second on the machines seen so far; before, such a run ended there
(a 40 s run of batch 512 after 5 s). --time is the command's wall time
(its setup and fresh processes included), so the test times the command.
A lower bound only: sleeping never ends early, so no timing noise can fail
it."""
import json
import subprocess
import sys
import time

sb = sys.argv[1]
T = 3.0
t0 = time.monotonic()
p = subprocess.run([sb, "--variant=baseline", "--batch=1", f"--time={T}", "--processes=2", "--format=json"],
                   capture_output=True, text=True)
wall = time.monotonic() - t0
fail = []
if p.returncode != 0:
    fail.append(f"exit {p.returncode}: {p.stderr}")
else:
    d = json.loads(p.stdout)
    if wall < 0.9 * T:
        fail.append(f"{wall:.2f} s of --time={T}: the run ended before its time")
    print(f"run_spans_time: {wall:.2f} s of {T} (measuring {d['elapsed_s']:.2f} s)")
if fail:
    print("FAIL: " + "; ".join(fail))
    sys.exit(1)

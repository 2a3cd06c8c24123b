#!/usr/bin/env python3
"""A --time run spans its time even when a batch size reaches its most
rounds (400000) first: the time left goes to the next batch sizes, and what
the last one leaves is waited out. Batch 1 alone reaches the cap in well
under a second on the machines seen so far; before, such a run ended there
(a 40 s run of batch 512 after 5 s). A lower bound only: sleeping never ends
early, so no timing noise can fail it."""
import json
import subprocess
import sys

sb = sys.argv[1]
T = 3.0
p = subprocess.run([sb, "--variant=baseline", "--batch=1", f"--time={T}", "--processes=2", "--format=json"],
                   capture_output=True, text=True)
fail = []
if p.returncode != 0:
    fail.append(f"exit {p.returncode}: {p.stderr}")
else:
    d = json.loads(p.stdout)
    if d["elapsed_s"] < 0.9 * T:
        fail.append(f"elapsed_s {d['elapsed_s']:.2f} of --time={T}: the run ended before its time")
    capped = "reached 400000 rounds" in p.stderr
    print(f"run_spans_time: {d['elapsed_s']:.2f} s of {T}; batch 1 {'reached' if capped else 'did not reach'} the cap")
if fail:
    print("FAIL: " + "; ".join(fail))
    sys.exit(1)

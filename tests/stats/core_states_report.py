#!/usr/bin/env python3
"""`stubbench report RUN.json --from-blocks=LOG` on three recorded --padded
sweeps of an Intel Xeon VM (family 6 model 0xcf; tests/data/xeon-0xcf,
whole logs: each under 70 KB gzipped). Runs 1 and 2 sat beside a quiet
sibling, run 5 mostly beside a busy one. Checks: runs 1 and 2 give one
quiet-state codegen figure for private, agreeing within 0.1 cycle at every
batch size; run 5's is the busy state's (not a disagreement with them); no
figure claims a state its run did not see; without a record a one-cluster
run is "unknown", never "quiet"; the summary's first lines fit 100 columns
and name the states; bad input is one line and status 2.
Arguments: the stubbench binary, the fixture directory."""
import json
import os
import subprocess
import sys
import tempfile

# recorded_sweeps.py and checks.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from recorded_sweeps import report_from_blocks  # noqa: E402
from checks import check, checks_done  # noqa: E402

exe, data = sys.argv[1], sys.argv[2]


def report(tmp, run, *extra):
    return report_from_blocks(exe, data, tmp, run, *extra)


def figures(doc, variant, state):
    return {f["batch"]: f for f in doc["figures"] if f["variant"] == variant and f["state"] == state}


with tempfile.TemporaryDirectory() as tmp:
    record = f"--quiet-levels={os.path.join(data, 'quiet-levels')}"
    docs = {}
    for run in (1, 2, 5):
        p = report(tmp, run, record, "--format=json")
        check(p.returncode == 0, f"run {run}: status {p.returncode}: {p.stderr}")
        docs[run] = json.loads(p.stdout)
    for run, doc in docs.items():
        seen = {s["state"] for s in doc["core_states"]["seen"]}
        check(doc["core_states"]["basis"] == "record", f"run {run}: basis {doc['core_states']['basis']}")
        for f in doc["figures"]:
            check(f["state"] in seen, f"run {run}: a figure in state {f['state']}, not seen ({seen})")
        if run in (1, 2):
            check(seen == {"quiet"}, f"run {run}: saw {seen}, not quiet alone")
    q1, q2 = figures(docs[1], "private", "quiet"), figures(docs[2], "private", "quiet")
    check(sorted(q1) == [512, 2048, 4096] and sorted(q2) == sorted(q1), f"batches {sorted(q1)} {sorted(q2)}")
    for b in q1:
        c1, c2 = q1[b]["codegen"]["cycles"], q2.get(b, {}).get("codegen", {}).get("cycles")
        check(c2 is not None and abs(c1 - c2) < 0.1, f"batch {b}: quiet codegen {c1} and {c2} differ by 0.1+")
        check(-3.1 < c1 < -2.9, f"batch {b}: quiet codegen {c1}, the recorded run read -2.97 to -3.00")
    busy = figures(docs[5], "private", "busy")
    seen5 = {s["state"]: s for s in docs[5]["core_states"]["seen"]}
    check("busy" in seen5 and seen5["busy"]["canary_median"] < 3.5, f"run 5: {seen5}")
    for b, f in busy.items():
        check(f["codegen"]["cycles"] > 2.0, f"run 5 batch {b}: busy codegen {f['codegen']['cycles']}")
    check(sorted(busy) == [512, 2048, 4096], f"run 5: busy figures at {sorted(busy)}")

    p = report(tmp, 1, "--format=json")
    doc = json.loads(p.stdout)
    check(doc["core_states"]["basis"] == "none", f"no record: basis {doc['core_states']['basis']}")
    check({f["state"] for f in doc["figures"]} == {"unknown"}, "no record, one cluster: not unknown")
    p = report(tmp, 5, "--format=json")
    check(json.loads(p.stdout)["core_states"]["basis"] == "run", "run 5 without record: not its own two clusters")

    p = report(tmp, 5, record)
    head = p.stdout.split("\n\n")[0].splitlines()
    check(len(head) <= 10, f"summary of {len(head)} lines")
    check(all(len(line) <= 100 for line in head), "a summary line over 100 columns")
    check("busy" in head[1] and "quiet" in head[1], f"the states line: {head[1]}")
    check(any(line.startswith("private") and "busy" in line for line in head), "no busy line for private")

    bad = [[exe, "report", os.path.join(data, "sweep-1.json"), "--from-blocks=" + os.path.join(tmp, "none.csv")],
           [exe, "report", os.path.join(data, "sweep-1.json"), record],
           [exe, "report", os.path.join(data, "sweep-1.json"), "--from-blocks=" + os.path.join(data, "sweep-1.json")]]
    for args in bad:
        p = subprocess.run(args, capture_output=True, text=True)
        check(p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and not p.stdout,
              f"{args[2:]}: status {p.returncode}, stderr {p.stderr!r}")

checks_done("core_states_report")

#!/usr/bin/env python3
"""`stubbench report RUN.json --from-blocks=LOG` on two --padded sweeps of an
Intel Xeon KVM VM (CPUID 6/0xa7, no SMT sibling in the guest;
tests/data/xeon-0xa7): the machine this project last ran on, beside the
0xcf recordings (core_states_report.py). Checks, exact on the recorded
blocks: with the machine's record each run names one state, quiet, basis
"record", and gives no figure for a state it did not see; private's and
host-private's quiet codegen is given at 512, 2048 and 4096, each run's CI
holding the other run's figure; without a record each run is one cluster,
"unknown", never "quiet".
Arguments: the stubbench binary, the fixture directory."""
import json
import os
import sys
import tempfile

# recorded_sweeps.py and checks.py lie in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from recorded_sweeps import report_from_blocks  # noqa: E402
from checks import check, checks_done  # noqa: E402

exe, data = sys.argv[1], sys.argv[2]


def report(tmp, run, *extra):
    p = report_from_blocks(exe, data, tmp, run, "--format=json", *extra)
    check(p.returncode == 0, f"run {run} {extra}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout) if p.returncode == 0 else {"figures": [], "core_states": {}}


with tempfile.TemporaryDirectory() as tmp:
    record = f"--quiet-levels={os.path.join(data, 'quiet-levels')}"
    docs = {run: report(tmp, run, record) for run in (1, 2)}
    for run, doc in docs.items():
        cs = doc["core_states"]
        seen = [s["state"] for s in cs.get("seen", [])]
        check(cs.get("basis") == "record" and seen == ["quiet"], f"run {run}: basis {cs.get('basis')}, seen {seen}")
        states = {f["state"] for f in doc["figures"]}
        check(states == {"quiet"}, f"run {run}: figures for states {states}")
    for variant in ("private", "host-private"):
        for batch in (512, 2048, 4096):
            got = {}
            for run, doc in docs.items():
                f = [x for x in doc["figures"] if x["variant"] == variant and x["batch"] == batch]
                check(len(f) == 1 and f[0].get("codegen"), f"run {run}: no {variant} codegen at {batch}")
                if len(f) == 1 and f[0].get("codegen"):
                    got[run] = f[0]["codegen"]
            if len(got) == 2:
                for run, other in ((1, 2), (2, 1)):
                    lo, hi = got[run]["ci95"]
                    v = got[other]["cycles"]
                    check(lo <= v <= hi, f"{variant} at {batch}: run {run}'s CI [{lo:.2f}, {hi:.2f}] "
                                         f"misses run {other}'s {v:.2f}")
    for run in (1, 2):
        doc = report(tmp, run, "--quiet-levels=none")
        seen = [s["state"] for s in doc["core_states"].get("seen", [])]
        check(seen == ["unknown"], f"run {run} without a record: seen {seen}")

checks_done("core_states_0xa7")

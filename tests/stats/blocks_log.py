#!/usr/bin/env python3
"""--blocks=FILE: every kept block, one CSV row per arm, agrees with the run's
own JSON: as many blocks as the run kept, every arm once per block, both
processes present, each block's value inside its cell's sample range, times
in order within a process. Every block kept (STUBBENCH_TEST_DISTURB_NONE),
so the counts are exact; no timing is judged."""
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

sb = sys.argv[1]


HEADER = ["t_s", "part", "batch", "process", "block", "state", "clock", "canary", "window", "arm", "role",
          "cycles_per_iter", "sibling"]
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "blocks.csv")
    env = dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1")
    p = subprocess.run([sb, "--flavour=seed001", "--variant=baseline,private", "--batch=1,64", "--samples=300", "--processes=2",
                        "--no-padded", "--seed=5", "--format=json", f"--blocks={path}"], capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"exit {p.returncode}: {p.stderr}")
    doc = json.loads(p.stdout)
    with open(path, newline="") as f:
        rows = list(csv.reader(f))

check(rows and rows[0] == HEADER, f"header {rows[:1]}")
body = [dict(zip(HEADER, r)) for r in rows[1:]]
check(all(len(r) == len(HEADER) for r in rows[1:]), "a row with the wrong number of fields")
blocks = defaultdict(list)  # (batch, block) -> rows
for r in body:
    blocks[(int(r["batch"]), int(r["block"]))].append(r)
check(doc["disturbed_blocks"] == 0, f"disturbed blocks {doc['disturbed_blocks']} with every block kept")
check(len(blocks) == doc["blocks"], f"{len(blocks)} blocks in the file, the run kept {doc['blocks']}")
variants = {r["variant"] for r in doc["results"]}
arms = None
for key, rs in blocks.items():
    names = sorted(r["arm"] for r in rs)
    check(len(names) == len(set(names)), f"block {key}: an arm twice: {names}")
    check(variants <= set(names) and len(names) == len(variants) + 1,
          f"block {key}: arms {names}, want {sorted(variants)} and the overhead arm")
    check(len({(r["t_s"], r["process"], r["state"]) for r in rs}) == 1, f"block {key}: rows disagree")
    roles = {r["arm"]: r["role"] for r in rs}
    want_roles = {n: "baseline" if n == "baseline" else "variant" if n in variants else "overhead" for n in names}
    check(roles == want_roles, f"block {key}: roles {roles}, want {want_roles}")
    arms = arms or set(names)
for batch in (1, 64):
    procs = {int(r["process"]) for r in body if int(r["batch"]) == batch}
    check(procs == {0, 1}, f"batch {batch}: processes {procs}, want both of --processes=2")
# A block's value is the trimmed mean of its kept samples: within the cell's
# sample range (the JSON's min and max over every kept sample).
for res in doc["results"]:
    c = res["cycles_per_iter"]
    vals = [float(r["cycles_per_iter"]) for r in body
            if r["arm"] == res["variant"] and int(r["batch"]) == res["batch"]]
    check(vals, f"{res['variant']}@{res['batch']}: no rows")
    if vals:
        check(c["min"] - 1e-3 <= min(vals) and max(vals) <= c["max"] + 1e-3,
              f"{res['variant']}@{res['batch']}: blocks {min(vals):.3f}..{max(vals):.3f} outside the "
              f"samples' {c['min']:.3f}..{c['max']:.3f}")
# Within one process of one batch size, later blocks start later.
seq = defaultdict(list)
for (batch, block), rs in blocks.items():
    seq[(batch, rs[0]["process"])].append((block, float(rs[0]["t_s"])))
for key, v in seq.items():
    v.sort()
    check(all(a[1] <= b[1] for a, b in zip(v, v[1:])), f"batch/process {key}: times out of order")
check(all(float(r["clock"]) > 0 and float(r["t_s"]) >= 0 for r in body), "a clock or time not above 0")
# Nothing loads the sibling by default: every block quiet, or none without one.
check(len({r["sibling"] for r in body}) == 1 and body[0]["sibling"] in ("quiet", "none"),
      f"sibling column {sorted({r['sibling'] for r in body})}")

checks_done("blocks_log")

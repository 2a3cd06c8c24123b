#!/usr/bin/env python3
"""--sibling and --sibling-load end to end, no timing judged:
- bad values and --sibling-load without a loaded sibling: exit 2, one line naming the option;
- where the measured CPU has no SMT sibling in the topology (sysfs says so), --sibling=busy says
  exactly that in one line and measures; where it has one, no such line;
- with a stand-in sibling (STUBBENCH_TEST_SIBLING_CPU), --sibling=both runs the load process, its
  parking and the blocks' turns for real: the --blocks column alternates within each process,
  even processes starting quiet, and JSON config.sibling names the mode, load and PU."""
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


def run(args, env=None):
    e = dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1", **(env or {}))
    return subprocess.run([sb] + args, capture_output=True, text=True, env=e)


for args, want in ((["--sibling=loud"], "--sibling=loud: not one of quiet|busy|both"),
                   (["--sibling-load=fast", "--sibling=busy"], "--sibling-load=fast: not one of spin|same"),
                   (["--sibling-load=same"], "--sibling-load=same: needs --sibling=busy or --sibling=both")):
    p = run(args + ["--time=1"])
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and want in lines[0], f"{args}: exit {p.returncode}, {lines}")
for cmd in (["annotate", "--variant=private"], ["lab"]):
    p = run(cmd + ["--sibling=sometimes"])
    check(p.returncode == 2 and "--sibling=sometimes" in p.stderr, f"{cmd[0]}: exit {p.returncode} {p.stderr}")

cpus = sorted(os.sched_getaffinity(0))
cpu = cpus[-1]
short = ["--flavour=seed001", "--variant=private", "--batch=64", "--samples=40", "--processes=2",
         "--quiet-levels=none", "--past-runs=none", f"--cpu={cpu}"]
sib_path = f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
siblings = open(sib_path).read().strip() if os.path.exists(sib_path) else None
p = run(short + ["--sibling=busy"])
check(p.returncode == 0, f"--sibling=busy: exit {p.returncode}: {p.stderr}")
said = [l for l in p.stderr.splitlines() if "--sibling=busy:" in l]
if siblings == str(cpu):
    want = (f"stubbench: --sibling=busy: CPU {cpu} has no SMT sibling in this machine's topology "
            "(hwloc: 1 PU per core); measuring as it comes")
    check(said == [want], f"no sibling: said {said}")
else:
    print(f"sibling_cli: CPU {cpu} has siblings {siblings}: the no-sibling line is not tested here")
    check(not said or "outside this process's allowed set" in said[0], f"a sibling, yet said {said}")

if len(cpus) < 2:
    print("sibling_cli: SKIP the stand-in sibling: one allowed CPU")
else:
    stand_in = cpus[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "blocks.csv")
        p = run(short + ["--sibling=both", "--sibling-load=same", "--format=json", f"--blocks={path}"],
                {"STUBBENCH_TEST_SIBLING_CPU": str(stand_in)})
        check(p.returncode == 0, f"--sibling=both: exit {p.returncode}: {p.stderr}")
        check(f"CPU {stand_in} stands in for CPU {cpu}'s SMT sibling" in p.stderr, f"stand-in line: {p.stderr}")
        doc = json.loads(p.stdout) if p.returncode == 0 else {}
        sib = doc.get("config", {}).get("sibling") or {}
        check(sib == {"mode": "both", "load": "same", "pu": stand_in, "none_why": None, "forced": True,
                      "loaded": True}, f"config.sibling {sib}")
        rows = list(csv.DictReader(open(path))) if os.path.exists(path) else []
    check(rows and "sibling" in rows[0], "no sibling column")
    turns = defaultdict(dict)  # (batch, process) -> block -> state
    for r in rows:
        turns[(r["batch"], int(r["process"]))][int(r["block"])] = r["sibling"]
    check(len(turns) == 2, f"{len(turns)} processes in the log, want 2")
    for (batch, proc), by in turns.items():
        seq = [by[b] for b in sorted(by)]
        want = [("busy" if (i + proc) % 2 else "quiet") for i in range(len(seq))]
        check(seq == want, f"batch {batch} process {proc}: turns {seq[:8]}..., want {want[:8]}...")

checks_done("sibling_cli")

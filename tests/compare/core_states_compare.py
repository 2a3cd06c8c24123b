#!/usr/bin/env python3
"""core_states_compare: `stubbench compare` compares like with like, on the
Xeon fixtures (tests/data/xeon-0xcf). Each run's JSON gets the member a live
run writes, `core_states`, from `report RUN --from-blocks=LOG
--quiet-levels=RECORD --format=json` on its own blocks log: runs 1 and 2
quiet, run 5 quiet and busy, and run 5's busy blocks alone (its log less the
blocks whose canary reads quiet) a busy run.

  - quiet (1) against busy (5's busy blocks): the states differ, each is
    named in one line, no row is compared and none flagged, and
    --fail-on-change exits 0;
  - quiet (1) against quiet (2): the rows are compared, no states line,
    private's codegen agrees within 0.1 cycle at every batch size;
  - quiet (1) against quiet and busy (5): only the quiet figures are
    compared, the busy state named as B's alone;
  - a run without states (the fixture as recorded) against one with: the
    rows are compared, one line saying the first is in no known state.
No timing is measured.

usage: core_states_compare.py STUBBENCH DATA
"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

exe, data = sys.argv[1:3]


def with_states(tmp, run, keep=None):
    """sweep-RUN.json with its core states from its log (keep: a filter of its rows)."""
    rows = gzip.open(os.path.join(data, f"sweep-{run}.blocks.csv.gz"), "rt").read().splitlines()
    log = os.path.join(tmp, f"{run}{'-kept' if keep else ''}.csv")
    with open(log, "w") as f:
        f.write("\n".join(rows[:1] + [r for r in rows[1:] if not keep or keep(r)]) + "\n")
    p = subprocess.run([exe, "report", os.path.join(data, f"sweep-{run}.json"), "--from-blocks=" + log,
                        "--quiet-levels=" + os.path.join(data, "quiet-levels"), "--format=json"],
                       capture_output=True, text=True)
    check(p.returncode == 0, f"report --from-blocks of run {run}: {p.stderr}")
    rep = json.loads(p.stdout)
    doc = json.load(open(os.path.join(data, f"sweep-{run}.json")))
    doc["core_states"] = dict(rep["core_states"], figures=rep["figures"])
    out = log[:-4] + ".json"
    json.dump(doc, open(out, "w"))
    return out


def compare(a, b, *extra):
    return subprocess.run([exe, "compare", "--fail-on-change", *extra, a, b], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as tmp:
    canary = lambda row: float(row.split(",")[7])
    q1, q2, mixed = with_states(tmp, 1), with_states(tmp, 2), with_states(tmp, 5)
    busy = with_states(tmp, 5, keep=lambda row: canary(row) < 0.9 * 4.60)

    p = compare(q1, busy)
    out = p.stdout
    check(p.returncode == 0, f"quiet against busy: exit {p.returncode}: {p.stderr}")
    check("# core states differ: A quiet 2456 blocks; B busy 1671 blocks" in out, "quiet/busy: no states line:\n" + out)
    check("# state quiet: only in A" in out and "# state busy: only in B" in out, "quiet/busy: states not named:\n" + out)
    check(not re.search(r"\*$", out, re.M) and "0 of the states' compared rows differ" in out,
          "quiet/busy: a change flagged:\n" + out)
    check(not re.search(r"^(host-)?private +\d+ ", out, re.M), "quiet/busy: a row compared:\n" + out)

    p = compare(q1, q2, "--metric=codegen")
    out = p.stdout
    check("core states" not in out, "quiet/quiet: a states line:\n" + out)
    rows = re.findall(r"^private +(\d+) +(\S+) \[.*?\] +(\S+) \[", out, re.M)
    check(len(rows) == 3 and all(abs(float(a) - float(b)) <= 0.1 for _, a, b in rows),
          f"quiet/quiet: private's codegen {rows}:\n" + out)

    p = compare(q1, mixed)
    out = p.stdout
    check(p.returncode in (0, 1) and "# core states differ: A quiet 2456 blocks; B quiet 146 blocks, busy 1671"
          in out, f"quiet/mixed: exit {p.returncode}:\n" + out + p.stderr)
    compared = re.findall(r"^\S+ +\d+ (\w+) +(codegen|vs base) ", out, re.M)
    check(compared and all(s == "quiet" for s, _ in compared) and "# state busy: only in B" in out,
          f"quiet/mixed: compared {compared}:\n" + out)

    p = compare(os.path.join(data, "sweep-1.json"), busy)
    out = p.stdout
    check("a run in no known state, its rows compared as they are" in out and
          re.search(r"^private +4096 ", out, re.M), "old/busy: rows not compared:\n" + out)

checks_done("core_states_compare")

#!/usr/bin/env python3
"""core_states_live: a sweep's figures per core state in its own JSON
(`core_states`) and its summary, live and read back. No timing is compared
with anything.

  - a saved run with a `core_states` member (recorded run 5 of the Intel
    Xeon VM fixture, tests/data/xeon-0xcf, its member made by `stubbench
    report --from-blocks` with the machine's record: busy and quiet blocks)
    prints, from `stubbench report`, one line naming both states and one
    with the first variant's codegen per state, each figure the member's own, in a
    summary of at most 10 lines of at most 100 columns; the run validates
    against the schema;
  - the same run without the member reads as before: no core-state line;
  - a member of the wrong shape (not an object, seen not an array, a
    figure without a state) is read as absent or skipped, never a crash;
  - a short live --padded run (STUBBENCH_TEST_DISTURB_NONE=1, --samples,
    no record) has `core_states` whose states' block counts sum to the
    blocks its --blocks log kept, every block "unknown" (no quiet level),
    every figure in a state it saw, and its summary names that state.
Arguments: the stubbench binary, the fixture directory, the schema."""
import csv
import gzip
import json
import os
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

exe, data, schema_path = sys.argv[1:4]


def run(*args, env=None):
    return subprocess.run([exe, *args], capture_output=True, text=True, env=env)


def summary_ok(text, what):
    lines = text.splitlines()
    check(0 < len(lines) <= 10, f"{what}: summary of {len(lines)} lines")
    check(all(len(line) <= 100 for line in lines), f"{what}: a summary line over 100 columns")
    return lines


def validator():
    try:
        import jsonschema
    except ImportError:
        print("core_states_live: no jsonschema module: the schema is checked by run_schema")
        return None
    return jsonschema.Draft202012Validator(json.load(open(schema_path)))


def saved_run(tmp):
    """Run 5's JSON with the core_states member report --from-blocks gives it."""
    log = os.path.join(tmp, "sweep-5.blocks.csv")
    with gzip.open(os.path.join(data, "sweep-5.blocks.csv.gz"), "rb") as z, open(log, "wb") as f:
        f.write(z.read())
    src = os.path.join(data, "sweep-5.json")
    p = run("report", src, f"--from-blocks={log}", f"--quiet-levels={os.path.join(data, 'quiet-levels')}",
            "--format=json")
    check(p.returncode == 0, f"report --from-blocks: status {p.returncode}: {p.stderr}")
    rep = json.loads(p.stdout)
    doc = json.load(open(src))
    doc["core_states"] = dict(rep["core_states"], figures=rep["figures"])
    return doc


def saved_checks(tmp, v):
    doc = saved_run(tmp)
    path = os.path.join(tmp, "with-states.json")
    json.dump(doc, open(path, "w"))
    if v:
        errs = [e.message[:160] for e in v.iter_errors(doc)]
        check(not errs, f"the saved run with core_states does not validate: {errs[:2]}")
    p = run("report", path)
    check(p.returncode == 0, f"report of the saved run: status {p.returncode}: {p.stderr}")
    lines = summary_ok(p.stdout, "saved run")
    states = [line for line in lines if line.startswith("core states:")]
    check(len(states) == 1 and "quiet" in states[0] and "busy" in states[0], f"no states line: {lines}")
    per = [line for line in lines if "codegen at batch 4096 by state:" in line]
    check(len(per) == 1, f"no per-state codegen line: {lines}")
    if per:
        # The summary's first variant: the host flavour's private.
        name = per[0].split()[0]
        check(name == lines[2].split()[0], f"{per[0]!r}: not the summary's first variant")
        figs = {f["state"]: f for f in doc["core_states"]["figures"]
                if f["variant"] == name and f["batch"] == 4096}
        busy = "busy %+.2f" % figs["busy"]["codegen"]["cycles"]
        check(busy in per[0], f"{per[0]!r}: not {name}'s {busy}")
        # Both states hold 32 blocks or more: each is named, with its figure or as too few.
        quiet = "quiet %+.2f" % figs["quiet"]["codegen"]["cycles"] if "quiet" in figs else "quiet too few blocks"
        check(quiet in per[0], f"{per[0]!r}: not {quiet!r}")
    plain = run("report", os.path.join(data, "sweep-5.json"))
    check(plain.returncode == 0 and "core state" not in plain.stdout, "a run without core_states: a state line")
    for bad in ([], {"seen": "x", "figures": [{"variant": "private", "batch": 4096}]}, {"basis": 7}):
        doc["core_states"] = bad
        json.dump(doc, open(path, "w"))
        p = run("report", path)
        check(p.returncode == 0 and "core state" not in p.stdout, f"core_states {bad!r}: {p.returncode} {p.stdout}")


def logged_blocks(path):
    with open(path) as f:
        return {(r["part"], r["batch"], r["process"], r["block"]) for r in csv.DictReader(f)}


def live_checks(tmp, v):
    env = dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1")
    log = os.path.join(tmp, "live.blocks.csv")
    common = ["--padded", "--variant=private", "--batch=1,64", "--samples=12", "--processes=2",
              "--past-runs=none", "--quiet-levels=none"]
    p = run(*common, f"--blocks={log}", "--format=json", env=env)
    check(p.returncode == 0, f"live run: status {p.returncode}: {p.stderr[-300:]}")
    if p.returncode:
        return
    doc = json.loads(p.stdout)
    if v:
        errs = [e.message[:160] for e in v.iter_errors(doc)]
        check(not errs, f"the live run does not validate: {errs[:2]}")
    cs = doc.get("core_states")
    check(cs is not None, "the live run's JSON has no core_states")
    if not cs:
        return
    seen = {s["state"]: s["blocks"] for s in cs["seen"]}
    kept = len(logged_blocks(log))
    check(sum(seen.values()) == kept, f"states' blocks {seen} do not sum to the {kept} blocks kept")
    check(cs["basis"] == "none" and set(seen) == {"unknown"}, f"no record: basis {cs['basis']}, seen {seen}")
    check(all(f["state"] in seen for f in cs["figures"]), "a figure in a state the run did not see")
    path = os.path.join(tmp, "live.json")
    open(path, "w").write(p.stdout)
    back = run("report", path)
    lines = summary_ok(back.stdout, "live run read back")
    check(any(line.startswith("core state: unknown") for line in lines), f"no unknown-state line: {lines}")


v = validator()
with tempfile.TemporaryDirectory() as tmp:
    saved_checks(tmp, v)
    live_checks(tmp, v)
checks_done("core_states_live")

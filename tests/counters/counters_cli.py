#!/usr/bin/env python3
"""counters_cli: stubbench --counters end to end.

usage: counters_cli.py STUBBENCH

Runs a short measurement with hardware and software events. Whether this
machine can count cycles is judged from sysfs (a core PMU appears as
/sys/bus/event_source/devices/cpu, or cpu_core on hybrid parts). Checks:
  - exit 0, and at most one line on stderr about unavailable counters and
    at most one about likwid;
  - without a PMU: that line names cycles and instructions as "not
    supported here", and the JSON's counter columns are the software events;
    with a PMU: all four columns;
  - every result has counters_per_iter with task-clock > 0 (nanoseconds of
    the thread per iteration) and a context-switches figure.
  - an unknown event exits 2 with one line naming it.
No figure is compared with a threshold beyond "> 0".
"""
import json
import os
import subprocess
import sys

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402


def main():
    sb = sys.argv[1]
    pmu = any(os.path.isdir("/sys/bus/event_source/devices/" + d) for d in ("cpu", "cpu_core"))
    events = ["cycles", "instructions", "task-clock", "context-switches"]
    p = subprocess.run([sb, "--variant=private", "--batch=64,512", "--samples=200",
                        "--format=json", "--counters=" + ",".join(events)],
                       capture_output=True, text=True)
    check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr))
    err = p.stderr.splitlines()
    notes = [l for l in err if "counters: " in l and "carrying on" in l]
    likwid = [l for l in err if "likwid" in l]
    print("this machine: %s" % ("core PMU" if pmu else "no core PMU"))
    for l in notes + likwid:
        print("stderr: " + l)
    check(len(likwid) <= 1, "more than one likwid line: %s" % likwid)
    doc = json.loads(p.stdout)
    if pmu:
        check(not notes, "a counters note although the PMU is there: %s" % notes)
        want = events
    else:
        check(len(notes) == 1, "want one counters note, got %s" % notes)
        if notes:
            check("cycles, instructions not supported here" in notes[0], "note: %s" % notes[0])
            check("carrying on with task-clock, context-switches" in notes[0], "note: %s" % notes[0])
            check("stubbench annotate" in notes[0], "note names no fallback: %s" % notes[0])
        check(not likwid, "a likwid line beside the counters note: %s" % likwid)
        want = ["task-clock", "context-switches"]
    check(doc.get("counters") == want, "counter columns %s, want %s" % (doc.get("counters"), want))
    results = doc.get("results", [])
    check(len(results) >= 2, "%d results" % len(results))
    for r in results:
        c = r.get("counters_per_iter", {})
        name = "%s/%s" % (r.get("variant"), r.get("batch"))
        check(sorted(c) == sorted(want), "%s: counters %s" % (name, sorted(c)))
        check(c.get("task-clock", 0) > 0, "%s: task-clock %r" % (name, c.get("task-clock")))
        check(isinstance(c.get("context-switches"), (int, float)), "%s: context-switches" % name)

    if not pmu:
        # Nothing countable listed: the one line says what counts without a PMU.
        p = subprocess.run([sb, "--variant=private", "--batch=64", "--samples=20", "--format=json",
                            "--counters=cycles"], capture_output=True, text=True)
        err = [l for l in p.stderr.splitlines() if "counters" in l or "likwid" in l]
        check(p.returncode == 0, "cycles alone: exit %d" % p.returncode)
        check(len(err) == 1, "cycles alone: want one line, got %s" % err)
        check(err and "carrying on without counters" in err[0] and
              "--counters=task-clock,context-switches" in err[0] and "stubbench annotate" in err[0],
              "cycles alone: %s" % err)

    p = subprocess.run([sb, "--variant=private", "--samples=10", "--counters=cycles,nonsense"],
                       capture_output=True, text=True)
    check(p.returncode == 2, "unknown event: exit %d" % p.returncode)
    check("'nonsense'" in p.stderr and p.stderr.count("\n") == 1,
          "unknown event: stderr %r" % p.stderr)

    checks_done("counters_cli")


if __name__ == "__main__":
    main()

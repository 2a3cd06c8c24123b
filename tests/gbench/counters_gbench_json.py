#!/usr/bin/env python3
"""counters_gbench_json: stubbench-gbench's Google Benchmark JSON.

usage: counters_gbench_json.py STUBBENCH_GBENCH STUBBENCH

The variants come from `stubbench --list` (first column of each variant's
first line), so the test follows the registry. Checks, with a tiny
--benchmark_min_time:
  - a full run: exactly one benchmark per variant x default batch
    (1 8 64 512 2048 4096), named "<variant>/batch:<batch>/manual_time", with
    iterations and positive tsc_cycles_per_call, core_cycles_per_call,
    core_ghz and items_per_second, and no error;
  - a filtered run with --batch and repetitions: only the selected
    variant, its batches, and mean/median/stddev aggregates;
  - --cpu: the CPU pinned to is in the context; random interleaving on by
    default (benchmarks done in a random order), off on request;
  - the disturbance check: two runs pinned to one CPU switch each other
    out, and the samples hit are counted (disturbed_reruns/_kept);
  - --help and --version exit 0;
  - --counters: software events per call always, cycles per call or one
    line saying why not;
  - bad input exits 2 with a message naming it.
Timings are never compared with anything.
"""
import json
import os
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

DEFAULT_BATCHES = [1, 8, 64, 512, 2048, 4096]
COUNTERS = ["tsc_cycles_per_call", "core_cycles_per_call", "core_ghz", "items_per_second"]
DISTURBANCE = ["disturbed_reruns", "disturbed_kept"]


def variants(stubbench):
    out = subprocess.run([stubbench, "--list"], capture_output=True, text=True, check=True).stdout
    names = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    if not names:
        sys.exit("stubbench --list printed no variants:\n" + out)
    return names


def run_json(gbench, args, stderr_lines=None):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.json")
        p = subprocess.run([gbench, "--benchmark_min_time=0.001", "--benchmark_format=json",
                            "--benchmark_out=" + path, "--benchmark_out_format=json"] + args,
                           capture_output=True, text=True)
        check(p.returncode == 0, "%s exited %d: %s" % (args, p.returncode, p.stderr))
        with open(path) as f:
            from_file = json.load(f)
        from_stdout = json.loads(p.stdout)
        check([b["name"] for b in from_file["benchmarks"]] ==
              [b["name"] for b in from_stdout["benchmarks"]],
              "--benchmark_out and stdout list different benchmarks")
        if stderr_lines is not None:
            stderr_lines.extend(p.stderr.splitlines())
        if "DEBUG" in p.stderr:
            print("note: libbenchmark says: " +
                  next(l for l in p.stderr.splitlines() if "DEBUG" in l))
        return from_file


def check_iteration(b):
    check(b.get("run_type") == "iteration", "%s: run_type %s" % (b["name"], b.get("run_type")))
    check(not b.get("error_occurred"), "%s: error %s" % (b["name"], b.get("error_message")))
    check(b.get("iterations", 0) >= 1, "%s: iterations %s" % (b["name"], b.get("iterations")))
    for c in COUNTERS:
        v = b.get(c)
        check(isinstance(v, (int, float)) and v > 0, "%s: counter %s = %r" % (b["name"], c, v))
    for c in DISTURBANCE:
        v = b.get(c)
        check(isinstance(v, (int, float)) and v >= 0, "%s: counter %s = %r" % (b["name"], c, v))


def main():
    gbench, stubbench = sys.argv[1], sys.argv[2]
    names = variants(stubbench)
    print("variants: " + " ".join(names))

    # No filter: the six variants the README compares, at every default batch.
    p = subprocess.run([gbench, "--benchmark_list_tests=true"], capture_output=True, text=True)
    six = ["baseline", "private", "hybrid", "host-baseline", "host-private", "host-hybrid"]
    want = ["%s/batch:%d/manual_time" % (v, n) for v in six if v in names for n in DEFAULT_BATCHES]
    check(p.returncode == 0 and sorted(p.stdout.split()) == sorted(want),
          "unfiltered: exit %d, benchmarks %s, want %s" % (p.returncode, p.stdout.split(), want))
    p = subprocess.run([gbench, "--help"], capture_output=True, text=True)
    check(all(v in p.stdout for v in six) and "--benchmark_filter=." in p.stdout,
          "--help does not name the unfiltered set and how to run every variant")

    # Full run: every variant x default batch, once.
    doc = run_json(gbench, ["--benchmark_filter=."])
    check("context" in doc and "benchmarks" in doc, "JSON lacks context or benchmarks")
    print("library_build_type: %s" % doc["context"].get("library_build_type"))
    got = [b["name"] for b in doc["benchmarks"]]
    # manual time (the TSC time of the samples) adds "/manual_time"
    want = ["%s/batch:%d/manual_time" % (v, n) for v in names for n in DEFAULT_BATCHES]
    check(sorted(got) == sorted(want), "benchmarks %s, want %s" % (got, want))
    check(len(got) == len(set(got)), "a benchmark ran twice: %s" % got)
    for b in doc["benchmarks"]:
        check_iteration(b)
        check(b.get("run_name") == b["name"], "%s: run_name %s" % (b["name"], b.get("run_name")))
    check(str(doc["context"].get("stubbench_cpu", "")).isdigit(),
          "context lacks the pinned CPU: %r" % doc["context"].get("stubbench_cpu"))

    # Filtered run, own batches, repetitions with aggregates.
    v = names[-1]
    doc = run_json(gbench, ["--batch=2,16", "--benchmark_filter=^%s/" % v,
                            "--benchmark_repetitions=2"])
    its = [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"]
    aggs = [b for b in doc["benchmarks"] if b.get("run_type") == "aggregate"]
    check(sorted({b["run_name"] for b in its}) == sorted(["%s/batch:2/manual_time" % v, "%s/batch:16/manual_time" % v]),
          "filtered run: %s" % [b["name"] for b in its])
    check(len(its) == 4, "2 batches x 2 repetitions: %d runs" % len(its))
    for b in its:
        check_iteration(b)
    for name in ("mean", "median", "stddev"):
        check(sum(1 for b in aggs if b.get("aggregate_name") == name) == 2,
              "aggregate %s missing" % name)
    for b in aggs:
        if b.get("aggregate_name") in ("mean", "median"):
            check(b.get("tsc_cycles_per_call", 0) > 0, "%s: no tsc_cycles_per_call" % b["name"])

    # --counters: perf events per call; cycles either counted or explained
    # in one line (no PMU here), software events always counted.
    err = []
    doc = run_json(gbench, ["--batch=64", "--benchmark_filter=^%s/" % v,
                            "--counters=cycles,task-clock,context-switches"], err)
    notes = [l for l in err if l.startswith("stubbench-gbench: counters: ")]
    check(len(notes) <= 1, "more than one counters note: %s" % notes)
    cycles_dropped = bool(notes) and "cycles" in notes[0] and "carrying on with" in notes[0]
    print("cycles: %s" % (notes[0] if notes else "counted"))
    check(len(doc["benchmarks"]) == 1, "--counters run: %d benchmarks" % len(doc["benchmarks"]))
    for b in doc["benchmarks"]:
        check_iteration(b)
        check(b.get("task-clock_per_call", 0) > 0, "%s: task-clock_per_call %r"
              % (b["name"], b.get("task-clock_per_call")))
        check(isinstance(b.get("context-switches_per_call"), (int, float)),
              "%s: no context-switches_per_call" % b["name"])
        if cycles_dropped:
            check("cycles_per_call" not in b, "%s: cycles_per_call although dropped" % b["name"])
        else:
            check(b.get("cycles_per_call", 0) > 0, "%s: cycles_per_call %r"
                  % (b["name"], b.get("cycles_per_call")))

    # --cpu: pinned there, and said so in the context.
    doc = run_json(gbench, ["--cpu=0", "--batch=8", "--benchmark_filter=^%s/" % v])
    check(doc["context"].get("stubbench_cpu") == "0",
          "--cpu=0: context says %r" % doc["context"].get("stubbench_cpu"))

    # Random interleaving: on by default, so the repetitions of 12
    # benchmarks run in a random order, and the library reports each
    # benchmark when its last repetition is done: not in the order they
    # were registered (which a random order keeps once in 12! = 479 million);
    # off on request, in that order.
    batches = list(range(1, 13))
    many = ["--batch=" + ",".join(map(str, batches)), "--benchmark_filter=^%s/" % v,
            "--benchmark_repetitions=2"]
    for extra, want_registered in (([], False), (["--benchmark_enable_random_interleaving=false"], True)):
        doc = run_json(gbench, many + extra)
        order = []
        for b in doc["benchmarks"]:
            n = int(b["run_name"].split("/")[1].split(":")[1])
            if b.get("run_type") == "iteration" and n not in order:
                order.append(n)
        check(sorted(order) == batches, "%s: ran %s" % (extra, order))
        check((order == batches) == want_registered, "%s: order %s" % (extra or "default", order))
        print("order%s: %s" % (" with " + extra[0] if extra else "", order))

    # The disturbance check: two runs pinned to the same CPU take turns, so
    # samples are switched out; every one hit is taken again or counted.
    with tempfile.TemporaryDirectory() as d:
        procs = [subprocess.Popen([gbench, "--cpu=0", "--batch=4096", "--benchmark_filter=^baseline/",
                                   "--benchmark_min_time=0.3", "--benchmark_format=json",
                                   "--benchmark_out=%s/%d.json" % (d, i)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for i in range(2)]
        hit = 0
        for i, p in enumerate(procs):
            check(p.wait() == 0, "contended run %d exited %d" % (i, p.returncode))
            with open("%s/%d.json" % (d, i)) as f:
                for b in json.load(f)["benchmarks"]:
                    hit += b.get("disturbed_reruns", 0) + b.get("disturbed_kept", 0)
        print("contended runs: %d samples switched out" % hit)
        check(hit > 0, "two runs on one CPU, yet no sample was seen switched out")

    # --help and --version: status 0.
    for flag, needle in (("--help", "--batch=LIST"), ("--version", "stubbench-gbench ")):
        p = subprocess.run([gbench, flag], capture_output=True, text=True)
        check(p.returncode == 0 and needle in p.stdout, "%s: exit %d, %r" % (flag, p.returncode, p.stdout))

    # Bad input: exit 2, the offending argument named.
    for args, needle in ((["--no-such-flag"], "--no-such-flag"),
                         (["--counters=cycles,nope"], "'nope'"),
                         (["--batch=0"], "--batch"),
                         (["--batch=1,-2"], "--batch"),
                         (["--batch=x"], "--batch"),
                         (["--batches=8"], "--batches"),
                         (["--cpu=999"], "999"),
                         (["--cpu=x"], "--cpu")):
        # (a quick filter and min time, should the input be taken)
        p = subprocess.run([gbench, "--benchmark_filter=^baseline/batch:1/",
                            "--benchmark_min_time=0.001"] + args,
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 2, "%s: exit %d, want 2" % (args, p.returncode))
        check(needle in p.stderr and p.stderr.count("\n") == 1,
              "%s: stderr should be one line naming %s: %r" % (args, needle, p.stderr))

    checks_done("counters_gbench_json")


if __name__ == "__main__":
    main()

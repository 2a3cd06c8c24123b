#!/usr/bin/env python3
"""gbench_schema: `stubbench --format=gbench` is Google Benchmark's JSON
(schema version 1, as its JSONReporter writes it), field by field, so that
its tools/compare.py reads it; no compare.py needed to check that.

usage: gbench_schema.py STUBBENCH"""
import json
import re
import statistics
import subprocess
import sys
import os

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

sb = sys.argv[1]
BATCHES = [1, 64]


p = subprocess.run([sb, "--format=gbench", "--samples=200", "--batch=1,64", "--variant=baseline,private"],
                   capture_output=True, text=True)
check(p.returncode == 0, f"exited {p.returncode}: {p.stderr}")
doc = json.loads(p.stdout)
check(list(doc) == ["context", "benchmarks"], f"top level {list(doc)}")
ctx = doc["context"]
for key, kind in (("date", str), ("host_name", str), ("executable", str), ("num_cpus", int),
                  ("mhz_per_cpu", int), ("cpu_scaling_enabled", bool), ("caches", list),
                  ("load_avg", list), ("library_build_type", str), ("json_schema_version", int)):
    check(isinstance(ctx.get(key), kind), f"context {key} = {ctx.get(key)!r}, not {kind.__name__}")
check(ctx.get("json_schema_version") == 1, "compare.py accepts schema version 1 only")
check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", ctx.get("date", "")) is not None,
      f"date {ctx.get('date')!r} is not as JSONReporter writes it")

ITERATION_KEYS = ["name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
                  "repetition_index", "threads", "iterations", "real_time", "cpu_time", "time_unit",
                  "core_cycles_per_call", "tsc_cycles_per_call"]
AGGREGATE_KEYS = ["name", "family_index", "per_family_instance_index", "run_name", "run_type", "repetitions",
                  "threads", "aggregate_name", "aggregate_unit", "iterations", "real_time", "cpu_time",
                  "time_unit", "core_cycles_per_call", "tsc_cycles_per_call"]
bench = doc["benchmarks"]
runs = []
for b in bench:
    if b["run_name"] not in runs:
        runs.append(b["run_name"])
# The host flavour's group first, then the seed's (--flavour=host,seed001).
want = [f"{v}/batch:{n}/manual_time" for v in ("host-baseline", "host-private", "baseline", "private")
        for n in BATCHES]
check(runs == want, f"run names {runs}, want {want}")
for fam, run in enumerate(runs):
    its = [b for b in bench if b["run_name"] == run and b["run_type"] == "iteration"]
    aggs = [b for b in bench if b["run_name"] == run and b["run_type"] == "aggregate"]
    n = len(its)
    check(n >= 2, f"{run}: {n} repetitions")
    # Repetitions first, in order, then the aggregates, as Google Benchmark writes them.
    block = [b for b in bench if b["run_name"] == run]
    check(block == its + aggs, f"{run}: repetitions and aggregates out of order")
    for k, b in enumerate(its):
        check(list(b) == ITERATION_KEYS, f"{run}#{k}: keys {list(b)}")
        check(b["name"] == run and b["repetitions"] == n and b["repetition_index"] == k and b["threads"] == 1,
              f"{run}#{k}: name/repetitions/index {b['name']} {b['repetitions']} {b['repetition_index']}")
        check(b["family_index"] == fam // len(BATCHES) and b["per_family_instance_index"] == fam % len(BATCHES),
              f"{run}#{k}: family {b['family_index']}/{b['per_family_instance_index']}")
        check(isinstance(b["iterations"], int) and b["iterations"] > 0 and b["iterations"] % BATCHES[fam % 2] == 0,
              f"{run}#{k}: iterations {b['iterations']}")
        check(b["time_unit"] == "ns" and b["real_time"] == b["cpu_time"], f"{run}#{k}: times")
        check(all(isinstance(b[key], (int, float)) for key in ITERATION_KEYS[9:11] + ITERATION_KEYS[12:]),
              f"{run}#{k}: numbers")
    check([a["aggregate_name"] for a in aggs] == ["mean", "median", "stddev", "cv"], f"{run}: aggregates")
    for a in aggs:
        check(list(a) == AGGREGATE_KEYS, f"{run} {a['aggregate_name']}: keys {list(a)}")
        check(a["name"] == run + "_" + a["aggregate_name"] and a["repetitions"] == n and a["iterations"] == n,
              f"{run} {a['aggregate_name']}: name/repetitions/iterations")
        check(a["aggregate_unit"] == ("percentage" if a["aggregate_name"] == "cv" else "time"),
              f"{run} {a['aggregate_name']}: unit {a['aggregate_unit']}")
    if len(aggs) == 4 and n >= 2:
        t = [b["real_time"] for b in its]
        c = [b["core_cycles_per_call"] for b in its]
        mean, median, sd = (a["real_time"] for a in aggs[:3])
        check(abs(mean - statistics.mean(t)) <= 1e-6 * abs(mean), f"{run}: mean {mean} vs {statistics.mean(t)}")
        check(abs(median - statistics.median(t)) <= 1e-6 * abs(median), f"{run}: median")
        check(abs(sd - statistics.stdev(t)) <= 1e-6 * max(sd, 1e-9), f"{run}: stddev {sd} vs {statistics.stdev(t)}")
        check(abs(aggs[3]["real_time"] - sd / mean) <= 1e-6, f"{run}: cv")
        check(abs(aggs[0]["core_cycles_per_call"] - statistics.mean(c)) <= 1e-6 * abs(statistics.mean(c)),
              f"{run}: mean cycles")

# compare.py's "filters" mode renames by regex and pairs repetitions by name:
# the two families must give the same names once their prefixes go.
strip = lambda pat: [re.sub(pat, "X", b["name"]) for b in bench if re.search(pat, b["name"])]
check(strip("^baseline/") == strip("^private/"), "filters baseline/private do not pair up")

checks_done("gbench_schema")

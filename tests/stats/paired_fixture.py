#!/usr/bin/env python3
"""The codegen estimator on recorded Zen 4 block logs
(tests/data/zen4_blocks_batch512plus.csv.gz: default sweeps of the AMD EPYC
Zen 4 VM, seed 001 flavour seeds 1 and 2, host flavour seed 1, batch 512,
2048 and 4096; the arms were placed independently there, not at identical
layout, so each placement's difference is private's copy j against the
baseline's copy j). Exact checks, no timing:
- the estimate of paired_driver (sb_paired_over_placements) equals one
  computed here independently from the rows (per placement the mean over
  its processes of the mean over their blocks of private - baseline, then
  the mean over placements), to 1e-6;
- seed 001 flavour: batch 512, 2048 and 4096 agree within 0.1 cycle in each
  run, and the two runs within 0.1 at each batch size (the 25 % rule read
  +3.27 / +0.005 / +0.002 and +3.28 / +3.00 / +3.00 on these runs);
- every run (host flavour too): each batch size's CI holds the median of
  the run's three batch sizes, and each seed 001 run's CI holds the other
  run's figure at that batch size: no CI narrower than the spread it is
  judged against;
- the estimate does not jump with the state shares: with private's lowest
  state (below 16.5 cycles) thinned or thickened to 18 % and 32 % of the
  blocks, across the 25 % the rule cut at, in both seed 001 runs at every
  batch size, it moves by what the shares say (under 0.5 cycle), not by a
  whole state (3 cycles);
- the arms taken apart (paired_driver apart: sb_paired_between_placements,
  as --padded pairs groups of their own): the same figure to 1e-6 (each
  placement's mean difference is the difference of its means), and a CI
  that holds it and is at least half the paired one's width (it reads
  65-80 % of it: its process bootstrap takes each block less its
  placement's mean).
usage: paired_fixture.py PAIRED_DRIVER FIXTURE"""
import csv
import gzip
import json
import random
import subprocess
import sys
from collections import defaultdict
import os

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

driver, fixture = sys.argv[1], sys.argv[2]


def reference(rows):
    by_place = defaultdict(lambda: defaultdict(list))
    for r in rows:
        by_place[r["state"]][r["process"]].append(float(r["private"]) - float(r["baseline"]))
    means = [sum(sum(v) / len(v) for v in procs.values()) / len(procs) for procs in by_place.values()]
    return sum(means) / len(means), len(means)


def estimate(rows, n_boot=200, apart=False):
    text = "".join(f"{r['state']},{r['process']},{r['private']},{r['baseline']}\n" for r in rows)
    p = subprocess.run([driver, str(n_boot)] + (["apart"] if apart else []), input=text, capture_output=True,
                       text=True)
    check(p.returncode == 0, f"paired_driver exited {p.returncode}: {p.stderr}")
    return json.loads(p.stdout) if p.returncode == 0 else {"mean": float("nan"), "lo": 0, "hi": 0, "placements": 0}


with gzip.open(fixture, "rt") as f:
    rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
runs = defaultdict(lambda: defaultdict(list))
for r in rows:
    runs[r["run"]][int(r["batch"])].append(r)
check(sorted(runs) == ["sweep-host-s1", "sweep-seed001-s1", "sweep-seed001-s2"], f"runs {sorted(runs)}")

figure, ci = {}, {}
for run, batches in sorted(runs.items()):
    for batch, brows in sorted(batches.items()):
        est = estimate(brows)
        ref, n_places = reference(brows)
        figure[run, batch] = est["mean"]
        ci[run, batch] = (est["lo"], est["hi"])
        if run == "sweep-seed001-s1":
            ap = estimate(brows, apart=True)
            check(abs(ap["mean"] - est["mean"]) < 1e-6 and ap["placements"] == est["placements"],
                  f"{run} batch {batch}: apart {ap['mean']:+.6f} over {ap['placements']}, paired {est['mean']:+.6f}")
            # Its process bootstrap takes each block less its placement's
            # mean (the paired one the raw differences): on these logs it
            # reads 65-80 % of the paired width; half is the floor.
            check(ap["hi"] - ap["lo"] >= 0.5 * (est["hi"] - est["lo"]) and ap["lo"] <= est["mean"] <= ap["hi"],
                  f"{run} batch {batch}: apart CI [{ap['lo']:+.3f}, {ap['hi']:+.3f}] narrower than paired "
                  f"[{est['lo']:+.3f}, {est['hi']:+.3f}]")
        check(abs(est["mean"] - ref) < 1e-6 and est["placements"] == n_places,
              f"{run} batch {batch}: estimator {est['mean']:+.6f} over {est['placements']} placements, "
              f"reference {ref:+.6f} over {n_places}")
        check(est["lo"] <= est["mean"] <= est["hi"], f"{run} batch {batch}: CI [{est['lo']}, {est['hi']}]")
        print(f"{run:18s} batch {batch:5d}: codegen {est['mean']:+.3f} [{est['lo']:+.3f}, {est['hi']:+.3f}]"
              f" over {est['placements']} placements; median {est['median']:+.3f}")

for run in ("sweep-seed001-s1", "sweep-seed001-s2"):
    vals = [figure[run, b] for b in (512, 2048, 4096)]
    check(max(vals) - min(vals) <= 0.1, f"{run}: batch 512/2048/4096 read {vals}, more than 0.1 apart")
for b in (512, 2048, 4096):
    d = abs(figure["sweep-seed001-s1", b] - figure["sweep-seed001-s2", b])
    check(d <= 0.1, f"batch {b}: the two runs differ by {d:.3f}")

for run in runs:
    med = sorted(figure[run, b] for b in (512, 2048, 4096))[1]
    for b in (512, 2048, 4096):
        check(ci[run, b][0] <= med <= ci[run, b][1],
              f"{run} batch {b}: CI [{ci[run, b][0]:+.3f}, {ci[run, b][1]:+.3f}] misses the batch sizes' median {med:+.3f}")
for b in (512, 2048, 4096):
    for run, other in (("sweep-seed001-s1", "sweep-seed001-s2"), ("sweep-seed001-s2", "sweep-seed001-s1")):
        check(ci[run, b][0] <= figure[other, b] <= ci[run, b][1],
              f"batch {b}: {run}'s CI [{ci[run, b][0]:+.3f}, {ci[run, b][1]:+.3f}] misses {other}'s {figure[other, b]:+.3f}")

# The shares moved across 25 %: private's lowest state thinned (blocks in
# it dropped at random) or thickened (blocks in its other states dropped).
rng = random.Random(5)
for (run, batch), want in ((rb, w) for rb in ((r, b) for r in ("sweep-seed001-s1", "sweep-seed001-s2")
                                              for b in (512, 2048, 4096)) for w in (0.18, 0.32)):
    brows = runs[run][batch]
    low = [r for r in brows if float(r["private"]) < 16.5]
    rest = [r for r in brows if float(r["private"]) >= 16.5]
    share = len(low) / len(brows)
    if want < share:
        keep = round(want * len(rest) / (1 - want))
        subset = rng.sample(low, keep) + rest
    else:
        keep = round(len(low) * (1 - want) / want)
        subset = low + rng.sample(rest, keep)
    got = sum(float(r["private"]) < 16.5 for r in subset) / len(subset)
    est = estimate(subset)
    ref, _ = reference(subset)
    check(abs(est["mean"] - ref) < 1e-6, f"share {got:.2f}: estimator {est['mean']}, reference {ref}")
    moved = est["mean"] - figure[run, batch]
    check(abs(got - want) < 0.01 and abs(moved) < 0.5,
          f"lowest state at {got:.2f} of the blocks (from {share:.2f}): moved {moved:+.3f}")
    print(f"{run} batch {batch}: private's lowest state at {100 * got:.0f} % of the blocks "
          f"(recorded: {100 * share:.0f} %): codegen {est['mean']:+.3f} ({moved:+.3f})")

checks_done("paired_fixture")

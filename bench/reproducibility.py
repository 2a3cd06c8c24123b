#!/usr/bin/env python3
"""Do the numbers reproduce? Runs K fresh processes of the default sweep
(and of `stubbench kernel` with its default loads), then per cell: the
spread of each estimate across the runs, the coverage (share of runs whose
95 % CI contains the median of the K runs), the CI half-widths, and the
wall time of each run. A benchmark, not a test: it judges timings.

  bench/reproducibility.py [--stubbench=build/stubbench] [-k 5] [--kernel]
                           [--min-batch=64] [--vary-seed] [--save=DIR] [-- extra stubbench args]

A run that said its core was busy (stderr `busy core:`; apart, those busy
from start to end by the machine's record of quiet levels), that an
arm's steady state changed with time during it (`states changed with
time:`), or that its code was still cold after the warm rounds (`still
cold:`), is named, with the coverage of the other runs beside it.

The bar it prints: every run's delta CI contains the K-run median in at
least 90 % of the cells, half-widths <= 2 pp, matched_delta_cycles within
0.1 cycles across runs, the default sweep <= 15 s; kernel: CIs contain the
median in at least 90 % of the cells, pooled over the runs (every run's share
is printed beside it). Beside it, the pooled share of CIs
that contain their cell's median and what an exactly calibrated 95 % CI
would score (a seeded simulation): with 5 runs of 8 cells, 95 % and only
about 1 chance in 9 of passing the per-run bar, so compare the pooled share
with its reference to judge the CIs.

Each run uses the machine's record of past runs (--past-runs, as any run
does): once it holds 5 runs of a cell, the cell gets a next-run range
beside its CI (the CIs themselves never change with the record); the runs
of a set add to it, and a line names the runs that had ranges (JSON
ci_scope). Another line gives the share of ordered pairs of runs in which
one run's figure lies inside the other's CI. Pass `-- --past-runs=none` to
leave the record out.

A within-run CI cannot hold what moves whole runs (a host period, a state
that lasts longer than the run), so per cell it also prints a next-run
interval from the K runs themselves: their mean +- t(K-1) x sd x
sqrt(1 + 1/K), the range a further run's figure should fall in if the runs
vary as they did. It is checked on the runs at hand: each run left out in
turn, the interval from the other K-1 held its figure in the printed share
of cases (a normal spread scores 95 %); the same for matched_delta_cycles.
Quote those intervals, not one run's CIs, when a sign matters.
"""
import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    if p.returncode not in (0,):
        sys.exit(f"reproducibility: {' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[-300:]}")
    return json.loads(p.stdout), wall, p.stderr


# What a run may say of itself on stderr, and how the report names it.
WARNINGS = ((": busy core:", "busy core"),
            ("busy from start to end", "busy from start to end, by the machine's record of quiet levels"),
            (": states changed with time:", "states changed with time"),
            (": still cold:", "still cold after the warm rounds"))


def said(stderr):
    """Which of WARNINGS a run's stderr says, one bool each. A note folded
    within 100 columns (each further line indented by two) is read joined."""
    lines = stderr.replace("\n  ", " ").splitlines()
    return tuple(any(mark in ln for ln in lines) for mark, _ in WARNINGS)


# How the report names a kernel run's sides (the "side" field of a result).
SIDE_KINDS = {"kernel": "kernel", "twin": "twin", "placed-twin": "twin@loads"}


# The fields that say which cell a result is (schema 3); a run without them is matched by name.
KEY_FIELDS = ("side", "family", "codegen", "flavour", "return", "shape", "placement")


def cell_id(r):
    """What a result is, the same in every run of the same measurement."""
    if "side" in r:
        return tuple(r.get(f) for f in KEY_FIELDS) + (r["batch"],)
    return (r["variant"], r["batch"])


def cells(doc, min_batch):
    """cell_id -> (delta, lo, hi, matched, mlo, mhi, kind, label) for every cell with a delta;
    kind: the result's side as the report names it ("other" without one); label: variant@batch."""
    out = {}
    for r in doc["results"]:
        if "delta_vs_baseline_pct" not in r or r["batch"] < min_batch:
            continue
        lo, hi = r["delta_ci95_pct"]
        m = r.get("matched_delta_cycles")
        mlo, mhi = r.get("matched_ci95", [None, None])
        kind = SIDE_KINDS.get(r.get("side"), r.get("side") or "other")
        label = f"{r['variant']}@{r['batch']}"
        out[cell_id(r)] = (r["delta_vs_baseline_pct"], lo, hi, m, mlo, mhi, kind, label)
    return out


def calibrated(k, n_cells, trials=4000, seed=1):
    """What an exactly calibrated 95 % CI would score here (seeded Monte
    Carlo: K runs of n_cells independent normal estimates, each CI the
    estimate +- 1.96 sigma): the share of CIs that contain the K-run median,
    and the chance that every run covers >= 90 % of its cells."""
    rng = random.Random(seed)
    hit = 0
    all_runs_ok = 0
    for _ in range(trials):
        per_run = [0] * k
        for _c in range(n_cells):
            x = [rng.gauss(0, 1) for _ in range(k)]
            m = statistics.median(x)
            for i, xi in enumerate(x):
                if abs(xi - m) <= 1.96:
                    per_run[i] += 1
        hit += sum(per_run)
        all_runs_ok += all(c >= 0.9 * n_cells for c in per_run)
    return hit / (trials * k * n_cells), all_runs_ok / trials


# The 97.5 % quantile of Student's t, by degrees of freedom (1-30).
T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)


def next_run_interval(x):
    """Where a further run's figure should fall, from the runs' figures x
    (at least 2): mean +- t(n-1) sd sqrt(1 + 1/n)."""
    n = len(x)
    t = T975[n - 2] if n - 1 <= len(T975) else 1.96
    half = t * statistics.stdev(x) * (1 + 1 / n) ** 0.5
    m = statistics.mean(x)
    return m - half, m + half


def held_out(x):
    """Each figure left out in turn: is it inside the next-run interval of
    the others? One bool per figure (needs at least 3)."""
    return [covers(*next_run_interval(x[:i] + x[i + 1:]), xi) for i, xi in enumerate(x)]


def covers(lo, hi, x):
    return lo is not None and hi is not None and lo <= x <= hi


class Tally:
    """What the per-cell lines add up over the cells, for the summary lines."""

    def __init__(self, k):
        self.run_cov = [0] * k   # delta: cells whose CI holds the median, per run
        self.run_mcov = [0] * k  # matched: the same
        self.by_kind = {}        # kernel run: "kernel", "twin", "twin@loads" (SIDE_KINDS) -> [covered, CIs]
        self.worst_hw = 0.0
        self.worst_mspread = 0.0
        self.n_matched = 0
        self.held = []           # each run left out in turn, per cell: inside the others' next-run interval?
        self.mheld = []          # the same for matched_delta_cycles


def cell_line(key, vals, k, t):
    """One cell's line over the k runs' vals, added to the tally t."""
    d = [v[0] for v in vals]
    dmed = statistics.median(d)
    dcov = [covers(v[1], v[2], dmed) for v in vals]
    hw = [(v[2] - v[1]) / 2 for v in vals if v[1] is not None and v[2] is not None] or [float("nan")]
    t.worst_hw = max(t.worst_hw, max(hw))
    for i, c in enumerate(dcov):
        t.run_cov[i] += c
    tally = t.by_kind.setdefault(vals[0][6], [0, 0])
    tally[0] += sum(dcov)
    tally[1] += k
    line = (f"{vals[0][7]:34} {dmed:+9.2f} {max(d) - min(d):7.2f} "
            f"{sum(dcov):>2}/{k:<2} {statistics.mean(hw):7.2f}")
    has_matched = all(v[3] is not None for v in vals)
    m = [v[3] for v in vals] if has_matched else []
    if has_matched:
        t.n_matched += 1
        mmed = statistics.median(m)
        mcov = [covers(v[4], v[5], mmed) for v in vals]
        mhw = [(v[5] - v[4]) / 2 for v in vals if v[4] is not None and v[5] is not None] or [float("nan")]
        t.worst_mspread = max(t.worst_mspread, max(m) - min(m))
        for i, c in enumerate(mcov):
            t.run_mcov[i] += c
        line += f" {mmed:+11.2f} {max(m) - min(m):7.2f} {sum(mcov):>2}/{k:<2} {statistics.mean(mhw):7.2f}"
    else:
        line += " " * 35
    nlo, nhi = next_run_interval(d)
    line += f"  [{nlo:+7.2f}, {nhi:+7.2f}]"
    if k >= 3:
        t.held += held_out(d)
    if has_matched:
        mlo, mhi = next_run_interval(m)
        line += f"  [{mlo:+7.2f}, {mhi:+7.2f}]"
        if k >= 3:
            t.mheld += held_out(m)
    return line


def pairs_line(keys, per_run):
    """What a widened CI claims: another run's figure falls inside it."""
    pairs = [0, 0, 0, 0]  # delta inside, delta pairs, matched inside, matched pairs
    for key in keys:
        vals = [r[key] for r in per_run]
        for i, vi in enumerate(vals):
            for j, vj in enumerate(vals):
                if i == j:
                    continue
                pairs[0] += covers(vi[1], vi[2], vj[0])
                pairs[1] += 1
                if vi[3] is not None and vj[3] is not None:
                    pairs[2] += covers(vi[4], vi[5], vj[3])
                    pairs[3] += 1
    if not pairs[1]:
        return None
    return (f"another run: its delta inside a run's CI in {100 * pairs[0] / pairs[1]:.0f} % of {pairs[1]} pairs"
            + (f", matched {100 * pairs[2] / pairs[3]:.0f} % of {pairs[3]}" if pairs[3] else "")
            + " (a 95 % range for the next run's figure: 95 %)")


def coverage_lines(t, n, k, warned):
    """The coverage per run, of the runs that said a warning, and pooled."""
    covs = [c / n for c in t.run_cov]
    print(f"delta: share of cells whose CI contains the {k}-run median, per run: "
          + ", ".join(f"{100 * c:.0f} %" for c in covs) + f"; widest half-width {t.worst_hw:.2f} pp")
    if t.n_matched:
        mcovs = [c / t.n_matched for c in t.run_mcov]
        print("matched: the same share per run: " + ", ".join(f"{100 * c:.0f} %" for c in mcovs)
              + f"; largest spread across runs {t.worst_mspread:.2f} cycles")
    for w, (_, name) in enumerate(WARNINGS):
        flagged = [run[w] for run in warned]
        if any(flagged):
            others = [c for c, f in zip(covs, flagged) if not f]
            print(f"{name} (the run said so): runs {', '.join(str(i + 1) for i, f in enumerate(flagged) if f)} "
                  f"of {k}; delta coverage of the other runs: "
                  + (", ".join(f"{100 * c:.0f} %" for c in others) if others else "none"))
    pooled = sum(t.run_cov) / (n * k)
    ref_share, ref_all = calibrated(k, n)
    print(f"delta: {100 * pooled:.0f} % of all {n * k} CIs contain their cell's median; an exactly "
          f"calibrated 95 % CI would score {100 * ref_share:.0f} %, and would reach 90 % in every run "
          f"with probability {100 * ref_all:.0f} %")
    if t.n_matched:
        print(f"matched: {100 * sum(t.run_mcov) / (t.n_matched * k):.0f} % of all {t.n_matched * k} CIs contain "
              f"their cell's median")
    return covs, pooled


def report(title, docs, walls, min_batch, is_sweep, warned=None):
    k = len(docs)
    warned = warned or [(False,) * len(WARNINGS)] * k
    per_run = [cells(d, min_batch) for d in docs]
    keys = [c for c in per_run[0] if all(c in r for r in per_run)]
    print(f"\n## {title}: {k} fresh processes, cells with batch >= {min_batch}")
    print(f"wall time per run: {', '.join(f'{w:.1f}' for w in walls)} s (max {max(walls):.1f})")
    ranged = [i + 1 for i, d in enumerate(docs) if "'next run' (" in (d.get("ci_scope") or "")]
    print("next-run ranges from the record of past runs (ci_scope): "
          + (f"runs {', '.join(map(str, ranged))} of {k}" if ranged else "in no run"))
    print(f"{'cell':34} {'delta med':>9} {'spread':>7} {'cover':>5} {'half-w':>7}"
          f" {'matched med':>11} {'spread':>7} {'cover':>5} {'half-w':>7}  {'next run':>17}  {'matched next run':>17}")
    t = Tally(k)
    for key in keys:
        print(cell_line(key, [r[key] for r in per_run], k, t))
    n = len(keys)
    if not n:
        print("no cells")
        return
    covs, pooled = coverage_lines(t, n, k, warned)
    line = pairs_line(keys, per_run)
    if line:
        print(line)
    if t.held:
        print(f"next run: each run left out in turn, the interval from the other {k - 1} held its delta in "
              f"{100 * sum(t.held) / len(t.held):.0f} % of {len(t.held)} cases (a normal spread: 95 %)")
    if t.mheld:
        print(f"matched next run: the same, {100 * sum(t.mheld) / len(t.mheld):.0f} % of {len(t.mheld)} cases")
    if not is_sweep:
        print("delta, by kind of cell: " + "; ".join(
            f"{kind} {c}/{tt} ({100 * c / tt:.0f} %)" for kind, (c, tt) in sorted(t.by_kind.items())))
    ok_cov = min(covs) >= 0.9
    if is_sweep:
        print(f"bar: coverage >= 90 % in every run: {'yes' if ok_cov else 'NO'}; "
              f"half-widths <= 2 pp: {'yes' if t.worst_hw <= 2 else 'NO'}; "
              f"matched within 0.1 cycles: {'yes' if t.n_matched and t.worst_mspread <= 0.1 else 'NO'}; "
              f"wall <= 15 s: {'yes' if max(walls) <= 15 else 'NO'}")
    else:
        print(f"bar: coverage >= 90 % of all CIs: {'yes' if pooled >= 0.9 else 'NO'} "
              f"(in every run: {'yes' if ok_cov else 'no'})")


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stubbench", default=os.path.join(os.path.dirname(__file__), "..", "build", "stubbench"))
    ap.add_argument("-k", type=int, default=5, help="fresh processes per command (default 5)")
    ap.add_argument("--kernel", action="store_true", help="also `stubbench kernel` (needs CAP_BPF)")
    ap.add_argument("--no-sweep", action="store_true", help="only the kernel side")
    ap.add_argument("--min-batch", type=int, default=64)
    ap.add_argument("--vary-seed", action="store_true",
                    help="run i gets --seed=i: each run draws its own placements, which the "
                         "delta CIs claim to cover (runs of one seed share them)")
    ap.add_argument("--save", help="keep every run's JSON, its stderr (what the run said of itself) and its "
                                   "blocks (--blocks, for bench/states_in_time.py) in this directory")
    ap.add_argument("--load", help="no runs: report on the JSON files a --save left in this directory")
    ap.add_argument("extra", nargs="*", help="more stubbench arguments, after --")
    a = ap.parse_args()
    if a.k < 2:
        sys.exit("reproducibility: -k must be at least 2")
    jobs = []
    if not a.no_sweep:
        jobs.append(("default sweep", [a.stubbench, "--format=json", *a.extra], True))
    if a.kernel:
        jobs.append(("stubbench kernel", [a.stubbench, "kernel", "--format=json", *a.extra], False))
    for title, cmd, is_sweep in jobs:
        docs, walls, notes, warned = [], [], [], []
        if a.load:
            prefix = "sweep" if is_sweep else "kernel"
            for i in range(a.k):
                path = os.path.join(a.load, f"{prefix}-{i + 1}.json")
                if os.path.exists(path):
                    with open(path) as f:
                        docs.append(json.load(f))
                    walls.append(docs[-1].get("elapsed_s") or float("nan"))
                    err = path[: -len(".json")] + ".stderr"
                    if os.path.exists(err):
                        with open(err) as f:
                            warned.append(said(f.read()))
                    else:
                        warned.append(said(""))
            if len(docs) < 2:
                continue
            print(f"# saved runs in {a.load} (wall: the harness's elapsed_s)")
            report(title, docs, walls, a.min_batch, is_sweep, warned)
            continue
        if a.save:
            os.makedirs(a.save, exist_ok=True)
        for i in range(a.k):
            prefix = ("sweep" if is_sweep else "kernel") + f"-{i + 1}"
            # With --save, every block of every run too: where a run that
            # missed sat, process by process (bench/states_in_time.py).
            blocks = [f"--blocks={os.path.join(a.save, prefix + '.blocks.csv')}"] if a.save else []
            doc, wall, stderr = run_once(cmd + ([f"--seed={i + 1}"] if a.vary_seed else []) + blocks)
            docs.append(doc)
            walls.append(wall)
            notes += [ln for ln in stderr.splitlines() if "multimodal" in ln]
            warned.append(said(stderr))
            if a.save:
                name = prefix + ".json"
                with open(os.path.join(a.save, name), "w") as f:
                    json.dump(doc, f)
                with open(os.path.join(a.save, name[: -len(".json")] + ".stderr"), "w") as f:
                    f.write(stderr)
        print(f"# {' '.join(cmd)}; machine: {docs[0].get('machine')}")
        report(title, docs, walls, a.min_batch, is_sweep, warned)
        print(f"multimodal runs: {len(notes)} of {a.k}" + (f" (e.g. {notes[0]})" if notes else ""))


if __name__ == "__main__":
    main()

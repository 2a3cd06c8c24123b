#!/bin/sh
# reproducibility_load: bench/reproducibility.py --load reports on saved
# runs without running anything: three synthetic sweeps (one cell each at
# batch 512), the second's saved stderr saying `busy core:` (busy from start
# to end, by the machine's record; the note folded within 100 columns), the
# third's `states changed with time:`.
# The report must name run 2 as busy, and busy from start to end, and run 3
# as changed with time, count the coverage of the others, and find the
# cell's three-run median (+12.0) inside runs 1 and 3's CIs and outside
# run 2's; the next-run interval from the three runs, and which runs the
# interval of the other two holds; the third had next-run ranges from the
# record of past runs (its ci_scope says so), the others not.
# usage: reproducibility_load.sh PYTHON SCRIPT
set -u
py=$1 script=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "$out"; exit 1; }
doc() { # delta lo hi ci_scope
    printf '{"machine": "synthetic", "elapsed_s": 9.5, "ci_scope": "%s", "results": [{"variant": "private", "batch": 512, "delta_vs_baseline_pct": %s, "delta_ci95_pct": [%s, %s], "matched_delta_cycles": 2.6, "matched_ci95": [2.5, 2.7]}]}\n' "$4" "$1" "$2" "$3"
}
within="the CIs hold what varies within this run, not what moves whole runs"
doc 12.0 11.0 13.0 "$within" >"$dir/sweep-1.json"
doc 15.0 14.5 15.5 "$within" >"$dir/sweep-2.json"
doc 11.8 11.0 12.5 "$within; 'next run' (1 of 1 cells): a 95 % range for the next run's figure" >"$dir/sweep-3.json"
# Folded within 100 columns as the tool writes it, "busy from start to end"
# across two lines.
cat >"$dir/sweep-2.stderr" <<'EOF'
stubbench: busy core: even this run's quietest blocks read the window canary at 73.5 cycles, where
  this machine's quiet runs read 62.2 (the second quietest of its 12 runs since 2026-12-02T07:43:51Z
  in /home/stubbench-ci-runner-xeon-002/.local/state/stubbench/quiet-levels): busy from start to
  end, as beside a busy SMT sibling; the figures of a run on a busy core need not hold for the next
  run: run again when it is quiet
EOF
printf 'stubbench: multimodal: 1 of 18 cells\n' >"$dir/sweep-1.stderr"
printf 'stubbench: states changed with time: private@512 (2 stretches over 8 processes); ...\n' >"$dir/sweep-3.stderr"
printf 'stubbench: still cold: a block'"'"'s first kept sample read +6.1 %% (private@512) over ...\n' >>"$dir/sweep-3.stderr"
out=$("$py" "$script" -k 3 --load="$dir" 2>&1) || fail "--load exited $?"
printf '%s\n' "$out" | grep -q "^private@512 *+12.00 *3.20 *2/3" || fail "the cell line"
printf '%s\n' "$out" | grep -q "busy core (the run said so): runs 2 of 3; delta coverage of the other runs: 100 %, 100 %" ||
    fail "run 2's busy line"
printf '%s\n' "$out" | grep -q "states changed with time (the run said so): runs 3 of 3; delta coverage of the other runs: 100 %, 0 %" ||
    fail "run 3's line"
printf '%s\n' "$out" | grep -q "busy from start to end, by the machine's record of quiet levels (the run said so): runs 2 of 3; delta coverage of the other runs: 100 %, 100 %" ||
    fail "run 2's busy-throughout line"
printf '%s\n' "$out" | grep -q "still cold after the warm rounds (the run said so): runs 3 of 3; delta coverage of the other runs: 100 %, 0 %" ||
    fail "the still-cold run"
printf '%s\n' "$out" | grep -c "(the run said so)" | grep -qx 4 || fail "a run named that said nothing"
printf '%s\n' "$out" | grep -q "per run: 100 %, 0 %, 100 %" || fail "coverage per run"
printf '%s\n' "$out" | grep -q "^next-run ranges from the record of past runs (ci_scope): runs 3 of 3$" ||
    fail "the runs with next-run ranges from the record of past runs"
# Pairs: 11.8 inside run 1's [11, 13], 15.0 not; 12.0 and 11.8 outside
# run 2's [14.5, 15.5]; 12.0 inside run 3's [11, 12.5], 15.0 not: 2 of 6.
# Matched 2.6 everywhere: 6 of 6.
printf '%s\n' "$out" | grep -q "^another run: its delta inside a run's CI in 33 % of 6 pairs, matched 100 % of 6" ||
    fail "the pairs of runs"
printf '%s\n' "$out" | grep -q "^matched: 100 % of all 3 CIs contain their cell's median" || fail "pooled matched"
printf '%s\n' "$out" | grep -q "^delta: 67 % of all 3 CIs" || fail "pooled delta"
# Next run: mean 12.93 +- t(2) 4.303 x sd 1.79 x sqrt(4/3). Each run left
# out: the other two's interval (t(1) = 12.706) holds runs 1 and 3, not
# run 2 (15.0 outside 11.9 +- 12.706 x 0.141 x sqrt(3/2) = [9.70, 14.10]).
printf '%s\n' "$out" | grep "^private@512" | grep -q "\[ *+4\.03, *+21\.84\]  \[ *+2\.60, *+2\.60\]$" ||
    fail "the next-run intervals (delta, then matched: 2.6 in every run)"
printf '%s\n' "$out" | grep -q "^matched next run: the same, 100 % of 3 cases" || fail "the matched held-out line"
printf '%s\n' "$out" | grep -q "^next run: each run left out in turn, the interval from the other 2 held its delta in 67 % of 3 cases" ||
    fail "the held-out line"
echo "reproducibility_load: busy and time-changed runs named from their saved stderr, coverage counted"

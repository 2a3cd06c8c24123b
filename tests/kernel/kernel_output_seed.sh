#!/bin/sh
# kernel_output_seed: `stubbench kernel --format=seed` of short real runs
# names every result in one scheme, "<variant>-<shape>[-twin[@loads]]-<batch>":
# the per-run and in-loop shapes' arms, and --shape=htab's two variants.
# A shape BPF cannot run here is skipped; SKIP (77) when none runs.
# usage: kernel_output_seed.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
. "$(dirname "$0")/../common/kernel_skip.sh"
ran=0
# seed_lines WHAT NAMES ARGS...: the run's seed lines, one per name in NAMES.
seed_lines() {
    what=$1 names=$2
    shift 2
    out=$("$sb" kernel --format=seed "$@" 2>/dev/null)
    rc=$?
    bpf_unavailable $rc "$what" && return
    ran=$((ran + 1))
    [ $rc -eq 0 ] || { no "$what: stubbench kernel exited $rc"; return; }
    for n in $names; do
        if printf '%s\n' "$out" | grep -q "^$n: .*M/s (drops"; then pass; else no "$what: no line for $n"; fi
    done
}
seed_lines "per-run and in-loop" "no-private-stack-per-run-8 private-stack-per-run-8 hybrid-per-run-8
    no-private-stack-in-loop-8 private-stack-in-loop-8 hybrid-in-loop-8 no-private-stack-per-run-twin-8
    hybrid-in-loop-twin-8 private-stack-per-run-twin@loads-8 hybrid-in-loop-twin@loads-8" --samples=64 --batch=8
seed_lines htab "no-private-stack-4-htab private-stack-4-htab" --shape=htab --samples=64 --batch=4
[ $ran -gt 0 ] || exit 77
checks_done kernel_output_seed

#!/bin/sh
# diff_globals: `stubbench diff` of two --dump-jit listings whose loop bound
# is a global (tests/data/global_bound_{old,new}.work.lst, of
# tests/data/global_bound.bpf.c). Without --global the summary says both
# twins' branches read memory they zero, naming the global from the
# listings' '# global' lines; with --global=loop_n=N the single-stepped
# twin runs the loop N times: its instructions per run grow by the loop
# body (4 instructions OLD, 14 NEW) per N, and the line is gone. The
# numeric form sets the same bytes. Bad --global: one line, exit 2, before
# measuring. Short runs (--time=1): texts, instruction counts and exit
# status 2 are asserted, no timing.
# usage: diff_globals.sh STUBBENCH DATA_DIR
set -u
sb=$1 d=$2
old=$d/global_bound_old.work.lst new=$d/global_bound_new.work.lst
run="--time=1 --no-parts --processes=1 --past-runs=none --quiet-levels=none"
. "$(dirname "$0")/../common/check.sh"
# $1: extra option; prints "OLD_INSNS NEW_INSNS OLD_READS_ZEROED NEW_READS_ZEROED"
path() {
    "$sb" diff "$old" "$new" $run --format=json ${1:+"$1"} 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)["diff"]
print(*[d[s]["path"]["insns_per_run"] for s in ("old", "new")],
      *[int(d[s]["path"]["reads_zeroed"]) for s in ("old", "new")])'
}
out=$("$sb" diff "$old" "$new" $run 2>&1); rc=$?
want="  OLD's and NEW's branches read memory the twins zero (global loop_n): set --global=loop_n=N"
# Exit 1 is a run whose samples a loaded machine spoiled: the line is printed all the same.
[ $rc -le 1 ] && printf '%s\n' "$out" | grep -qxF "$want" || { printf '%s\n' "$out"; no "exit $rc: no zeroed-memory line"; }
set -- $(path); [ "$*" = "19 19 1 1" ] || no "without --global: $*, want 19 19 1 1"
set -- $(path --global=loop_n=10); a0=$1 a1=$2
[ "$3 $4" = "0 0" ] || no "--global=loop_n=10 still reads zeroed memory: $*"
set -- $(path --global=loop_n=20); b0=$1 b1=$2
[ $((b0 - a0)) -eq 40 ] && [ $((b1 - a1)) -eq 140 ] ||
    no "loop_n 10 -> 20: OLD $a0 -> $b0, NEW $a1 -> $b1 instructions (want +40, +140)"
set -- $(path --global=0xffffc90002422000=10); [ "$1" = "$a0" ] || no "numeric form: OLD $1, want $a0"
out=$("$sb" diff "$old" "$new" $run --global=loop_n=10 2>&1)
printf '%s\n' "$out" | grep -q 'read memory the twin' && no "with --global=loop_n=10 the line stays"
for bad in nosuch=1 loop_n loop_n=x loop_n=70000000000 0xffff=3; do
    err=$("$sb" diff "$old" "$new" $run --global=$bad 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -qF -- "--global=$bad" ||
        no "--global=$bad: exit $rc: $err"
done
err=$("$sb" diff "$d/seed001_baseline_main.lst" "$d/seed001_private_main.lst" $run --global=loop_n=1 2>&1); rc=$?
[ $rc -eq 2 ] && printf '%s' "$err" | grep -q "no '# global' lines" || no "listings without globals: exit $rc: $err"
checks_done diff_globals

#!/bin/sh
# quiet_levels: the record of this machine's quiet canary levels
# (--quiet-levels, quiet_record.h) from the command line. A run is
# remembered in the default place ($XDG_STATE_HOME/stubbench/quiet-levels,
# directories made); against a record whose levels no real core reaches
# (window canary 1 cycle, 64 adds per cycle: the most a record may say)
# the next run says it was busy
# from start to end, and against levels every core beats it does not;
# none keeps no record; a directory or an empty name is bad input (status
# 2); a corrupt or unwritable record, or no home for one, costs one line and
# the run goes on (status 0). No timing is judged: the levels are made up.
# usage: quiet_levels.sh STUBBENCH
set -u
sb=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; printf '%s\n' "$err"; exit 1; }
# The run's notes, each folded within 100 columns (further lines indented
# by two), read joined back into one line each.
notes() { printf '%s\n' "$err" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n  / /g'; }
run() { err=$("$sb" --samples=100 --batch=64 --variant=private --past-runs=none "$@" 2>&1 >/dev/null); }

rec=$dir/state/stubbench/quiet-levels
XDG_STATE_HOME=$dir/state run || fail "the first run exited $?"
[ -f "$rec" ] || fail "no record at $rec"
[ "$(grep -vc '^#' "$rec")" -eq 1 ] || fail "the record holds $(grep -vc '^#' "$rec") runs, not 1"
machine=$(grep -v '^#' "$rec" | cut -f1)
printf '%s\n' "$machine" | grep -Eq '^[A-Za-z]+/[0-9]+/[0-9]+/[0-9]+/' || fail "machine name '$machine'"

# Quieter than any core: this run was busy from start to end.
printf '%s\t2026-01-01T00:00:00Z\t64\t1\n%s\t2026-01-01T00:00:01Z\t64\t1\n' "$machine" "$machine" >>"$rec"
XDG_STATE_HOME=$dir/state run || fail "the run against a quiet record exited $?"
# The note folded within 100 columns (each further line indented by two),
# read joined back into its one line.
printf '%s\n' "$err" | awk 'length($0) > 100' | grep -q . && fail "a line of the busy-core note over 100 columns"
notes | grep -q "busy core: .*even this run's quietest blocks read the window canary at .* cycles and the canary at .* adds per cycle, where this machine's quiet runs read 1.0 and 64.00 (the second quietest of its 3 runs since .* in $rec): busy from start to end" ||
    fail "no busy-throughout line against a quiet record"
[ "$(grep -vc '^#' "$rec")" -eq 4 ] || fail "the run was not remembered"

# Busier than any core: nothing said of the machine.
printf '%s\t2026-01-01T00:00:00Z\t0.001\t100000\n' "$machine" "$machine" >"$rec"
XDG_STATE_HOME=$dir/state run || fail "the run against a busy record exited $?"
notes | grep -q "quietest blocks" && fail "a busy record made a run busy"

# --quiet-levels=FILE is used instead of the default; none keeps nothing.
XDG_STATE_HOME=$dir/other run --quiet-levels="$dir/mine" || fail "--quiet-levels=FILE exited $?"
[ -f "$dir/mine" ] && [ ! -e "$dir/other" ] || fail "--quiet-levels=FILE wrote elsewhere"
XDG_STATE_HOME=$dir/other run --quiet-levels=none || fail "--quiet-levels=none exited $?"
[ ! -e "$dir/other" ] || fail "--quiet-levels=none kept a record"

# Bad input.
err=$("$sb" --samples=100 --quiet-levels="$dir" 2>&1 >/dev/null)
[ $? -eq 2 ] && notes | grep -qF -- "--quiet-levels: '$dir' is not a regular file" || fail "a directory"
err=$("$sb" --samples=100 --quiet-levels= 2>&1 >/dev/null)
[ $? -eq 2 ] && notes | grep -qF -- "--quiet-levels: needs a file name" || fail "an empty name"

# A corrupt record: one note naming it and the line (folded, read joined),
# and the run goes on.
printf 'not a record line\n' >"$dir/bad"
run --quiet-levels="$dir/bad" || fail "a corrupt record exited $?"
notes | grep -q "quiet levels: '$dir/bad' line 1: not a record line.*neither compared.*nor remembered" ||
    fail "a corrupt record"
printf '%s\n' "$err" | awk 'length($0) > 100' | grep -q . && fail "a note over 100 columns"
[ "$(wc -l <"$dir/bad")" -eq 1 ] || fail "a corrupt record was written to"
# One that cannot be read (under a file), one that cannot be written (in
# /proc, even for root), and no home for one.
run --quiet-levels="$dir/bad/x/quiet-levels" || fail "a record under a file exited $?"
notes | grep -q "quiet levels: cannot read '$dir/bad/x/quiet-levels'.*neither compared" ||
    fail "a record under a file"
run --quiet-levels=/proc/self/quiet-levels || fail "an unwritable record exited $?"
notes | grep -q "quiet levels: cannot write '/proc/self/quiet-levels'.*this run is not remembered" ||
    fail "an unwritable record"
err=$(env -u HOME -u XDG_STATE_HOME "$sb" --samples=100 --batch=64 --variant=private 2>&1 >/dev/null) ||
    fail "no home exited $?"
notes | grep -q "quiet levels: neither XDG_STATE_HOME nor HOME is set" || fail "no home"
# ... said only by a run that measures: --list does not.
err=$(env -u HOME -u XDG_STATE_HOME "$sb" --list 2>&1 >/dev/null) || fail "--list without a home exited $?"
notes | grep -q "quiet levels" && fail "--list spoke of quiet levels"

# A fresh record: the first run's summary names no file to pass, and
# where it cannot name its core state (one canary cluster, no record yet:
# unknown) says the record needs two runs and to run again; the second run
# names the state by the record (its canary against the first run's
# level). --samples=100 at one batch size: blocks enough (32) to be
# remembered whatever the host's load. Where the pinned CPU's core has no
# SMT sibling, no word of a sibling in the default output.
fresh() { # N: run N on the fresh record, its summary in $out, stderr in $err
	out=$(XDG_STATE_HOME=$dir/fresh STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --cpu=1 --samples=100 --batch=64 \
		--variant=private --flavour=seed001 --past-runs=none 2>"$dir/fresh-err") || fail "fresh run $1 exited $?"
	err=$(cat "$dir/fresh-err")
}
fresh 1
line=$(printf '%s\n' "$out" | grep "^core state")
[ -n "$line" ] || fail "the first run has no core-state line: $out"
case $line in
"core state: unknown"*)
	printf '%s\n' "$line" | grep -q "^core state: unknown: the record needs two runs on this machine: run again" ||
		fail "the first run's core state: '$line'";;
esac
printf '%s\n' "$line" | grep -q -- "--quiet-levels\|FILE" && fail "the first run names a file to pass: '$line'"
[ "$(grep -vc '^#' "$dir/fresh/stubbench/quiet-levels")" -eq 1 ] || fail "the first run was not remembered"
fresh 2
line=$(printf '%s\n' "$out" | grep "^core state")
printf '%s\n' "$line" | grep -Eq "^core states?: (quiet|busy).* by the record" ||
	fail "the second run does not name its state by the record: '$line'"
sib=/sys/devices/system/cpu/cpu1/topology/thread_siblings_list
if [ -r "$sib" ] && ! grep -q '[,-]' "$sib"; then
	printf '%s\n%s\n' "$out" "$err" | grep -qi "sibling" && fail "sibling wording without an SMT sibling"
fi
echo "quiet_levels: ok"

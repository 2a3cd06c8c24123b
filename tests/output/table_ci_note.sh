#!/bin/sh
# table_ci_note: the table says what its CIs hold (what varies within the
# run, not what moves whole runs), with fresh processes and without.
# usage: table_ci_note.sh STUBBENCH
set -u
ok=1
for procs in 1 2; do
	out=$(STUBBENCH_TEST_DISTURB_NONE=1 "$1" --table --variant=private --batch=8 --samples=20 --states=4 \
		--processes=$procs --quiet-levels=none 2>/dev/null)
	rc=$?
	[ "$rc" -eq 0 ] || { echo "FAIL: --processes=$procs exited $rc"; ok=0; continue; }
	printf '%s\n' "$out" | grep -q "^# the CIs hold what varies within this run, not what moves whole runs" ||
		{ echo "FAIL: --processes=$procs: no line on what the CIs hold"; printf '%s\n' "$out" | tail -8; ok=0; }
	# The note's lines joined: where it breaks depends on the record's path.
	printf '%s\n' "$out" | sed -n 's/^# *//p' | tr '\n' ' ' | grep -q "bench/reproducibility.py, 'next run'" ||
		{ echo "FAIL: --processes=$procs: the line does not name where the next run's range comes from"; ok=0; }
done
[ $ok -eq 1 ] && echo "table_ci_note: the table says what its CIs hold, in one process and in fresh ones"
[ $ok -eq 1 ]

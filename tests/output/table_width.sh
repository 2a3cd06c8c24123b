#!/bin/sh
# table_width: no line of --help or of --table is over 100 columns, for
# stubbench, lab, diff and (where built and allowed) kernel; the narrow
# table keeps every row and leaves median and ns/iter to --verbose, whose
# table has every column on one header line. Widths only, never figures.
# usage: table_width.sh STUBBENCH DATA_DIR KERNEL(0|1) [BPF_OBJECT]
set -u
sb=$1 d=$2 kernel=$3 obj=${4:-}
export STUBBENCH_TEST_DISTURB_NONE=1
q="--samples=6 --processes=1 --past-runs=none --quiet-levels=none"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
. "$(dirname "$0")/../common/check.sh"
narrow() { # NAME: every line of $out within 100 columns
	long=$(awk 'length($0) > 100' "$out" | head -3)
	if [ -n "$long" ]; then no "$1: lines over 100 columns:"; printf '%s\n' "$long" | cut -c1-140
	else pass; fi
}
for c in "" lab compare plot report footprint kernel deprivatize diff annotate; do
	# A part this build left out says so in one line, on stderr: not a --help.
	"$sb" $c --help >"$out" 2>/dev/null && narrow "${c:-stubbench} --help"
done
"$sb" --table --batch=8,64 --states=4 $q >"$out" 2>/dev/null || no "stubbench --table exited $?"
narrow "stubbench --table"
# Every row kept: each variant of both flavours at both batch sizes, in the first block.
n=$(grep -Ec '^(host-)?(baseline|private|hybrid) +(8|64) ' "$out")
[ "$n" -ge 12 ] && pass || no "stubbench --table: $n rows, not at least 12"
grep -q '^variant .*cyc/iter .*95% CI .*ovh' "$out" && pass || no "no narrow header"
grep -Eq '^variant .*(median|ns/iter)' "$out" && no "the narrow table has median or ns/iter" || pass
"$sb" --verbose --batch=8 --states=4 $q >"$out" 2>/dev/null || no "stubbench --verbose exited $?"
grep -Eq '^variant +batch +cyc/iter +95% CI +median +ns/iter +ovh +vs base +95% CI +codegen' "$out" &&
	pass || no "--verbose: not every column on one header line"
"$sb" lab --table --batch=8 --states=4 $q >"$out" 2>/dev/null
[ $? -le 1 ] || no "lab --table exited badly"
narrow "lab --table"
grep -q '^return  *shape  *batch  *alternative' "$out" && pass || no "lab: no ranking table"
b=$d/seed001_baseline_main.lst,$d/seed001_baseline_sub.lst
p=$d/seed001_private_main.lst,$d/seed001_private_sub.lst
"$sb" diff "$b" "$p" --batch=512 $q --table >"$out" 2>/dev/null || no "diff --table exited $?"
narrow "diff --table"
grep -q '^func  *offset  *instruction  *part  *nop' "$out" && pass || no "diff: no listing"
if [ "$kernel" = 1 ] && [ "$(id -u)" = 0 ]; then
	"$sb" kernel --table --batch=8 $q >"$out" 2>/dev/null
	rc=$?
	if [ $rc -ge 3 ] && [ $rc -le 6 ] && [ $rc -ne 6 ]; then
		echo "kernel --table skipped: exit $rc"
	else
		narrow "kernel --table"
		grep -q '^variant  *batch  *twin added' "$out" && pass || no "kernel: no verdict table"
	fi
	if [ -f "$obj" ]; then
		"$sb" kernel --obj="$obj" --prog=with_frame,no_frame --batch=64 --table $q >"$out" 2>/dev/null
		rc=$?
		if [ $rc -le 1 ] || [ $rc -eq 6 ]; then
			narrow "kernel --obj --table"
			grep -q '^jit no_frame.sum_small: [0-9]* bytes of code; 8 bytes of stack' "$out" &&
				pass || no "kernel --obj: no line on sum_small's stack"
		else
			echo "kernel --obj --table skipped: exit $rc"
		fi
	fi
fi
checks_done table_width

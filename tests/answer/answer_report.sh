#!/bin/sh
# answer_report: the summary of recorded runs (tests/data/answer_*.json:
# stubbench, lab --time=20 and kernel, kernel --thunk=ret, recorded on an
# AMD EPYC Zen 4 VM, a --padded sweep on an Intel Xeon 6/0xa7 VM returning
# through its_return_thunk, and kernel --obj of tests/data/user_prog.bpf.c on an
# AMD EPYC Zen 3 VM, both returning through srso_alias_return_thunk), as
# `stubbench report` prints it and the runs printed it first:
#   - at most 10 lines, none over 100 columns;
#   - no NaN, no ± 0.00 or [+0.00, +0.00] interval, no -0.00;
#   - it names the return thunk, and per command its answer: the sweep the
#     host flavour's private with its ratio and total (unpadded: the way to
#     the codegen apart), the kernel its verdicts (the
#     --thunk=ret run: the baseline differs), the lab the cheapest and
#     those like the control (the control defined where first named) and
#     which figure to quote, kernel --obj per program the kernel's figure
#     and the private stack's cost (twin, codegen and layout, the kernel's
#     A/B) where there is one.
# usage: answer_report.sh STUBBENCH DATA_DIR RUN...
#   (RUN: sweep padded_two_state lab kernel kernel_thunk_ret kernel_obj, those
#   the build has)
set -u
bin=$1
data=$2
shift 2
fail=0
check() { # FILE PATTERN WHAT
	grep -q -- "$2" "$1" || { echo "FAIL $1: $3 (no '$2')"; cat "$1"; fail=1; }
}
for run in "$@"; do
	out=$(mktemp)
	"$bin" report "$data/answer_$run.json" >"$out" 2>&1 || { echo "FAIL $run: exit $?"; fail=1; }
	lines=$(wc -l <"$out")
	[ "$lines" -le 10 ] || { echo "FAIL $run: $lines lines"; fail=1; }
	wide=$(awk 'length($0) > 100' "$out" | wc -l)
	[ "$wide" -eq 0 ] || { echo "FAIL $run: $wide lines over 100 columns"; fail=1; }
	if grep -qiE 'nan|± 0\.0+\b|\[[+-]0\.0+, [+-]0\.0+\]|-0\.0+\b' "$out"; then
		echo "FAIL $run: a NaN or a zero interval:"; grep -iE 'nan|± 0\.0+\b|\[[+-]0\.0+, [+-]0\.0+\]|-0\.0+\b' "$out"
		fail=1
	fi
	thunk=srso_alias_return_thunk
	[ "$run" = padded_two_state ] && thunk=its_return_thunk
	check "$out" "returns: $thunk" "the host's return"
	case $run in
	sweep)
		# Unpadded (recorded before the padded baselines were the
		# default): what a placed load pays leads, copy j against copy j
		# differ in layout too, a total, and the last line says how to
		# get the codegen apart.
		check "$out" "^host-private   placed [+-][0-9.]* \[.*\], .* % (host, srso_alias thunk)" "the host flavour's private, by the thunk it returned through"
		check "$out" "host-private took [0-9.]* ± [0-9.]* x host-baseline's time" "the ratio"
		check "$out" "x host-baseline's time; total [+-][0-9.]* \[" "the paired figure called the total"
		check "$out" "the codegen apart: a run without --no-padded" "the way to the codegen"
		if grep -q "^quote codegen" "$out"; then echo "FAIL $run: which to quote, without a codegen"; fail=1; fi
		check "$out" "(seed001, ret; reference)" "the seed flavour as reference";;
	padded_two_state)
		# Padded: the codegen at identical layout is the first figure
		# line, with its CI; what a placed load pays beside it; a line
		# says which to quote for what.
		first=$(sed -n 3p "$out")
		case $first in
		"host-private   codegen "[+-]*" ["*"] this run ("*) ;;
		*) echo "FAIL $run: the first figure line is not the codegen with its CI: $first"; fail=1;;
		esac
		check "$out" "^  placed [+-][0-9.]* \[.*\]: host-private took" "the placed cost beside it"
		check "$out" "^quote codegen for what this JIT change costs, placed for what a loaded program pays here$" "which to quote"
		if grep -q "without --no-padded" "$out"; then echo "FAIL $run: the way to a codegen it has"; fail=1; fi;;
	kernel)
		check "$out" "placed twin: base agree" "the baseline agrees"
		check "$out" "added cost, all batches: " "the verdicts' counts";;
	kernel_thunk_ret)
		check "$out" "placed twin: base differ" "plain ret against a thunk differs"
		check "$out" "absolute, all batches: 0 agree, [1-9][0-9] differ, 0 inconclusive" "the absolute costs differ";;
	kernel_obj)
		check "$out" "^with_frame at batch 4096, cycles per iteration" "with_frame's heading"
		check "$out" "^  private stack: codegen [+-][0-9.]* \[.*\] this run, layout [+-]" "codegen and layout first"
		check "$out" "^    placed like the loads: [+-][0-9.]* \[.*\], [0-9.]* ± [0-9.]* x the de-privatized twin's time" "its twin placed like the loads: cycles and ratio"
		check "$out" "^    in the kernel (these loads): [+-][0-9.]* \[.*\] cycles vs itself as a syscall program" "the kernel's A/B"
		check "$out" "^  kernel [0-9.]* \[.*\] ([+-][0-9.]* \[.*\] % vs with_frame); twin [0-9.]*: agree" "no_frame against with_frame, its twin's verdict"
		check "$out" "^  private stack: none measured" "no_frame has no private stack";;
	lab)
		check "$out" "placed at random, returning as here (srso-alias)" "the figure and the host's return flavour"
		check "$out" "cheapest: " "the cheapest"
		check "$out" "like the control" "those like the control"
		check "$out" "^quote vs control (--table) for what the code adds, the cost for what a placed load pays here$" \
			"which figure to quote"
		# The control defined where the summary first names it.
		first=$(grep -m1 "control" "$out")
		case $first in
		"control: the baseline's own bytes at another address, what placement alone moves the cost;") ;;
		*) echo "FAIL lab: the control first named undefined: '$first'"; cat "$out"; fail=1;;
		esac;;
	esac
	rm -f "$out"
done
[ $# -gt 0 ] || { echo "FAIL: no run named"; fail=1; }
[ $fail -eq 0 ] && echo "answer_report: ok"
exit $fail

#!/bin/sh
# answer_report: the summary of recorded runs (tests/data/answer_*.json:
# stubbench, lab --time=20 and kernel, kernel --thunk=ret, recorded on an
# AMD EPYC Zen 4 VM, and kernel --obj of tests/data/user_prog.bpf.c on an
# AMD EPYC Zen 3 VM, both returning through srso_alias_return_thunk), as
# `stubbench report` prints it and the runs printed it first:
#   - at most 10 lines, none over 100 columns;
#   - no NaN, no ± 0.00 or [+0.00, +0.00] interval, no -0.00;
#   - it names the return thunk, and per command its answer: the sweep the
#     host flavour's private with its ratio and total (unpadded: the way to
#     the codegen apart), the kernel its verdicts (the
#     --thunk=ret run: the baseline differs), the lab the cheapest and
#     those like the control, kernel --obj per program the kernel's figure
#     and the private stack's cost (twin, codegen and layout, the kernel's
#     A/B) where there is one.
# usage: answer_report.sh STUBBENCH DATA_DIR RUN...
#   (RUN: sweep lab kernel kernel_thunk_ret kernel_obj, those the build has)
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
	check "$out" "returns: srso_alias_return_thunk" "the host's return"
	case $run in
	sweep)
		check "$out" "^host-private .* cycles, .* % (host, srso_alias thunk)" "the host flavour's private, by the thunk it returned through"
		check "$out" "host-private took [0-9.]* ± [0-9.]* x host-baseline's time" "the ratio"
		# Unpadded: copy j against copy j differ in layout too, a total, and
		# the last line says how to get the codegen apart.
		check "$out" "x host-baseline's time; total [+-][0-9.]* \[" "the paired figure called the total"
		check "$out" "the codegen apart from layout: --padded" "the way to the codegen"
		check "$out" "(seed001, ret; reference)" "the seed flavour as reference";;
	kernel)
		check "$out" "placed twin: base agree" "the baseline agrees"
		check "$out" "added cost, all batches: " "the verdicts' counts";;
	kernel_thunk_ret)
		check "$out" "placed twin: base differ" "plain ret against a thunk differs"
		check "$out" "absolute, all batches: 0 agree, [1-9][0-9] differ, 0 inconclusive" "the absolute costs differ";;
	kernel_obj)
		check "$out" "^with_frame at batch 4096, cycles per iteration" "with_frame's heading"
		check "$out" "^  private stack, this run: [0-9.]* ± [0-9.]* x the de-privatized twin's time, [+-][0-9.]* \[" "its private stack's ratio and cycles"
		check "$out" "^    at identical layout: codegen [+-][0-9.]* \[.*\] this run, layout [+-]" "codegen and layout"
		check "$out" "^    in the kernel (these loads): [+-][0-9.]* \[.*\] cycles vs itself as a syscall program" "the kernel's A/B"
		check "$out" "^  kernel [0-9.]* \[.*\] ([+-][0-9.]* \[.*\] % vs with_frame); twin [0-9.]*: agree" "no_frame against with_frame, its twin's verdict"
		check "$out" "^  private stack: none measured" "no_frame has no private stack";;
	lab)
		check "$out" "returning as this host does (srso-alias)" "the host's return flavour"
		check "$out" "cheapest: " "the cheapest"
		check "$out" "like the control" "those like the control";;
	esac
	rm -f "$out"
done
[ $# -gt 0 ] || { echo "FAIL: no run named"; fail=1; }
[ $fail -eq 0 ] && echo "answer_report: ok"
exit $fail

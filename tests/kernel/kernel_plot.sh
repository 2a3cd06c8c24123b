#!/bin/sh
# kernel_plot: `stubbench kernel --plot=FILE` draws the kernel's and the
# twins' deltas (a panel per shape and codegen, a line per side: the
# placed twin's too), the script and the data beside the image, and says
# where it wrote them. SKIP (77) without gnuplot or where BPF cannot run.
# usage: kernel_plot.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
. "$(dirname "$0")/../common/kernel_skip.sh"
command -v gnuplot >/dev/null || { echo 'SKIP: no gnuplot'; exit 77; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$sb" kernel --plot="$d/k.svg" --samples=64 --batch=64 --shape=in-loop >/dev/null 2>"$d/err"
rc=$?
bpf_unavailable $rc && exit 77
ok test $rc -eq 0
ok grep -q 'in-loop, private' "$d/k.svg"
ok grep -q 'placed twin' "$d/k.svg"
ok grep -q 'private-in-loop-twin@loads' "$d/k.dat"
ok test -s "$d/k.gp"
ok grep -q 'plot written to' "$d/err"
checks_done kernel_plot

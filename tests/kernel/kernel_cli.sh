#!/bin/sh
# kernel_cli: `stubbench kernel`'s command line, before any BPF is touched
# (so it runs wherever the kernel part is built): every bad input exits 2
# with nothing on stdout and one line on stderr naming it; an option the
# run would ignore is refused; --help and --version answer with status 0,
# --help naming every return thunk --thunk takes.
# usage: kernel_cli.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"

refused 2 "--shape: unknown shape 'nope' (per-run, in-loop, all, htab)" kernel --shape=nope
refused 2 "--variant: unknown variant 'nope'" kernel --variant=private,nope
refused 2 "--shape=htab takes no --loads" kernel --shape=htab --loads=2
refused 2 "--batch: '0' in '0' is not a whole number >= 1" kernel --batch=0
refused 2 "--format: unknown format 'xml'" kernel --format=xml
refused 2 "--cpu: 'abc' is not a whole number" kernel --cpu=abc
refused 2 "unknown option '--frobnicate'" kernel --frobnicate
refused 2 "--thunk: unknown return thunk 'nope'" kernel --thunk=nope
refused 2 "--time and --samples exclude each other" kernel --time=1 --samples=3
refused 2 "--blocks does not apply with --probe" kernel --probe --blocks=/tmp/never.csv
refused 2 "--plot does not apply with --probe" kernel --probe --plot=/tmp/never.png

answers "^usage: stubbench kernel " kernel --help
answers "^  --dump-jit=DIR " kernel --help
answers "^exit status: 0 ok" kernel --help
out=$("$sb" kernel --version 2>&1)
got=$?
if [ "$got" -eq 0 ] && printf '%s\n' "$out" | grep -Eqx "stubbench [0-9]+\.[0-9]+\.[0-9]+" &&
    [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ]; then pass
else no "kernel --version -> status $got, output '$out' (want one line 'stubbench X.Y.Z')"; fi
thunks=$("$sb" kernel --thunk=nope 2>&1 | sed -n 's/.*unknown return thunk .nope. (\(.*\))$/\1/p' | tr -d ',')
[ "$(echo $thunks | wc -w)" -ge 6 ] && pass || no "kernel --thunk=nope lists '$thunks'"
for t in $thunks; do
    answers "$t" kernel --help
done
checks_done kernel_cli

#!/bin/sh
# cli_errors: every bad input of stubbench, lab, report and diff: exit
# status 2, nothing on stdout and one line on stderr naming the input;
# --help, --version and --list answer with status 0. (stubbench kernel's:
# tests/kernel/kernel_cli.sh.)
# usage: cli_errors.sh STUBBENCH [DATA_DIR]
set -u
sb=$1
data=${2:-}
. "$(dirname "$0")/../common/check.sh"
refused 2 "unknown variant 'nope'" --variant=nope
refused 2 "unknown variant 'bogus'" --variant=private,bogus
refused 2 "'0'" --batch=0
refused 2 "'abc'" --batch=1,abc
refused 2 "'-5'" --time=-5
refused 2 "'x'" --samples=x
refused 2 "'-1'" --cpu=-1
refused 2 "--cpu=999" --cpu=999
refused 2 "'xml'" --format=xml
refused 2 "/nonexistent.ini" --config=/nonexistent.ini
refused 2 "cannot write '/nonexistent/blocks.csv'" --blocks=/nonexistent/blocks.csv
refused 2 "--blocks: needs a file name" --blocks=
refused 2 "'--frobnicate'" --frobnicate
# A typo of an option or a subcommand: the nearest one named.
refused 2 "did you mean --time?" --tiem=2
refused 2 "did you mean --width?" report --widht=80 a.json
refused 2 "did you mean 'stubbench report'?" reprot
refused 2 "did you mean 'stubbench kernel'?" kernal
refused 2 "'--variant'" --variant
refused 2 "'extra'" extra
refused 2 "exclude each other" --time=1 --samples=10
refused 2 "'0'" --calls=0
refused 2 "'bogus'" --counters=bogus
# The lab subcommand shares the parser; options of one mode are refused in the other.
refused 2 "'diagonal'" lab --shape=diagonal
refused 2 "does not apply to stubbench lab" lab --variant=private
refused 2 "does not apply to stubbench" --shape=per-run
refused 2 "'0'" lab --batch=0
refused 2 "'0'" --placements=0
refused 2 "more than 16" --placements=17
refused 2 "more than 31 arms" --placements=11
refused 2 "'--list' takes no value" --list=3
refused 2 "'--shape' does not apply to stubbench" --shape=in-loop
refused 2 "--plot: empty file name" lab --plot=
# The flavours and the return thunks they may go with.
refused 2 "--flavour: unknown flavour 'nope'" --flavour=nope
refused 2 "--thunk: unknown return thunk 'nope'" --flavour=host --thunk=nope
refused 2 "--thunk needs --flavour=host" --flavour=seed001 --thunk=ret --calls=1
# A --flavour list is never cut: a name past 63 characters would go unread.
refused 2 "is longer than 63 characters" --flavour="host,$(printf '%60s' '')nope" --calls=1
# stubbench diff (where it is built): a file that cannot be read, images of
# different programs, operands missing.
if [ -n "$data" ] && "$sb" diff --help >/dev/null 2>&1; then
    b=$data/seed001_baseline_main.lst,$data/seed001_baseline_sub.lst
    refused 2 "/nonexistent/old.lst" diff /nonexistent/old.lst "$b"
    refused 2 "/nonexistent/new.lst" diff "$b" /nonexistent/new.lst
    refused 2 "no function in common" diff "$b" "$data/jit_v6_18_pair_private.deep_frame.lst"
    refused 2 "needs OLD and NEW" diff "$b"
    refused 2 "which call goes to which function cannot be told" diff "$b,$data/seed001_private_sub.lst" "$b"
    refused 2 "'--measure' takes no value" diff --measure=1 "$b" "$b"
    # --global: decimal or 0x hex only (010 is no octal 8), one global once.
    go=$data/global_bound_old.work.lst gn=$data/global_bound_new.work.lst
    refused 2 "--global=loop_n=010: VALUE is not a whole number (decimal without a leading 0" diff "$go" "$gn" --global=loop_n=010
    refused 2 "--global=loop_n=0x: VALUE is not a whole number" diff "$go" "$gn" --global=loop_n=0x
    refused 2 "--global=loop_n=20: loop_n given twice (also --global=loop_n=10)" diff "$go" "$gn" --global=loop_n=10 --global=loop_n=20
    refused 2 "--global=0xffffc90002422000=10: sets OLD's bytes that --global=loop_n=1 sets" diff "$go" "$gn" --global=loop_n=1 --global=0xffffc90002422000=10
    # A side against itself: no change, status 0.
    answers "^stubbench diff: no change: .*(2 functions, 25 instructions" diff "$b" "$b"
fi
# --help and --version: status 0 on the program and on every subcommand.
answers "^stubbench [0-9]" --version
answers "^stubbench [0-9]" lab --version
answers "--variant=LIST" --help
answers "stubbench lab \[OPTIONS\]" --help
answers "--plot=FILE" lab --help
# -h is --help, in every command; the main --help gives the exit statuses.
answers "^usage: stubbench \[OPTIONS\]" -h
answers "^usage: stubbench report" report -h
answers "^  130  interrupted" --help
# --list: every variant with its kernel flavour, where its code is from.
answers "^private  *private-stack  *\[replica\]" --list
answers "^  *listing: seed 001 v2, \"jited progs with private stack\"" --list
# Every return thunk --thunk takes (as its error lists them) is in --help
# and is taken: one list, from the thunk enum.
thunks=$("$sb" --thunk=nope 2>&1 | sed -n 's/.*unknown return thunk .nope. (\(.*\))$/\1/p' | tr -d ',')
[ "$(echo $thunks | wc -w)" -ge 6 ] && pass || no "--thunk=nope lists '$thunks'"
for t in $thunks; do
    answers "$t" --help
    refused 2 "--thunk needs --flavour=host" --flavour=seed001 --thunk="$t"
    if "$sb" --flavour=host --thunk="$t" --calls=1 >/dev/null 2>&1; then pass; else no "--thunk=$t refused"; fi
done
# A CPU outside the allowed set, when there is one to pick.
if command -v taskset >/dev/null 2>&1 && [ "$(nproc --all)" -gt 1 ]; then
    err=$(taskset -c 0 "$sb" --cpu=1 --calls=1 2>&1 >/dev/null)
    got=$?
    if [ "$got" -eq 2 ] && printf '%s' "$err" | grep -qF "not in this process's allowed set"; then pass
    else no "--cpu outside the allowed set -> status $got, stderr: $err"; fi
fi
checks_done cli_errors

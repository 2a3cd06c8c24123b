#!/bin/sh
# Every bad input: exit status 2 and a message on stderr naming the input.
# usage: cli_errors.sh STUBBENCH [DATA_DIR]
set -u
sb=$1
data=${2:-}
fails=0 passes=0
expect() { # expect STATUS NEEDLE ARGS...
    want=$1 needle=$2
    shift 2
    err=$("$sb" "$@" 2>&1 >/dev/null)
    got=$?
    if [ "$got" -ne "$want" ] || ! printf '%s' "$err" | grep -qF -- "$needle"; then
        echo "FAIL: stubbench $* -> status $got (want $want), stderr: $err (want '$needle')"
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}
expect 2 "unknown variant 'nope'" --variant=nope
expect 2 "unknown variant 'bogus'" --variant=private,bogus
expect 2 "'0'" --batch=0
expect 2 "'abc'" --batch=1,abc
expect 2 "'-5'" --time=-5
expect 2 "'x'" --samples=x
expect 2 "'-1'" --cpu=-1
expect 2 "--cpu=999" --cpu=999
expect 2 "'xml'" --format=xml
expect 2 "/nonexistent.ini" --config=/nonexistent.ini
expect 2 "cannot write '/nonexistent/blocks.csv'" --blocks=/nonexistent/blocks.csv
expect 2 "--blocks: needs a file name" --blocks=
expect 2 "'--frobnicate'" --frobnicate
# A typo of an option or a subcommand: the nearest one named.
expect 2 "did you mean --time?" --tiem=2
expect 2 "did you mean --width?" report --widht=80 a.json
expect 2 "did you mean 'stubbench report'?" reprot
expect 2 "did you mean 'stubbench kernel'?" kernal
expect 2 "'--variant'" --variant
expect 2 "'extra'" extra
expect 2 "exclude each other" --time=1 --samples=10
expect 2 "'0'" --calls=0
expect 2 "'bogus'" --counters=bogus
# The lab subcommand shares the parser; options of one mode are refused in the other.
expect 2 "'diagonal'" lab --shape=diagonal
expect 2 "does not apply to stubbench lab" lab --variant=private
expect 2 "does not apply to stubbench" --shape=per-run
expect 2 "'0'" lab --batch=0
expect 2 "'0'" --placements=0
expect 2 "more than 16" --placements=17
expect 2 "more than 31 arms" --placements=11
expect 2 "'--list' takes no value" --list=3
expect 2 "'--shape' does not apply to stubbench" --shape=in-loop
expect 2 "--plot: empty file name" lab --plot=
# An option a command would ignore is refused.
if "$sb" kernel --help >/dev/null 2>&1 && ! "$sb" kernel --help 2>&1 | grep -q "was not built"; then
    expect 2 "--blocks does not apply with --probe" kernel --probe --blocks=/tmp/never.csv
    expect 2 "--plot does not apply with --probe" kernel --probe --plot=/tmp/never.png
fi
# A --flavour list is never cut: a name past 63 characters would go unread.
expect 2 "is longer than 63 characters" --flavour="host,$(printf '%60s' '')nope" --calls=1
# stubbench diff (where it is built): a file that cannot be read, images of
# different programs, operands missing.
if [ -n "$data" ] && "$sb" diff --help >/dev/null 2>&1; then
    b=$data/seed001_baseline_main.lst,$data/seed001_baseline_sub.lst
    expect 2 "/nonexistent/old.lst" diff /nonexistent/old.lst "$b"
    expect 2 "/nonexistent/new.lst" diff "$b" /nonexistent/new.lst
    expect 2 "no function in common" diff "$b" "$data/jit_v6_18_pair_private.deep_frame.lst"
    expect 2 "needs OLD and NEW" diff "$b"
    expect 2 "which call goes to which function cannot be told" diff "$b,$data/seed001_private_sub.lst" "$b"
    expect 2 "'--measure' takes no value" diff --measure=1 "$b" "$b"
    # --global: decimal or 0x hex only (010 is no octal 8), one global once.
    go=$data/global_bound_old.work.lst gn=$data/global_bound_new.work.lst
    expect 2 "--global=loop_n=010: VALUE is not a whole number (decimal without a leading 0" diff "$go" "$gn" --global=loop_n=010
    expect 2 "--global=loop_n=0x: VALUE is not a whole number" diff "$go" "$gn" --global=loop_n=0x
    expect 2 "--global=loop_n=20: loop_n given twice (also --global=loop_n=10)" diff "$go" "$gn" --global=loop_n=10 --global=loop_n=20
    expect 2 "--global=0xffffc90002422000=10: sets OLD's bytes that --global=loop_n=1 sets" diff "$go" "$gn" --global=loop_n=1 --global=0xffffc90002422000=10
    out=$("$sb" diff "$b" "$b" 2>&1)
    if [ $? -eq 0 ] && printf '%s' "$out" | grep -q "^stubbench diff: no change: .*(2 functions, 25 instructions"; then
        passes=$((passes + 1))
    else
        echo "FAIL: stubbench diff of a side against itself: $out"
        fails=$((fails + 1))
    fi
fi
# --help and --version: status 0 on the program and on every subcommand.
answers() { # answers NEEDLE ARGS...
    needle=$1
    shift
    out=$("$sb" "$@" 2>&1)
    got=$?
    if [ "$got" -eq 0 ] && printf '%s' "$out" | grep -q -- "$needle"; then
        passes=$((passes + 1))
    else
        echo "FAIL: stubbench $* -> status $got, output: $out (want '$needle')"
        fails=$((fails + 1))
    fi
}
answers "^stubbench [0-9]" --version
answers "^stubbench [0-9]" lab --version
answers "--variant=LIST" --help
answers "stubbench lab \[OPTIONS\]" --help
answers "--plot=FILE" lab --help
# -h is --help, in every command; the main --help gives the exit statuses.
answers "^usage: stubbench \[OPTIONS\]" -h
answers "^usage: stubbench report" report -h
answers "^  130  interrupted" --help
# Every return thunk --thunk takes (as its error lists them) is in both
# --help texts, and is taken: one list, from the thunk enum.
thunks=$("$sb" --thunk=nope 2>&1 | sed -n 's/.*unknown return thunk .nope. (\(.*\))$/\1/p' | tr -d ',')
[ "$(echo $thunks | wc -w)" -ge 6 ] || { echo "FAIL: --thunk=nope lists '$thunks'"; fails=$((fails + 1)); }
for t in $thunks; do
    answers "$t" --help
    # (in a build that has the kernel part)
    "$sb" kernel --help >/dev/null 2>&1 && answers "$t" kernel --help
    expect 2 "--thunk needs --flavour=host" --flavour=seed001 --thunk="$t"
    "$sb" --flavour=host --thunk="$t" --calls=1 >/dev/null 2>&1 || { echo "FAIL: --thunk=$t refused"; fails=$((fails + 1)); }
done
# A CPU outside the allowed set, when there is one to pick.
if command -v taskset >/dev/null 2>&1 && [ "$(nproc --all)" -gt 1 ]; then
    err=$(taskset -c 0 "$sb" --cpu=1 --calls=1 2>&1 >/dev/null)
    got=$?
    if [ "$got" -eq 2 ] && printf '%s' "$err" | grep -qF "not in this process's allowed set"; then
        passes=$((passes + 1))
    else
        echo "FAIL: --cpu outside the allowed set -> status $got, stderr: $err"
        fails=$((fails + 1))
    fi
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

#!/bin/sh
# output_discipline: --output changes no file but its own. A planted
# FILE.tmp symbolic link is never followed; /dev/null stays a device; an
# output that is the run's own config or diff input, or a symbolic link, is
# refused (status 2) before anything is measured and left as it was; a
# replaced file keeps its mode.
# usage: output_discipline.sh STUBBENCH DATA_DIR
set -u
sb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
data=$(cd "$2" && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
. "$(dirname "$0")/../common/check.sh"
run="--samples=4 --batch=8 --variant=private --flavour=seed001 --processes=1 --past-runs=none --quiet-levels=none"
export STUBBENCH_TEST_DISTURB_NONE=1
# A planted temporary: the victim keeps its bytes and mode.
printf 'secret\n' > victim; chmod 600 victim
ln -s victim r.json.tmp
"$sb" $run --format=json --output=r.json >/dev/null 2>&1
ok test "$(cat victim)" = secret
ok test "$(stat -c %a victim)" = 600
ok test -s r.json
# A device is written in place.
"$sb" $run --output=/dev/null >/dev/null 2>&1
ok test -c /dev/null
# The run's own config, and diff's input: refused, unchanged, status 2.
printf '[sweep]\nbatches = 8\n' > c.ini
cp c.ini c.orig
"$sb" --config=c.ini $run --output=c.ini >/dev/null 2>err; rc=$?
ok test "$rc" -eq 2
ok grep -q "the report would replace it" err
ok cmp -s c.ini c.orig
cp "$data/jit_v6_18_no_private_stack/run_baseline.prog_baseline.bin" a.bin
cp a.bin a.orig
"$sb" diff a.bin a.bin --output=a.bin >/dev/null 2>err; rc=$?
ok test "$rc" -eq 2
ok cmp -s a.bin a.orig
# A symbolic link as the output: refused, its target unchanged.
ln -s victim link.json
"$sb" $run --output=link.json >/dev/null 2>err; rc=$?
ok test "$rc" -eq 2
ok grep -q "symbolic link" err
ok test "$(cat victim)" = secret
# A replaced file keeps its mode.
printf 'old\n' > keep.json; chmod 640 keep.json
"$sb" $run --format=json --output=keep.json >/dev/null 2>&1
ok test "$(stat -c %a keep.json)" = 640
ok grep -q '"results"' keep.json
# plot X.dat -o X.png would write X.dat, its own input: refused, unchanged.
cp "$data/plot_sweep.json" X.dat
"$sb" plot X.dat -o X.png >/dev/null 2>err; rc=$?
ok test "$rc" -eq 2
ok cmp -s X.dat "$data/plot_sweep.json"
# SIGHUP and SIGQUIT mid-run, and a file past ulimit -f: no temporary left.
for sig in HUP QUIT; do
    "$sb" --cpu=1 --time=3 --format=json --output=sig.json >/dev/null 2>err &
    pid=$!
    sleep 1
    kill -$sig $pid
    wait $pid; rc=$?
    ok test "$rc" -eq 130
    ok test -z "$(ls -A | grep '^\.stubbench-')"
done
(ulimit -f 1; "$sb" $run --format=json --output=big.json >/dev/null 2>err); rc=$?
ok test "$rc" -eq 1
ok grep -q "file size limit" err
ok test -z "$(ls -A | grep '^\.stubbench-')"
# No two outputs of one run are one file, and none is a file it reads:
# refused before anything is measured, nothing made or changed.
# refuses NEEDLE ARGS...: status 2, NEEDLE on stderr.
refuses() {
    needle=$1
    shift
    "$sb" "$@" >/dev/null 2>err; rc=$?
    ok test "$rc" -eq 2
    grep -qF -- "$needle" err || no "$*: $(cat err)"
}
refuses "--blocks: 'new.json' is the same file as --output's 'new.json'" $run --output=new.json --blocks=new.json
ok test ! -e new.json
refuses "--plot's data: 'p.dat' is the same file as --output's '$d/p.dat'" $run --output="$d/p.dat" --plot=p.png
refuses "--quiet-levels: './rec' is the same file as --past-runs's 'rec'" --samples=4 --batch=8 --past-runs=rec --quiet-levels=./rec
ok test ! -e rec
refuses "--blocks: 'c.ini' is the same file as 'c.ini' (--config), which this run reads" --config=c.ini $run --blocks=c.ini
ok cmp -s c.ini c.orig
# An option a command would ignore is refused or honoured, never dropped:
# annotate --from-blocks writes its report to --output and takes no --blocks.
if gzip -dc "$data/annotate_lfence_blocks.csv.gz" >lf.csv 2>/dev/null; then
    STUBBENCH_TEST_VARIANTS=1 "$sb" annotate --variant=test-lfence --from-blocks=lf.csv --output=ann.txt >out 2>err
    ok test "$?" -eq 0
    ok grep -q "^test-lfence vs baseline at batch 512" ann.txt
    ok test ! -s out
    STUBBENCH_TEST_VARIANTS=1 refuses "--blocks does not apply with --from-blocks" annotate --variant=test-lfence \
        --from-blocks=lf.csv --blocks=b.csv
fi
# diff of two images with the same code: its one answer goes to --output too.
lst=$data/jit_v6_18_loop_baseline.loop_baseline.lst
"$sb" diff "$lst" "$lst" --output=same.txt >out 2>err
ok test "$?" -eq 0
ok grep -q "^stubbench diff: no change:" same.txt
ok test ! -s out
checks_done output_discipline

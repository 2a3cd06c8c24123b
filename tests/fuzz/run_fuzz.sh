#!/bin/sh
# run_fuzz.sh: one reader's libFuzzer target for SECONDS, from a corpus
# of the files of its kind in tests/data (copied into WORK/corpus, where
# the fuzzer adds what it finds new) and tests/fuzz/seeds. Fails, showing
# the input, when the target crashes, leaks, hits undefined behaviour,
# runs past 10 s on one input or past 2 GB.
# usage: run_fuzz.sh TARGET KIND SECONDS TESTS_DIR WORK
set -u
target=$1 kind=$2 seconds=$3 tests=$4 work=$5
rm -rf "$work" && mkdir -p "$work/corpus" "$work/crashes" || exit 1
data=$tests/data seeds=$tests/fuzz/seeds
case $kind in
run_file) cp "$data"/answer_*.json "$work/corpus/" ;;
blocks_log)
    for f in "$data"/xeon-0xa7/sweep-1.blocks.csv.gz "$data"/annotate_lfence_blocks.csv.gz; do
        gzip -dc "$f" | head -n 60 > "$work/corpus/$(basename "$f" .gz)"
    done ;;
records) cp "$data"/xeon-0xa7/quiet-levels "$work/corpus/quiet-levels"; cp "$seeds"/past-runs "$work/corpus/" ;;
listing) cp "$data"/jit_v6_18_run_private.prog_private.lst "$data"/seed001_private_main.lst \
            "$data"/global_bound_new.work.lst "$work/corpus/" ;;
*) echo "run_fuzz.sh: unknown kind $kind"; exit 2 ;;
esac
"$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/crashes/" "$work/corpus" 2> "$work/log"
rc=$?
tail -n 12 "$work/log"
found=$(ls "$work/crashes" | wc -l)
if [ "$rc" -ne 0 ] || [ "$found" -ne 0 ]; then
    echo "FAIL: fuzz_$kind: status $rc, $found inputs in $work/crashes:"
    for f in "$work/crashes"/*; do [ -f "$f" ] && { echo "== $f"; head -c 400 "$f" | od -c | head -n 8; }; done
    grep -m 20 -E "ERROR|SUMMARY|runtime error|#0 |#1 |#2 " "$work/log"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"

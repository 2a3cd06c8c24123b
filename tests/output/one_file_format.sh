#!/bin/sh
# one_file_format: a new output format is its reporter file and one line of
# src/output/formats.def, nothing else. Copies what the build reads (no
# tests, no docs) into a temporary directory, drops the throwaway reporter
# of tests/fixtures/one_file_format.c in as src/output/reporter_tsv.c,
# appends its line to formats.def, builds stubbench alone in the
# replica-only configuration and checks that --format=tsv writes the
# reporter's lines (and no summary), that the session's notes went through
# its notes, that --help lists it with what it writes, that a sweep file
# takes it, and that a name no line gives is refused naming tsv among the
# formats.
# usage: one_file_format.sh CMAKE SOURCE_DIR GENERATOR FIXTURE
set -u
cmake=$1 src=$2 gen=$3 fixture=$4
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

tree=$dir/tree
mkdir "$tree"
for part in CMakeLists.txt cmake src include bench asm share configs; do
    cp -R "$src/$part" "$tree/" || { echo "FAIL: cannot copy $part"; exit 1; }
done
cp "$fixture" "$tree/src/output/reporter_tsv.c"
echo 'FORMAT(tsv, 0, "a tab-separated line per cell")' >>"$tree/src/output/formats.def"

"$cmake" -S "$tree" -B "$dir/build" -G "$gen" -DBUILD_TESTING=OFF -DSTUBBENCH_KERNEL=OFF \
    -DSTUBBENCH_GBENCH=OFF -DSTUBBENCH_COUNTERS=OFF >"$dir/configure.log" 2>&1 || {
    tail -20 "$dir/configure.log"; echo "FAIL: configure"; exit 1; }
"$cmake" --build "$dir/build" --target stubbench -j2 >"$dir/build.log" 2>&1 || {
    tail -20 "$dir/build.log"; echo "FAIL: build with the one file and the one line"; exit 1; }
sb=$dir/build/stubbench

STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --format=tsv --variant=private --batch=64 --time=1 --processes=1 \
    --past-runs=none --quiet-levels=none >"$dir/out" 2>"$dir/err"
rc=$?
[ "$rc" -eq 0 ] || fail "--format=tsv exited $rc: $(tail -3 "$dir/err")"
grep -q "^tsv	private	64	" "$dir/out" || fail "no tsv line for private at batch 64: $(head -5 "$dir/out")"
others=$(grep -vc "^tsv	" "$dir/out")
[ "$others" -eq 0 ] || fail "$others lines on stdout that are not the reporter's: $(head -3 "$dir/out")"
grep -q "^stubbench: tsv notes: all$" "$dir/err" || fail "the notes did not go through the reporter: $(cat "$dir/err")"

"$sb" --help >"$dir/help" 2>&1 || fail "--help exited $?"
tr -s ' \n' ' ' <"$dir/help" | grep -q "tsv (a tab-separated line per cell)" ||
    fail "--help does not list tsv: $(grep -A3 -- --format= "$dir/help")"

printf '[output]\nformat = tsv\n' >"$dir/tsv.ini"
STUBBENCH_TEST_DISTURB_NONE=1 "$sb" --config="$dir/tsv.ini" --variant=private --batch=8 --samples=3 \
    --processes=1 --past-runs=none --quiet-levels=none >"$dir/out2" 2>/dev/null ||
    fail "a sweep file's format = tsv: exit $?"
grep -q "^tsv	private	8	" "$dir/out2" || fail "a sweep file's format = tsv wrote: $(head -3 "$dir/out2")"

err=$("$sb" --format=tsvx --samples=1 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "unknown format 'tsvx'; one of .*, tsv$" ||
    fail "--format=tsvx: status $rc, $err"
echo "one_file_format: $(wc -l <"$dir/out") tsv lines; $fails failures"
[ "$fails" -eq 0 ]

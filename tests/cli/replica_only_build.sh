#!/bin/sh
# The replicas, harness and front end build without any optional part:
# configures a tree in a temporary directory with STUBBENCH_KERNEL and
# STUBBENCH_COUNTERS off and Google Benchmark hidden (so STUBBENCH_GBENCH
# is switched off by detection, with its one line), builds stubbench only,
# and checks that --list works, that `stubbench kernel` and --counters say
# they were not built (status 2, one line), and that the tree has no
# stubbench-gbench and no kernel library target.
# usage: replica_only_build.sh CMAKE SOURCE_DIR GENERATOR
set -u
cmake=$1 src=$2 gen=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$(dirname "$0")/../common/check.sh"

cfg=$("$cmake" -S "$src" -B "$dir" -G "$gen" -DBUILD_TESTING=OFF -DSTUBBENCH_KERNEL=OFF \
      -DSTUBBENCH_COUNTERS=OFF -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON 2>&1) || {
    echo "$cfg"; echo "FAIL: configure"; exit 1; }
n=$(printf '%s\n' "$cfg" | grep -c "STUBBENCH_GBENCH off: Google Benchmark not found")
[ "$n" -eq 1 ] || no "configure said $n times why STUBBENCH_GBENCH is off (want 1)"
"$cmake" --build "$dir" --target stubbench -j2 >"$dir/build.log" 2>&1 || {
    tail -20 "$dir/build.log"; echo "FAIL: build"; exit 1; }
sb=$dir/stubbench

"$sb" --list >"$dir/list" 2>&1 || no "stubbench --list exited $?"
for v in baseline private hybrid; do
    grep -q "^$v " "$dir/list" || no "--list lacks $v"
done
err=$("$sb" kernel --samples=1 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || no "stubbench kernel exited $rc (want 2)"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q "'kernel' was not built.*STUBBENCH_KERNEL" ||
    no "stubbench kernel said: $err"
err=$("$sb" --counters=cycles --samples=1 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] && printf '%s' "$err" | grep -q "STUBBENCH_COUNTERS=OFF" || no "--counters: status $rc, $err"
"$sb" --help | grep -q "stubbench kernel \[OPTIONS\] *(not built" || no "--help does not say kernel is not built"
for t in stubbench-gbench stubbench_kernel stubbench_gbench_shim; do
    grep -q "/$t.dir" "$dir/CMakeFiles/TargetDirectories.txt" && no "target $t exists"
done
[ -e "$dir/stubbench-gbench" ] && no "stubbench-gbench was built"
echo "replica-only build: $(grep -c '^[a-z]' "$dir/list") variants listed"
checks_done replica_only_build

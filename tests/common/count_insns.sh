#!/bin/sh
# Exact instructions per iteration of a variant, counted by callgrind inside
# sb_count_loop (7 instructions + 3 per call of its own), against what the
# variant's record says (asm SB_VARIANT: V_INSNS_PER_CALL, V_INSNS_FIXED).
# Two runs, batches 1 and 37, so the per-iteration and the fixed cost must
# both be right:
#   per-run:  total = 7 + CALLS*B*(3 + per_iter)            (fixed = 0)
#   in-loop:  total = 7 + CALLS*(3 + fixed + B*per_iter)
# usage: count_insns.sh DRIVER VARIANT
# Exits 77 (ctest SKIP) when valgrind is not installed, or when the driver
# is built with AddressSanitizer (STUBBENCH_SANITIZE=ON), which valgrind
# cannot run.
set -u
driver=$1 variant=$2
calls=10
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed (apt-get install valgrind)"
    exit 77
fi
if grep -qa __asan_init "$driver"; then
    echo "SKIP: $driver is built with AddressSanitizer, which valgrind cannot run"
    exit 77
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
count() { # batch -> total instructions
    if ! valgrind --tool=callgrind --toggle-collect=sb_count_loop \
            --callgrind-out-file="$out" "$driver" "$variant" "$1" "$calls" >"$out.log" 2>&1; then
        echo "FAIL: valgrind run failed:" >&2; cat "$out.log" >&2; return 1
    fi
    t=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
    [ -n "$t" ] || t=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
    echo "$t"
}
record=$("$driver" "$variant" 1 1) || { echo "FAIL: $driver $variant 1 1: $record"; exit 1; }
set -- $(printf '%s\n' "$record" | sed -n 's/^registry: \([0-9]*\) per iteration, \([0-9]*\) fixed per run, \(.*\)/\1 \2 \3/p')
[ $# -eq 3 ] || { echo "FAIL: no record line from the driver: $record"; exit 1; }
per_iter=$1 fixed=$2 shape=$3
rc=0
for b in 1 37; do
    total=$(count $b) || exit 1
    case $shape in
    in-loop) want=$((7 + calls * (3 + fixed + b * per_iter))) ;;
    *)       want=$((7 + calls * b * (3 + per_iter))) ;;
    esac
    echo "$variant batch $b: $total instructions, record says $want ($per_iter per iteration, $fixed fixed)"
    [ "$total" = "$want" ] || { echo "FAIL: instruction count differs from the record"; rc=1; }
done
exit $rc

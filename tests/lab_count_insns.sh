#!/bin/sh
# Exact instructions per iteration of a lab variant, counted by callgrind
# inside sb_lab_count_loop (7 instructions + 3 per call of its own).
# Two runs, batches B1 and B2, give the per-iteration and the fixed cost:
#   per-run:  total = 7 + CALLS*B*(3 + per_iter)            (fixed = 0)
#   in-loop:  total = 7 + CALLS*(3 + fixed + B*per_iter)
# Both must equal the hand count given here (from tests/data/lab_*.lst) and
# what the registry says.
# usage: lab_count_insns.sh DRIVER VARIANT PER_ITER FIXED
# Exits 77 (ctest SKIP) when valgrind is not installed.
set -u
driver=$1 variant=$2 per_iter=$3 fixed=$4
calls=10
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: valgrind is not installed (apt-get install valgrind)"
    exit 77
fi
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
count() { # batch -> total instructions
    if ! valgrind --tool=callgrind --toggle-collect=sb_lab_count_loop \
            --callgrind-out-file="$out" "$driver" "$variant" "$1" "$calls" >"$out.log" 2>&1; then
        echo "FAIL: valgrind run failed:" >&2; cat "$out.log" >&2; return 1
    fi
    t=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out")
    [ -n "$t" ] || t=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
    echo "$t"
}
registry=$("$driver" "$variant" 1 1 | sed -n 's/^registry: \([0-9]*\) per iteration, \([0-9]*\) fixed.*/\1 \2/p')
[ "$registry" = "$per_iter $fixed" ] || {
    echo "FAIL: registry says '$registry' (per iteration, fixed), hand count '$per_iter $fixed'"; exit 1; }
rc=0
for b in 1 37; do
    total=$(count $b) || exit 1
    case $variant in
    *-inloop) want=$((7 + calls * (3 + fixed + b * per_iter))) ;;
    *)        want=$((7 + calls * b * (3 + per_iter))) ;;
    esac
    echo "$variant batch $b: $total instructions, expected $want ($per_iter per iteration, $fixed fixed)"
    [ "$total" = "$want" ] || { echo "FAIL: instruction count differs"; rc=1; }
done
exit $rc

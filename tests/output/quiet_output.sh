#!/bin/sh
# quiet_output: with --format=json --output=FILE the terminal gets the
# summary alone (at most 10 lines within 100 columns) and FILE the whole
# document; the kernel run's JIT check is in the document, and on the
# terminal only with --verbose.
# usage: quiet_output.sh STUBBENCH
set -u
sb=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
export STUBBENCH_TEST_DISTURB_NONE=1
within() { # FILE: at most 10 lines, none over 100 columns
    [ "$(wc -l < "$1")" -le 10 ] && [ "$(awk 'length > 100' "$1" | wc -l)" -eq 0 ]
}
json() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if $2 else 1)" "$1"; }
run="--samples=4 --batch=8,64 --processes=1 --past-runs=none --quiet-levels=none"

"$sb" $run --format=json --output="$d/s.json" > "$d/term" 2>&1
cat "$d/term"
ok within "$d/term"
ok grep -q "^stubbench: " "$d/term"
ok json "$d/s.json" "d['results']"
"$sb" $run --format=json --output="$d/v.json" --verbose > "$d/verbose" 2>&1
ok test "$(wc -l < "$d/verbose")" -gt "$(wc -l < "$d/term")"

if "$sb" kernel --help >/dev/null 2>&1; then
    k="--samples=32 --batch=8,64 --loads=2 --past-runs=none"
    "$sb" kernel $k --format=json --output="$d/k.json" > "$d/kterm" 2>&1; rc=$?
    if [ $rc -ge 3 ] && [ $rc -le 5 ]; then
        echo "kernel part not run here (exit $rc): $(tail -n 1 "$d/kterm")"
    else
        cat "$d/kterm"
        ok within "$d/kterm"
        ok test "$(grep -c '^jit ' "$d/kterm")" -eq 0
        ok json "$d/k.json" "d['kernel_run']['jit_check']"
        "$sb" kernel $k --format=json --output="$d/kv.json" --verbose > "$d/kverbose" 2>&1
        ok grep -q '^jit ' "$d/kverbose"
    fi
fi
checks_done quiet_output

#!/bin/sh
# auto_twin_live.sh STUBBENCH TEST_AUTO_TWIN MAP_BOUND_OBJ: auto-twins on the
# running kernel. The built-in programs' JIT (stubbench kernel --dump-jit)
# makes twins equal to the hand-made ones, addresses masked, that run and
# take the path their records say (test_auto_twin on the dumps). Then
# tests/data/map_bound.bpf.c through --obj: "from_map" loops as many times
# as a .data global says (50 in the kernel, 0 in the twin's stubbed
# buffers), so its twin must be reported not comparable, with both
# instruction counts, and no figure printed for it; "fixed" (a constant
# bound) is measured. SKIP (77) where BPF programs cannot be loaded.
sb=$1
tat=$2
obj=$3
. "$(dirname "$0")/../common/kernel_skip.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$sb" kernel --dump-jit="$d" --samples=3 --batch=8 --loads=1 --processes=1 >/dev/null 2>"$d/err"
rc=$?
bpf_unavailable $rc "$(tail -1 "$d/err")" && exit 77
[ -f "$d/loop_private.loop_private.lst" ] || { cat "$d/err"; echo "no JIT dump"; exit 1; }
"$tat" "$d" "" || { echo "auto-twins of this kernel's JIT differ from the hand-made twins"; exit 1; }
# --verbose: its lines whole (--table folds them within 100 columns).
out=$("$sb" kernel --obj="$obj" --prog=fixed,from_map --samples=20 --processes=1 --verbose 2>&1)
rc=$?
bpf_unavailable $rc "--obj" && exit 77
printf '%s\n' "$out" | grep '^auto-twin '
printf '%s\n' "$out" | grep -Eq "^auto-twin from_map: not comparable: [0-9]+ instructions per run with the stubs' values, [0-9]+ with the maps' contents" ||
	{ printf '%s\n' "$out"; echo "FAIL: from_map's twin (its loop bound from a map) not reported not comparable"; exit 1; }
if printf '%s\n' "$out" | grep -Eq '^(auto-twin from_map, batch|from_map-twin@loads)'; then
	echo "FAIL: a figure printed for from_map's twin"; exit 1
fi
printf '%s\n' "$out" | grep -Eq '^auto-twin fixed: .*the kernel.s path' &&
	printf '%s\n' "$out" | grep -Eq '^auto-twin fixed, batch 1: ' ||
	{ printf '%s\n' "$out"; echo "FAIL: fixed's twin (a constant bound) not measured"; exit 1; }
echo "auto_twin_live: ok"

#!/bin/sh
# deprivatize_live.sh STUBBENCH [USER_OBJ [PAIR_OBJ]]: the de-privatized twin of the
# htab shape's htab_body as this kernel JITs it from the raw_tp driver (private
# stack) equals this kernel's JIT of it from the syscall driver (none),
# addresses masked; and the privatized twin of the syscall one equals the
# raw_tp one. With the test object: the twin of its sum_big (96-byte frame,
# private) has the rbp frame of its sum_small (8 bytes, none) and differs from
# it first at sub rsp: no kernel JIT of sum_big without a private stack exists.
# With tests/data/twin_pair.bpf.c's object: its three functions, both ways.
# SKIP (77) when the kernel run cannot load BPF programs here.
sb=$1
obj=$2
pair=$3
. "$(dirname "$0")/../common/kernel_skip.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$sb" kernel --shape=htab --dump-jit="$d" --samples=32 --batch=1 --processes=1 >/dev/null 2>&1
rc=$?
bpf_unavailable $rc && exit 77
[ $rc -eq 0 ] || { echo "stubbench kernel exited $rc"; exit 1; }
"$sb" deprivatize "$d/htab_private.htab_body.bin" --against="$d/htab_baseline.htab_body.lst" \
	| grep '^# equal to' || { echo "de-privatized twin differs from the syscall driver's htab_body"; exit 1; }
# The frame pointer and gs displacement are masked: any 64-bit address makes the movabs form.
"$sb" deprivatize --privatize --frame-ptr=0x600000000000 --gs-disp=0x83b0c028 \
	"$d/htab_baseline.htab_body.bin" --against="$d/htab_private.htab_body.lst" \
	| grep '^# equal to' || { echo "privatized twin differs from the raw_tp driver's htab_body"; exit 1; }
[ -n "$obj" ] || exit 0
"$sb" kernel --obj="$obj" --prog=with_frame,no_frame --dump-jit="$d/obj" --samples=32 --batch=1 \
	--processes=1 >/dev/null 2>&1 || { echo "stubbench kernel --obj=$obj failed"; exit 1; }
out=$("$sb" deprivatize "$d/obj/with_frame.sum_big.bin" --against="$d/obj/no_frame.sum_small.lst")
[ $? -eq 1 ] && printf '%s\n' "$out" | grep -q 'stack depth 0x60' &&
	printf '%s\n' "$out" | grep -q "^# differs from .*at 0xc 'sub rsp, 8'" ||
	{ printf '%s\n' "$out"; echo "sum_big's twin is not sum_small's frame with 0x60 bytes"; exit 1; }
[ -n "$pair" ] || exit 0
# --obj cannot measure the syscall driver (BPF_PROG_TEST_RUN refuses the
# runner's options for it), but it writes the JIT dump before measuring.
"$sb" kernel --obj="$pair" --prog=pair_private,pair_baseline --dump-jit="$d/pair" --samples=32 \
	--batch=1 --processes=1 >/dev/null 2>&1
[ -f "$d/pair/pair_baseline.stack_args.lst" ] || { echo "stubbench kernel --obj=$pair: no dump"; exit 1; }
for f in deep_frame long_loop stack_args; do
	"$sb" deprivatize "$d/pair/pair_private.$f.bin" --against="$d/pair/pair_baseline.$f.lst" \
		| grep '^# equal to' || { echo "de-privatized $f differs from the syscall driver's"; exit 1; }
	"$sb" deprivatize --privatize --frame-ptr=0x600000000000 "$d/pair/pair_baseline.$f.bin" \
		--against="$d/pair/pair_private.$f.lst" \
		| grep '^# equal to' || { echo "privatized $f differs from the raw_tp driver's"; exit 1; }
done

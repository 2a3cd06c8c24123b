#!/bin/sh
# kernel_dump_jit: `stubbench kernel --dump-jit=DIR` writes raw bytes and a
# listing per JITed function: the six programs' 15 functions and the empty
# driver's, the private ones with the r9 setup and the baseline's without;
# --shape=htab's 8 listings, the r9 setup in exactly the two bodies with a
# private stack (the one with helpers, whose calls alone are wrapped in
# push/pop r9, and the one without), the baseline body with its rbp frame.
# A shape BPF cannot run here is skipped; SKIP (77) when none runs.
# usage: kernel_dump_jit.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
. "$(dirname "$0")/../common/kernel_skip.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
ran=0
# dump WHAT ARGS...: the run's dump in $d/WHAT; false (said) when it has none.
dump() {
    what=$1
    shift
    "$sb" kernel --dump-jit="$d/$what" "$@" >/dev/null 2>&1
    rc=$?
    bpf_unavailable $rc "$what" && return 1
    ran=$((ran + 1))
    [ $rc -eq 0 ] || { no "$what: stubbench kernel exited $rc"; return 1; }
}
if dump programs --samples=8 --batch=8; then
    p=$d/programs
    ok test "$(ls "$p"/*.bin | wc -l)" -eq 16 -a "$(ls "$p"/*.lst | wc -l)" -eq 16
    ok grep -q 'add r9, qword ptr gs:' "$p/loop_private.loop_private.lst"
    ok test -z "$(grep 'r9' "$p/loop_baseline.loop_baseline.lst")"
    ok test "$(stat -c %s "$p/run_private.sub_big.bin")" -eq 45
fi
if dump htab --shape=htab --samples=32 --batch=2; then
    h=$d/htab
    ok test "$(ls "$h"/*.lst | wc -l)" -eq 8
    ok test "$(cd "$h" && grep -l 'add r9, qword ptr gs:' *.lst | tr '\n' ' ')" = \
        'htab_nohelp.htab_body_nohelp.lst htab_private.htab_body.lst '
    ok test "$(cd "$h" && grep -l 'push r9' *.lst | tr '\n' ' ')" = 'htab_private.htab_body.lst '
    ok grep -q 'sub rsp, 0x60' "$h/htab_baseline.htab_body.lst"
fi
[ $ran -gt 0 ] || exit 77
checks_done kernel_dump_jit

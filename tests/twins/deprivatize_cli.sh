#!/bin/sh
# deprivatize_cli: `stubbench deprivatize` on recorded v6.18 JIT output:
# bpftool's text of htab_body with a private stack in, its de-privatized
# listing out (34 bytes and 3 push/pop r9 pairs fewer, the rbp frame
# back), equal to the kernel's own JIT without a private stack (status 0);
# a function against another's listing differs, naming the first
# instruction apart (status 1); a listing with no private stack is bad
# input (status 2, one line naming it).
# usage: deprivatize_cli.sh STUBBENCH DATA_DIR
set -u
sb=$1 d=$2
. "$(dirname "$0")/../common/check.sh"

out=$("$sb" deprivatize "$d/bpftool_v6_18_htab_private_opcodes.txt" \
    --against="$d/jit_v6_18_htab_baseline.htab_body.lst")
got=$?
# The summary, the frame's instruction, the verdict: in that order.
if [ "$got" -eq 0 ] && printf '%s\n' "$out" | awk '
    n == 0 && /^# 296 -> 262 bytes, stack depth 0x60, 3 push\/pop r9 pairs removed/ { n = 1 }
    n == 1 && /^c: +48 81 ec 60 00 00 00 +sub rsp, 0x60$/ { n = 2 }
    n == 2 && /^# equal to .*: 67 instructions/ { n = 3 }
    END { exit n != 3 }'; then pass
else no "htab_body de-privatized: status $got (want 0), output: $out"; fi

out=$("$sb" deprivatize "$d/jit_v6_18_run_private.prog_private.bin" \
    --against="$d/jit_v6_18_run_baseline.prog_baseline.lst")
got=$?
last=$(printf '%s\n' "$out" | tail -n 1)
if [ "$got" -eq 1 ] && printf '%s\n' "$last" | grep -q "^# differs from .*'sub rsp, 8'"; then pass
else no "prog_private against prog_baseline: status $got (want 1), last line '$last'"; fi

refused -x 2 "stubbench deprivatize: $d/seed001_baseline_main.lst: no function with a private stack" \
    deprivatize "$d/seed001_baseline_main.lst"
checks_done deprivatize_cli

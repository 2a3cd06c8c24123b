#!/bin/sh
# contained_code: code from a file that gets past the static check (the
# test hook STUBBENCH_TEST_SKIP_CODE_CHECK=1) still cannot act in the
# measuring child (src/harness/contain.c, docs/security-model.md). NEW is
# the JIT of run_baseline.prog_baseline (tests/data/jit_v6_18_no_private_stack)
# with bytes replaced, as in hostile_code.sh:
#  - mkdir("M", 0777) in place of the first 19 bytes, the prologue ("M"
#    pushed on the stack): the run must end with status 2 and (after diff's
#    line that its path trace could not follow the code, where it says so)
#    one line naming system call 83, and no directory M may appear in the
#    (world-writable) directory it runs in;
#  - a jump to itself at +0x32: the watchdog must end the run with status
#    2 and its one line, well within `timeout` (--time=1: 4 x 1 s + 5 s);
#  - the same mkdir with the SMT sibling's load running the measured code
#    (--sibling=busy --sibling-load=same, CPU 0 standing in for the
#    sibling: STUBBENCH_TEST_SIBLING_CPU): the load process is contained
#    too, so the run ends with status 2 and no directory M appears;
#  - control: the JIT's own bytes under the hook measure without either line.
# usage: contained_code.sh STUBBENCH DATA_DIR
set -u
sb=$1 data=$2/jit_v6_18_no_private_stack
case $sb in /*) ;; *) sb=$(pwd)/$sb ;; esac
case $data in /*) ;; *) data=$(pwd)/$data ;; esac
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
chmod 1777 "$d"
fails=0 passes=0
old="$data/run_baseline.prog_baseline.bin,$data/run_baseline.sub_small.bin"
make_new() { # OFF BYTES
    cp "$data/run_baseline.prog_baseline.bin" "$d/new.bin"
    printf "$2" | dd of="$d/new.bin" bs=1 seek=$(( $1 )) conv=notrunc status=none
}
run() { # the diff under the hook, in $d, with extra options $@; stderr in $out, status in $rc
    out=$(cd "$d" && STUBBENCH_TEST_SKIP_CODE_CHECK=1 timeout 60 "$sb" diff "$old" \
          "$d/new.bin,$data/run_baseline.sub_small.bin" --time=1 --batch=8 --no-parts \
          --past-runs=none --quiet-levels=none "$@" 2>&1 >/dev/null)
    rc=$?
}
check() { # NAME WANT: status 2, the last line matching WANT; before it at most diff's line
    # that the path trace (run first, itself contained) could not follow the code
    if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | grep -vc "its path could not be traced")" -eq 1 ] &&
       printf '%s\n' "$out" | tail -n 1 | grep -q -- "$2"; then
        passes=$((passes + 1))
    else
        echo "FAIL: $1: status $rc (want 2), stderr (want a last line with '$2'): $out"
        fails=$((fails + 1))
    fi
}
# push 0x4d ("M\0" on the stack); mov rdi, rsp; mov eax, 83; mov esi, 0x1ff;
# syscall; pop rax; nop
make_new 0 '\152\115\110\211\347\270\123\000\000\000\276\377\001\000\000\017\005\130\220'
run
check mkdir "made system call 83, which its containment forbids"
if [ -e "$d/M" ]; then
    echo "FAIL: mkdir: the directory was made"; fails=$((fails + 1))
else
    passes=$((passes + 1))
fi
# The same with the sibling's load running the measured code on CPU 0.
if [ "$(nproc)" -ge 2 ]; then
    out=$(cd "$d" && STUBBENCH_TEST_SKIP_CODE_CHECK=1 STUBBENCH_TEST_SIBLING_CPU=0 timeout 60 "$sb" diff \
          "$old" "$d/new.bin,$data/run_baseline.sub_small.bin" --time=1 --batch=8 --no-parts --cpu=1 \
          --sibling=busy --sibling-load=same --past-runs=none --quiet-levels=none 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -eq 2 ] && [ ! -e "$d/M" ] && printf '%s\n' "$out" | grep -q "containment forbids"; then
        passes=$((passes + 1))
    else
        echo "FAIL: mkdir in the sibling's load: status $rc (want 2), M made: $([ -e "$d/M" ] && echo yes || echo no): $out"
        fails=$((fails + 1))
    fi
    rm -rf "$d/M"
else
    echo "the sibling's load case needs 2 CPUs: not run"
fi
# jmp $ (eb fe) and a nop in place of mov rdi, rbx
make_new 0x32 '\353\376\220'
run
check self-jump "ran past its budget of .* s (code that does not return?); stopped"
# Control: the JIT's own bytes under the hook are measured.
make_new 0x32 '\110\211\337'
run
if [ "$rc" -eq 0 ] && ! printf '%s' "$out" | grep -q "containment\|past its budget"; then
    passes=$((passes + 1))
else
    echo "FAIL: the JIT's own bytes: status $rc (want 0): $out"; fails=$((fails + 1))
fi
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

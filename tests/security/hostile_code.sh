#!/bin/sh
# hostile_code: code from a file never runs unless a JIT could have emitted
# it (src/jit/code_check.c). NEW is the JIT of run_baseline.prog_baseline
# (tests/data/jit_v6_18_no_private_stack) with its first `mov rdi, rbx`
# (3 bytes at +0x32) replaced; `stubbench diff OLD NEW` must exit 2 with
# one line naming the file, NEW+0x32, the instruction and why, and run
# nothing: the syscall case is `mov eax, 60; syscall` after a `mov edi, 0`,
# which run would end the tool with status 0 and no output; a control
# case (the same 3 bytes put back) must be taken.
# usage: hostile_code.sh STUBBENCH DATA_DIR
set -u
sb=$1 data=$2/jit_v6_18_no_private_stack
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
fails=0 passes=0
old="$data/run_baseline.prog_baseline.bin,$data/run_baseline.sub_small.bin"
# NEW with hex bytes HEX written at offset OFF of prog_baseline.
make_new() {
    cp "$data/run_baseline.prog_baseline.bin" "$d/new.bin"
    printf "$2" | dd of="$d/new.bin" bs=1 seek=$(( $1 )) conv=notrunc status=none
}
refused() { # NAME OFF BYTES WANT
    make_new "$2" "$3"
    out=$("$sb" diff "$old" "$d/new.bin,$data/run_baseline.sub_small.bin" --samples=4 --batch=8 \
          --processes=1 --past-runs=none --quiet-levels=none 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
       printf '%s' "$out" | grep -q "new.bin" && printf '%s' "$out" | grep -q -- "$4"; then
        passes=$((passes + 1))
    else
        echo "FAIL: $1: status $rc (want 2), stderr (want one line with '$4'): $out"
        fails=$((fails + 1))
    fi
}
# The bytes at +0x2e..+0x34 are `mov [rdi], rsi; mov rdi, rbx`: the syscall
# case takes 7 bytes from +0x2e (mov edi, 0 is 5 bytes: bf 00 00 00 00).
make_new 0x2e '\270\074\000\000\000\017\005'
refused_syscall() {
    out=$("$sb" diff "$old" "$d/new.bin,$data/run_baseline.sub_small.bin" --samples=4 --batch=8 \
          --processes=1 --past-runs=none --quiet-levels=none 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q "+0x33: 'syscall '.*refused before anything runs"; then
        passes=$((passes + 1))
    else
        echo "FAIL: syscall: status $rc (want 2): $out"; fails=$((fails + 1))
    fi
}
refused_syscall
refused ud2 0x32 '\017\013\220' "'ud2 "
refused hlt 0x32 '\364\220\220' "'hlt "
refused int3 0x32 '\314\220\220' "an int3 the JIT emits only after a jmp or ret"
refused int80 0x32 '\315\200\220' "'int 0x80'"
refused self-jump 0x32 '\353\376\220' "a jump to itself"
refused out-jcc 0x32 '\164\177\220' "a jump out of the function"
# (the image diff finds this one first, with its own line)
refused mid-jump 0x32 '\353\002\220' "inside an instruction"
refused call-rax 0x32 '\377\320\220' "an indirect call"
refused in-al 0x32 '\344\200\220' "no JIT emits it"
# Control: the original bytes are taken (no code check message).
make_new 0x32 '\110\211\337'
out=$("$sb" diff "$old" "$d/new.bin,$data/run_baseline.sub_small.bin" --samples=4 --batch=8 \
      --processes=1 --past-runs=none --quiet-levels=none 2>&1 >/dev/null)
if printf '%s' "$out" | grep -q "refused before anything runs"; then
    echo "FAIL: the JIT's own bytes refused: $out"; fails=$((fails + 1))
else
    passes=$((passes + 1))
fi
# Two 40k-instruction images that differ throughout: refused with their
# sizes, not aligned in gigabytes.
python3 -c "
pro = bytes([0x55, 0x48, 0x89, 0xe5]); epi = bytes([0xc9, 0xc3])
open('$d/big_old.bin', 'wb').write(pro + bytes([0x31, 0xc0]) * 40000 + epi)
open('$d/big_new.bin', 'wb').write(pro + bytes([0x31, 0xdb]) * 40000 + epi)"
out=$(timeout 20 "$sb" diff "$d/big_old.bin" "$d/big_new.bin" --time=1 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 2 ] && printf '%s' "$out" | grep -q "too many to align"; then
    passes=$((passes + 1))
else
    echo "FAIL: two 40k-instruction images: status $rc (want 2): $out"; fails=$((fails + 1))
fi
# A listing is text in any language: a comment that is not ASCII keeps it a
# listing (it was taken for an image's bytes and decoded as code); a line
# that is no listing's is an error shown without its control bytes; a NUL
# in a .lst is refused.
lst=$2/jit_v6_18_loop_baseline.loop_baseline.lst
# listing_case NAME STATUS NEEDLE FIRST-LINE: diff of lst with FIRST-LINE put first against lst.
listing_case() {
    { printf '%s\n' "$4"; cat "$lst"; } >"$d/c.lst"
    out=$(timeout 20 "$sb" diff "$d/c.lst" "$lst" 2>&1 >/dev/null; echo "rc=$?")
    if printf '%s' "$out" | grep -q "rc=$2\$" && printf '%s' "$out" | grep -qF -- "$3" &&
       ! printf '%s' "$out" | grep -q "$(printf '\033')"; then
        passes=$((passes + 1))
    else
        echo "FAIL: $1: $out"; fails=$((fails + 1))
    fi
}
"$sb" diff "$lst" "$lst" >"$d/same" 2>&1
listing_case comment_not_ascii 0 "" "# commentaire en français: é, ü"
grep -q "no change" "$d/same" && "$sb" diff "$d/c.lst" "$lst" 2>&1 | grep -q "no change" && passes=$((passes + 1)) ||
    { echo "FAIL: comment_not_ascii: not read as the same listing"; fails=$((fails + 1)); }
listing_case comment_indented_colon 0 "" "  # fonction privée:"
listing_case not_a_listing_line 2 "c.lst:1: not a listing line: '// ü'" "// ü"
listing_case escape_in_line 2 "c.lst:1: not a listing line: '?[2J" "$(printf '\033[2J')x"
printf '0:   90   nop\n\0000:   0f 05   syscall\n' >"$d/nul.lst"
out=$("$sb" diff "$d/nul.lst" "$lst" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && printf '%s' "$out" | grep -q "nul.lst: a NUL byte" && passes=$((passes + 1)) ||
    { echo "FAIL: nul_in_listing: $rc $out"; fails=$((fails + 1)); }
echo "$passes passed, $fails failed"
[ "$fails" -eq 0 ]

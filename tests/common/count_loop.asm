;; count_loop.asm: the loop valgrind's callgrind counts in, for the exact
;; instructions per iteration of every variant (tests/common/count_insns.sh). Its
;; own cost is exact too: 7 instructions + 3 per call (call, dec, jnz).
;;   void sb_count_loop(int (*fn)(void), uint64_t n)   (n >= 1)

section .text
align 64, int3
global sb_count_loop:function (sb_count_loop.end - sb_count_loop)
sb_count_loop:
    push rbx
    push r12
    mov rbx, rdi
    mov r12, rsi
.again:
    call rbx
    dec r12
    jnz .again
    pop r12
    pop rbx
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

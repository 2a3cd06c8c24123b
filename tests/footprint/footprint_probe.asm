;; footprint_probe.asm: a stub that logs where it runs, so that a test can
;; tell which placed copy each call of the round-robin loop reached. Not a
;; replica. The "call .here" stays inside the function (relocation leaves
;; it alone); the log is reached through an absolute movabs, as the
;; replicas reach their counters.
bits 64
default rel

%define LOG_MAX 4096

section .bss
align 8
global sb_test_fp_log
sb_test_fp_log: resq 1 + LOG_MAX     ; count, then the addresses of .here
global sb_test_fp_calls
sb_test_fp_calls: resq 1

section .text
align 16
global sb_test_fp_probe:function (sb_test_fp_probe.end - sb_test_fp_probe)
sb_test_fp_probe:
    call .here
.here:
    pop rax
    mov rcx, qword sb_test_fp_log
    mov rdx, [rcx]
    cmp rdx, LOG_MAX
    jae .full
    mov [rcx + 8 + rdx*8], rax
.full:
    inc qword [rcx]
    mov rcx, qword sb_test_fp_calls
    inc qword [rcx]
    xor eax, eax
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

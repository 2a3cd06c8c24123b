;; thunk_probe.asm: calls code as a function whose return goes through it,
;; the way JITed code reaches a return thunk ("call f" ... f: "jmp thunk"),
;; and says whether the caller got control back as it should.
;;
;;   unsigned sb_test_return_via(const void *code)
;; returns 0, or a bit per broken promise: 1 rsp differs after the return,
;; 2 rbx, 4 rbp, 8 r12, 16 r13, 32 r14, 64 r15 changed.

bits 64
default rel

section .bss
alignb 8
saved_rsp: resq 1

section .text
global sb_test_return_via:function (sb_test_return_via.end - sb_test_return_via)
sb_test_return_via:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    mov r11, rdi
    mov rbx, 0x1111111111111111
    mov rbp, 0x2222222222222222
    mov r12, 0x3333333333333333
    mov r13, 0x4444444444444444
    mov r14, 0x5555555555555555
    mov r15, 0x6666666666666666
    mov [saved_rsp], rsp
    call .function
    xor eax, eax
    xor ecx, ecx
    cmp rsp, [saved_rsp]
    setne cl
    or eax, ecx
%macro KEPT 3 ; register, value, bit
    mov rdx, %2
    cmp %1, rdx
    setne cl
    shl ecx, %3
    or eax, ecx
    xor ecx, ecx
%endmacro
    KEPT rbx, 0x1111111111111111, 1
    KEPT rbp, 0x2222222222222222, 2
    KEPT r12, 0x3333333333333333, 3
    KEPT r13, 0x4444444444444444, 4
    KEPT r14, 0x5555555555555555, 5
    KEPT r15, 0x6666666666666666, 6
    mov rsp, [saved_rsp]
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
.function:
    jmp r11                                 ; the function's return: jmp thunk
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

;; stack_at_offset.asm: the harness's call with the stack at a chosen page
;; offset, and a stub that reads where a twin's rbp frame falls.
;;
;; Not replicas: these are the harness (src/harness/stack_at_offset.h).

bits 64
default rel

;; uint64_t sb_call_at_stack_offset(uint64_t (*fn)(void *, uint64_t),
;;                                  void *ctx, uint64_t batch, uint64_t offset)
;; Returns fn(ctx, batch), called with rsp at page offset `offset` (its low
;; 4 bits ignored: rsp stays 16-byte aligned at the call), 16 to 4096 + 16
;; bytes below this function's frame.
section .text
align 16
global sb_call_at_stack_offset:function (sb_call_at_stack_offset.end - sb_call_at_stack_offset)
sb_call_at_stack_offset:
    push rbp
    mov rbp, rsp                 ; 16-byte aligned after the push
    mov rax, rdi
    mov rdi, rsi
    mov rsi, rdx
    and ecx, 0xff0
    lea r8, [rsp - 16]
    mov r9, r8
    sub r9, rcx
    and r9d, 0xfff               ; bytes from r8 down to the next address at `offset`
    sub r8, r9
    mov rsp, r8
    call rax
    mov rsp, rbp
    pop rbp
    ret
.end:

;; int sb_frame_probe_stub(void): the twins' prologue (push rbp; mov rbp,
;; rsp, asm/jit_macros.inc JIT_PROLOGUE) that stores rbp in
;; sb_frame_probe_rbp: where a twin called in its place has its rbp frame.
section .bss
align 8
global sb_frame_probe_rbp:data 8
sb_frame_probe_rbp: resq 1

section .text
align 16
global sb_frame_probe_stub:function (sb_frame_probe_stub.end - sb_frame_probe_stub)
sb_frame_probe_stub:
    push rbp
    mov rbp, rsp
    mov [sb_frame_probe_rbp], rbp
    pop rbp
    xor eax, eax
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

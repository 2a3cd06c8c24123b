;; lab_r9_probes.asm: test-only stubs showing which private frame pointer
;; each codegen lab alternative holds (r9, or r12 for callee-saved) after
;; its setup, after a call to a subprog that clobbers r9, and after a call to
;; a private-stack subprog that sets r9 to its own frame pointer; plus an
;; ABI check around any stub. Built with the lab's macros of jit_macros.inc
;; in the v6.18 no-IBT flavour, like asm/lab_alternatives.asm.

%include "jit_macros.inc"

%include "flavours/v6_18_noibt.inc"

section .bss
alignb 64
global sb_lab_probe_fp:data 64
sb_lab_probe_fp: resq 8                     ; [0..2] caller's fp, [3] the private sub's r9

;; A subprog that clobbers r9 and every other caller-saved register, as a
;; helper or kfunc may.
JIT_FUNC sb_lab_probe_clobber_sub, none
    mov r9, -1
    mov rdi, -1
    mov rsi, -1
    mov rdx, -1
    mov rcx, -1
    mov r8, -1
    mov r10, -1
    mov r11, -1
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC

;; A private-stack subprog (mainline setup) recording its r9 in slot 3.
PRIV_AREA sb_lab_probe_sub_area, 128
LAB_FUNC sb_lab_probe_private_sub, mainline, sb_lab_probe_sub_area, 0
    mov [sb_lab_probe_fp + 24], r9
  JIT_MOV32_ZERO eax
  JIT_EXIT
LAB_ENDFUNC

;; sb_lab_probe_<alt>: fp after setup (slot 0), after the clobbering call
;; (slot 1), after the private-stack call (slot 2).
%macro LAB_PROBE 2                          ; alt, fp register
  PRIV_AREA sb_lab_probe_%1_area, 64
LAB_FUNC sb_lab_probe_%1, %1, sb_lab_probe_%1_area, 0
    mov [sb_lab_probe_fp + 0], %2
  LAB_CALL %1, sb_lab_probe_clobber_sub
    mov [sb_lab_probe_fp + 8], %2
  LAB_CALL %1, sb_lab_probe_private_sub
    mov [sb_lab_probe_fp + 16], %2
  JIT_MOV32_ZERO eax
  JIT_EXIT
LAB_ENDFUNC
%endmacro

LAB_PROBE mainline, r9
LAB_PROBE reload, r9
LAB_PROBE callee, r12
LAB_PROBE spill, r9

;; int sb_lab_abi_call(int (*fn)(void), uint64_t r9_in, uint64_t out[7])
;; Calls fn with r9 = r9_in and rbx, rbp, r12-r15 set to known values, then
;; stores r9, rbx, rbp, r12, r13, r14, r15 as fn left them in out[0..6] (the
;; uarch-bench ABI check: a stub must keep the callee-saved registers).
section .text
align 64, int3
global sb_lab_abi_call:function (sb_lab_abi_call.end - sb_lab_abi_call)
sb_lab_abi_call:
    push rbx
    push rbp
    push r12
    push r13
    push r14
    push r15
    push rdx                                ; out
    mov rax, rdi
    mov r9, rsi
    mov rbx, 0x0b0b0b0b0b0b0b0b
    mov rbp, 0x0bbbbbbbbbbbbbbb
    mov r12, 0x1212121212121212
    mov r13, 0x1313131313131313
    mov r14, 0x1414141414141414
    mov r15, 0x1515151515151515
    call rax
    pop rdx
    mov [rdx + 0], r9
    mov [rdx + 8], rbx
    mov [rdx + 16], rbp
    mov [rdx + 24], r12
    mov [rdx + 32], r13
    mov [rdx + 40], r14
    mov [rdx + 48], r15
    pop r15
    pop r14
    pop r13
    pop r12
    pop rbp
    pop rbx
    ret
.end:

section .note.GNU-stack noalloc noexec nowrite progbits

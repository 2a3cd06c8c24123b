;; r9_probes.asm: test-only stubs that show which frame pointer r9 holds.
;; Built with the same macros as the replicas (asm/jit_macros.inc), in the
;; seed 001 flavour (v6.10-era IBT kernel, gs:0x21a00) and in the v6.18
;; no-IBT flavour (kernel-address gs displacement), so the runtime must serve
;; two gs slots at once.

%include "jit_macros.inc"

section .bss
alignb 64
global sb_probe_r9:data 64
sb_probe_r9: resq 8

section .text

;; r9 after calling fn (rdi) with r9 = sentinel (rsi) on entry.
;; uint64_t sb_probe_call_capture_r9(int (*fn)(void), uint64_t sentinel)
global sb_probe_call_capture_r9:function (sb_probe_call_capture_r9.end - sb_probe_call_capture_r9)
sb_probe_call_capture_r9:
    push rbx
    mov r9, rsi
    call rdi
    mov rax, r9
    pop rbx
    ret
.end:

%include "flavours/seed_v2_jul2024_ibt.inc"
PRIV_AREA sb_probe_main_area, 64
PRIV_AREA sb_probe_sub_area, 128

;; A subprog that clobbers r9, as any callee may.
JIT_FUNC sb_probe_clobber_sub, none
    mov r9, -1
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC

;; A private-stack subprog recording its own r9 in slot 3.
JIT_FUNC sb_probe_private_sub, sb_probe_sub_area
    mov [sb_probe_r9 + 24], r9
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC

;; Records r9 after setup (slot 0), after a clobbering call (slot 1) and
;; after a call to another private-stack function (slot 2).
JIT_FUNC sb_probe_private_main, sb_probe_main_area
    mov [sb_probe_r9 + 0], r9
  JIT_CALL sb_probe_clobber_sub
    mov [sb_probe_r9 + 8], r9
  JIT_CALL sb_probe_private_sub
    mov [sb_probe_r9 + 16], r9
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC

%include "flavours/v6_18_noibt.inc"
PRIV_AREA sb_probe_v618_area, 56

;; The same r9 setup in the v6.18 flavour, recording r9 in slot 4.
JIT_FUNC sb_probe_v618_main, sb_probe_v618_area
    mov [sb_probe_r9 + 32], r9
  JIT_CALL sb_probe_clobber_sub
    mov [sb_probe_r9 + 40], r9
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC

section .note.GNU-stack noalloc noexec nowrite progbits

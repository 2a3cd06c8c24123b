;; lab_return_thunks.asm: the return thunks the lab's rethunk and call-depth
;; flavours jump to (emit_return() in arch/x86/net/bpf_jit_comp.c:
;; "jmp x86_return_thunk" when cpu_wants_rethunk()).
;;
;; sb_x86_return_thunk reproduces its_return_thunk of arch/x86/lib/retpoline.S
;; (v6.15+, CONFIG_MITIGATION_ITS): "ret; int3" placed in the upper half of a
;; cache line (".align 64, 0xcc; .skip 32, 0xcc"). That is the thunk this
;; machine's 6.18 kernel uses ("indirect_target_selection: Mitigation:
;; Aligned branch/return thunks"); __x86_return_thunk has the same two bytes.
;;
;; sb_call_depth_return_thunk reproduces call_depth_return_thunk (formerly
;; __x86_return_skl, CONFIG_MITIGATION_CALL_DEPTH_TRACKING, v6.2+): shift the
;; per-CPU depth left by 5; when it reaches zero the RSB may underflow, so
;; stuff it with 16 calls and credit the depth (CREDIT_CALL_DEPTH).

%include "jit_macros.inc"
%include "flavours/v6_18_noibt_calldepth.inc"

;; The depth word lives at gs:[FL_CALL_DEPTH_DISP]; recording it makes
;; sb_percpu_thread_init() map it (and start it at this_cpu_off, a non-zero
;; value: the thunk's RSB stuffing only runs when the shifts empty it).
SB_RECORD_GS_DISP FL_CALL_DEPTH_DISP

;; The displacement, for the C side (sb_lab_call_depth()).
section .rodata
align 8
global sb_lab_call_depth_disp:data 8
sb_lab_call_depth_disp: dq FL_CALL_DEPTH_DISP

JIT_ITS_RETURN_THUNK sb_x86_return_thunk
SB_FUNCTION_RECORD sb_x86_return_thunk, "lab_return_thunk.lst"

SB_FUNC sb_call_depth_return_thunk
    shl qword [gs:abs dword FL_CALL_DEPTH_DISP], 5 ; 65 48 c1 24 25 disp32 05
    jz .stuff                               ; 74 rel8
    ret
    int3
.stuff:
  %rep 16
    call $ + 6                              ; e8 01 00 00 00: one RSB entry
    int3                                    ; (call 2f; int3; 2:)
  %endrep
    add rsp, 16 * 8
    mov qword [gs:abs dword FL_CALL_DEPTH_DISP], -1 ; CREDIT_CALL_DEPTH
    ret
    int3
SB_ENDFUNC
SB_FUNCTION_RECORD sb_call_depth_return_thunk, "lab_call_depth_return_thunk.lst"

section .note.GNU-stack noalloc noexec nowrite progbits

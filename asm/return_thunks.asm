;; return_thunks.asm: user-space replicas of the x86-64 return thunks of the
;; 6.x kernels, where emit_return() (arch/x86/net/bpf_jit_comp.c) sends every
;; JITed return when cpu_wants_rethunk(): "jmp x86_return_thunk", the thunk
;; bugs.c chose at boot. One copy of each, for the twins, the lab and the
;; seed replicas' host flavour.
;;
;; Transcribed from arch/x86/lib/retpoline.S of Linux v6.17 (CONFIG_MITIGATION_
;; RETHUNK, _SRSO, _UNRET_ENTRY, _CALL_DEPTH_TRACKING, _ITS), the same code as
;; in 6.18: every thunk below was compared byte for byte with the text of a
;; running 6.18.44 kernel (read with bpf_probe_read_kernel; rel32 fields
;; aside), with one deliberate difference in call_depth_return_thunk (below).
;; Alignments are the kernel's, so each thunk sits where the kernel's sits in
;; its cache line. The names are the kernel's with an "sb_" prefix.
;;
;;   sb_its_return_thunk          Intel ITS ("Aligned branch/return thunks"):
;;                                ret; int3 in the upper half of a cache line
;;   sb_srso_return_thunk         AMD Zen 1/2 SRSO Safe RET: call srso_safe_ret;
;;   sb_srso_safe_ret             ud2, where srso_safe_ret drops that return
;;   sb_srso_untrain_ret          address (lea rsp, [rsp+8]) and returns, so
;;                                every return is mispredicted on purpose;
;;                                srso_safe_ret lies inside the movabs of
;;                                srso_untrain_ret and starts a cache line
;;   sb_srso_alias_return_thunk   AMD Zen 3/4 SRSO Safe RET, the same with
;;   sb_srso_alias_safe_ret       srso_alias_safe_ret; the kernel puts
;;   sb_srso_alias_untrain_ret    srso_alias_untrain_ret 2 MiB aligned and
;;                                srso_alias_safe_ret at its address | bits 2,
;;                                8, 14, 20 so the two alias in the BTB: the
;;                                copies here are placed that way at run time
;;                                (sb_srso_alias_place(), return_thunks.h)
;;   sb_retbleed_return_thunk     AMD retbleed untrained return thunk: ret; int3
;;   sb_retbleed_untrain_ret      at a cache line start, inside the TEST of
;;                                retbleed_untrain_ret
;;   sb_call_depth_return_thunk   Intel call depth tracking (retbleed=stuff)

%include "jit_macros.inc"
%include "flavours/v6_18_noibt_calldepth.inc"

;; The call depth word lives at gs:[FL_CALL_DEPTH_DISP]; recording it makes
;; sb_percpu_thread_init() map it (and start it at this_cpu_off, a non-zero
;; value: the thunk's RSB stuffing only runs when the shifts empty it).
SB_RECORD_GS_DISP FL_CALL_DEPTH_DISP

;; The displacement, for the C side (sb_lab_call_depth()).
section .rodata
align 8
global sb_lab_call_depth_disp:data 8
sb_lab_call_depth_disp: dq FL_CALL_DEPTH_DISP

%macro THUNK 1
  global %1:function (%1.end - %1)
%1:
%endmacro

;; The record of a thunk (section sb_functions): its golden listing under
;; tests/data, where its calls and rel32 jumps go. Thunks return by
;; themselves: no flavour return thunk in their records.
%define FL_RETHUNK 0
%macro THUNK_RECORD 2-4 none, none        ; symbol, listing, callee, jmp
  SB_FUNCTION_RECORD %1, %2, none, %3, %4
%endmacro

section .text

;; its_return_thunk: ".align 64, 0xcc; .skip 32, 0xcc", ret; int3.
align 64, int3
times 32 int3
THUNK sb_its_return_thunk
    ret                                     ; c3
    int3                                    ; cc
.end:
THUNK_RECORD sb_its_return_thunk, "thunk_its_return_thunk.lst"

;; srso_untrain_ret: ".align 64; .skip 64 - (srso_safe_ret -
;; srso_untrain_ret), 0xcc", so srso_safe_ret starts a cache line.
align 64, int3
times 64 - 2 int3
THUNK sb_srso_untrain_ret
    db 0x48, 0xb8                           ; movabs rax, 0xccccc30824648d48 ...
global sb_srso_safe_ret:function (sb_srso_safe_ret.end - sb_srso_safe_ret)
sb_srso_safe_ret:
    lea rsp, [rsp + 8]                      ; 48 8d 64 24 08
    ret                                     ; c3
    int3                                    ; cc
    int3                                    ; cc (end of movabs)
.end:
    lfence                                  ; 0f ae e8
    call sb_srso_safe_ret                   ; e8 rel32
    ud2                                     ; 0f 0b
sb_srso_untrain_ret.end:
THUNK_RECORD sb_srso_untrain_ret, "thunk_srso_untrain_ret.lst", sb_srso_safe_ret

;; srso_return_thunk: SYM_CODE_START (16-byte function alignment).
align 16, int3
THUNK sb_srso_return_thunk
    call sb_srso_safe_ret                   ; e8 rel32
    ud2                                     ; 0f 0b
.end:
THUNK_RECORD sb_srso_return_thunk, "thunk_srso_return_thunk.lst", sb_srso_safe_ret

;; retbleed_untrain_ret: ".align 64; .skip 64 - (retbleed_return_thunk -
;; retbleed_untrain_ret), 0xcc": the RET starts a cache line.
align 64, int3
times 64 - 1 int3
THUNK sb_retbleed_untrain_ret
    db 0xf6                                 ; test bl, 0xcc (with the next 2 bytes)
global sb_retbleed_return_thunk:function (sb_retbleed_return_thunk.end - sb_retbleed_return_thunk)
sb_retbleed_return_thunk:
    ret                                     ; c3
    int3                                    ; cc
.end:
    lfence                                  ; 0f ae e8
    jmp short sb_retbleed_return_thunk      ; eb f9
    int3                                    ; cc
sb_retbleed_untrain_ret.end:
THUNK_RECORD sb_retbleed_untrain_ret, "thunk_retbleed_untrain_ret.lst", none, sb_retbleed_return_thunk

;; srso_alias_untrain_ret (.text..__x86.rethunk_untrain) and
;; srso_alias_safe_ret, srso_alias_return_thunk (.text..__x86.rethunk_safe):
;; SYM_CODE_START_NOALIGN. These are the templates; sb_srso_alias_place()
;; copies them to the kernel's addresses (2 MiB aligned, | 0x104104).
align 64, int3
THUNK sb_srso_alias_untrain_ret
    xchg ax, ax                             ; 66 90 (ASM_NOP2)
    lfence                                  ; 0f ae e8
    jmp strict near sb_srso_alias_return_thunk ; e9 rel32
.end:
THUNK_RECORD sb_srso_alias_untrain_ret, "thunk_srso_alias_untrain_ret.lst", none, sb_srso_alias_return_thunk
align 64, int3
THUNK sb_srso_alias_safe_ret
    lea rsp, [rsp + 8]                      ; 48 8d 64 24 08
    ret                                     ; c3
    int3                                    ; cc
.end:
THUNK_RECORD sb_srso_alias_safe_ret, "thunk_srso_alias_safe_ret.lst"
THUNK sb_srso_alias_return_thunk
    call sb_srso_alias_safe_ret             ; e8 rel32
    ud2                                     ; 0f 0b
.end:
THUNK_RECORD sb_srso_alias_return_thunk, "thunk_srso_alias_return_thunk.lst", sb_srso_alias_safe_ret

;; call_depth_return_thunk (formerly __x86_return_skl): shift the per-CPU
;; depth left by 5; when it reaches zero the RSB may underflow, so stuff it
;; with 16 calls and credit the depth (CREDIT_CALL_DEPTH). The kernel
;; (v6.15+) addresses __x86_call_depth RIP-relative, "shl qword
;; gs:[rip+disp32], 5" (65 48 c1 25 disp32 05); this copy uses the absolute
;; gs:[disp32] form (65 48 c1 24 25 disp32 05, one byte longer, so the 16
;; calls sit one byte later) so that copies of it can move without
;; re-aiming a data displacement. Same work, same instructions.
align 64, int3
THUNK sb_call_depth_return_thunk
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
.end:
THUNK_RECORD sb_call_depth_return_thunk, "thunk_call_depth_return_thunk.lst"

section .note.GNU-stack noalloc noexec nowrite progbits

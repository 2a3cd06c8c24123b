;; lab_alternatives.asm: the codegen lab. Candidate private-stack
;; sequences for the x86-64 BPF JIT, next to mainline and a no-private-stack
;; baseline, in two shapes:
;;
;;   per-run  sb_lab_<alt>_<ret>_perrun: the main prog of seed 001 (v2 patch,
;;            July 2024): hits++ and three calls of a do-nothing subprog,
;;            called once per iteration (as the fentry prog the batched
;;            trigger of seed 004 runs once per loop iteration).
;;   in-loop  sb_lab_<alt>_<ret>_inloop: one program holding the loop, the
;;            frame pointer set up once per run: i (BPF R6, rbx) counts up to
;;            n (BPF R7, r13) read from sb_lab_<alt>_<ret>_inloop_batch_iters,
;;            each iteration does hits++ and three calls of the subprog.
;;
;; Kernel: v6.18 codegen without IBT (nop3 padding, relative per-CPU offsets,
;; gs:0xffffffff83b0c028), the flavour of this project's machines, with five
;; kinds of return (<ret>): ret, rethunk (jmp its_return_thunk, as this 6.18
;; Xeon VM's ITS mitigation makes the JIT emit), calldepth (call depth
;; tracking accounting before every call + call_depth_return_thunk), srso
;; and srsoalias (jmp srso_return_thunk / srso_alias_return_thunk, AMD's
;; Safe RET: every return mispredicted on purpose).
;; The subprog is the seed 001 "func1" with no stack: since v6.13 each
;; function decides on its own and a 0-byte stack keeps the rbp frame, so it
;; has no r9 setup (the seed 000 "hybrid" case).
;;
;; Alternatives (<alt>), described in docs/codegen-lab.md:
;;   baseline     no private stack (bpf_jit_comp.c without priv_frame_ptr)
;;   mainline     v6.13+ do_jit(): emit_priv_frame_ptr() after the callee
;;                pushes, push r9 / pop r9 around every call
;;   reload       no push/pop; movabs r9 + add r9, gs:[...] after every call
;;   callee       the frame pointer in r12 (push r12 in the prologue, where
;;                arena's push_r12() goes; pop r12 before leave); calls bare
;;   spill        sub rsp, 8; mov [rbp-8], r9 once after the setup; calls
;;                followed by mov r9, [rbp-8]
;;   control      the baseline's bytes at other addresses (placement control)
;; Every byte comes from the macros of jit_macros.inc.

%include "jit_macros.inc"

extern sb_its_return_thunk, sb_call_depth_return_thunk ; return_thunks.asm
extern sb_srso_return_thunk, sb_srso_alias_return_thunk

;; ---------------------------------------------------------------------------
;; What each alternative is (<alt>): its name, description, the hand listing
;; it reproduces, where its frame pointer lives, and its costs, counted from
;; the hand listings tests/data/lab_*.lst (ret flavour):
;;   MAIN   instructions of the per-run main prog without its callees, call
;;          sites included
;;   CALL   instructions per call site beside the call (push/pop, reload, fill)
;;   FIXED  in-loop instructions outside the iterations: the baseline's 16
;;          (prologue 4, pushes 2, loop setup 5, exit 5) plus the setup
;;   PRO, SITE  code bytes added against the baseline: prologue + epilogue,
;;          per call site
;; ---------------------------------------------------------------------------
%define LAB_ENUM_baseline 0                 ; enum sb_lab_alt (include/stubbench/lab_variants.h)
%define LAB_ENUM_mainline 1
%define LAB_ENUM_reload 2
%define LAB_ENUM_callee 3
%define LAB_ENUM_spill 4
%define LAB_ENUM_control 5
%define LAB_NAME_baseline "baseline"
%define LAB_NAME_mainline "mainline"
%define LAB_NAME_reload "reload"
%define LAB_NAME_callee "callee-saved"
%define LAB_NAME_spill "spill-once"
%define LAB_NAME_control "placement-control"
%define LAB_DESC_baseline "no private stack (rbp frame)"
%define LAB_DESC_control "placement control: the baseline's bytes at other code and data addresses"
%define LAB_DESC_mainline "mainline: r9 set up once, push r9/pop r9 around every call"
%define LAB_DESC_reload "reload: movabs r9 + add r9, gs:[this_cpu_off] again after every call, no push/pop"
%define LAB_DESC_callee "callee-saved: frame pointer in r12 (push r12/pop r12 once), bare calls"
%define LAB_DESC_spill "spill once: mov [rbp-8], r9 once (sub rsp, 8), mov r9, [rbp-8] after every call"
%define LAB_SIZE_baseline "code: +0 B/prologue, +0 B/call site"
%define LAB_SIZE_control LAB_SIZE_baseline
%define LAB_SIZE_mainline "code: +19 B/prologue, +4 B/call site"
%define LAB_SIZE_reload "code: +19 B/prologue, +19 B/call site"
%define LAB_SIZE_callee "code: +23 B/prologue+epilogue, +0 B/call site (+1 B per r12-based stack access)"
%define LAB_SIZE_spill "code: +30 B/prologue (7 of them sub rsp, 8), +4 B/call site, 8 B of kernel stack"
%define LAB_LST_baseline "baseline"         ; tests/data/lab_<this>_<shape>.lst
%define LAB_LST_mainline "mainline"
%define LAB_LST_reload "reload"
%define LAB_LST_callee "callee"
%define LAB_LST_spill "spill"
%define LAB_LST_control "baseline"          ; the baseline's bytes
%define LAB_CODE_baseline baseline          ; which code the alternative emits
%define LAB_CODE_mainline mainline
%define LAB_CODE_reload reload
%define LAB_CODE_callee callee
%define LAB_CODE_spill spill
%define LAB_CODE_control baseline
%define LAB_FPREG_baseline 0
%define LAB_FPREG_mainline 9
%define LAB_FPREG_reload 9
%define LAB_FPREG_callee 12
%define LAB_FPREG_spill 9
%define LAB_FPREG_control 0
%define LAB_MAIN_baseline 14
%define LAB_MAIN_mainline 22
%define LAB_MAIN_reload 22
%define LAB_MAIN_callee 18
%define LAB_MAIN_spill 21
%define LAB_MAIN_control 14
%define LAB_CALL_baseline 0
%define LAB_CALL_mainline 2
%define LAB_CALL_reload 2
%define LAB_CALL_callee 0
%define LAB_CALL_spill 1
%define LAB_CALL_control 0
%define LAB_FIXED_baseline 16
%define LAB_FIXED_mainline 18
%define LAB_FIXED_reload 18
%define LAB_FIXED_callee 20
%define LAB_FIXED_spill 20
%define LAB_FIXED_control 16
%define LAB_PRO_baseline 0
%define LAB_PRO_mainline 19                 ; movabs r9 (10) + add r9, gs: (9)
%define LAB_PRO_reload 19
%define LAB_PRO_callee 23                   ; push r12, movabs r12, add r12, gs:, pop r12
%define LAB_PRO_spill 30                    ; sub rsp, 8 (7) + setup (19) + mov [rbp-8], r9 (4)
%define LAB_PRO_control 0
%define LAB_SITE_baseline 0
%define LAB_SITE_mainline 4                 ; push r9 + pop r9
%define LAB_SITE_reload 19
%define LAB_SITE_callee 0
%define LAB_SITE_spill 4                    ; mov r9, [rbp-8]
%define LAB_SITE_control 0

;; What each kind of return (<ret>, the flavour) adds: instructions of the
;; subprog, of the caller's own return beyond ret, per call site, per run
;; (the call-depth entry); code bytes per return and per call site.
%define LAB_RET_ENUM_ret 0                  ; enum sb_lab_return (include/stubbench/lab_variants.h)
%define LAB_RET_ENUM_rethunk 1
%define LAB_RET_ENUM_calldepth 2
%define LAB_RET_ENUM_srso 3
%define LAB_RET_ENUM_srsoalias 4
%define LAB_RSUF_ret ""
%define LAB_RSUF_rethunk "-rethunk"
%define LAB_RSUF_calldepth "-calldepth"
%define LAB_RSUF_srso "-srso"
%define LAB_RSUF_srsoalias "-srso-alias"
%define LAB_FLSIZE_ret ""
%define LAB_FLSIZE_rethunk "; rethunk: +4 B/return"
%define LAB_FLSIZE_calldepth "; call depth: +4 B/return, +10 B/call site"
%define LAB_FLSIZE_srso "; SRSO Safe RET: +4 B/return"
%define LAB_FLSIZE_srsoalias "; SRSO alias Safe RET: +4 B/return"
%define LAB_SUB_INSNS_ret 7
%define LAB_SUB_INSNS_rethunk 8
%define LAB_SUB_INSNS_calldepth 10
%define LAB_SUB_INSNS_srso 10                ; jmp; call safe_ret; lea; ret
%define LAB_SUB_INSNS_srsoalias 10
%define LAB_RET_INSNS_ret 0
%define LAB_RET_INSNS_rethunk 1
%define LAB_RET_INSNS_calldepth 3
%define LAB_RET_INSNS_srso 3
%define LAB_RET_INSNS_srsoalias 3
%define LAB_SITE_INSNS_ret 0
%define LAB_SITE_INSNS_rethunk 0
%define LAB_SITE_INSNS_calldepth 1
%define LAB_SITE_INSNS_srso 0
%define LAB_SITE_INSNS_srsoalias 0
%define LAB_ENTRY_INSNS_ret 0
%define LAB_ENTRY_INSNS_rethunk 0
%define LAB_ENTRY_INSNS_calldepth 2
%define LAB_ENTRY_INSNS_srso 0
%define LAB_ENTRY_INSNS_srsoalias 0
%define LAB_RET_BYTES_ret 0
%define LAB_RET_BYTES_rethunk 4             ; e9 rel32 instead of c3
%define LAB_RET_BYTES_calldepth 4
%define LAB_RET_BYTES_srso 4
%define LAB_RET_BYTES_srsoalias 4
%define LAB_SITE_FL_BYTES_ret 0
%define LAB_SITE_FL_BYTES_rethunk 0
%define LAB_SITE_FL_BYTES_calldepth 10      ; sar qword gs:[__x86_call_depth], 5
%define LAB_SITE_FL_BYTES_srso 0
%define LAB_SITE_FL_BYTES_srsoalias 0
%define LAB_LISTING_ret(lst) %strcat("codegen lab, hand listing tests/data/lab_", lst, ".lst")
%define LAB_LISTING_rethunk(lst) %strcat("codegen lab: hand listing lab_", lst, ".lst with emit_return()'s jmp x86_return_thunk")
%define LAB_LISTING_calldepth(lst) %strcat("codegen lab: hand listing lab_", lst, ".lst with x86_call_depth_emit_accounting() and jmp to call_depth_return_thunk")
%define LAB_LISTING_srso(lst) %strcat("codegen lab: hand listing lab_", lst, ".lst with emit_return()'s jmp to srso_return_thunk")
%define LAB_LISTING_srsoalias(lst) %strcat("codegen lab: hand listing lab_", lst, ".lst with emit_return()'s jmp to srso_alias_return_thunk")
;; Hand listings of other flavours than ret, in tests/data.
%define LAB_FILE_mainline_rethunk_perrun "lab_mainline_rethunk_perrun.lst"
%define LAB_FILE_mainline_calldepth_perrun "lab_mainline_calldepth_perrun.lst"
%define LAB_FILE_spill_calldepth_inloop "lab_spill_calldepth_inloop.lst"
%define LAB_FILE_reload_calldepth_inloop "lab_reload_calldepth_inloop.lst"

;; ---------------------------------------------------------------------------
;; Generators
;; ---------------------------------------------------------------------------

;; Bytes of one call site (for the in-loop branch sizes, as do_jit() picks
;; the jump forms from the distances).
%macro LAB_CALL_SITE_BYTES 1                ; alt -> LAB_CS
  %ifidn %1, mainline
    %assign LAB_CS 9
  %elifidn %1, reload
    %assign LAB_CS 24
  %elifidn %1, spill
    %assign LAB_CS 9
  %else
    %assign LAB_CS 5
  %endif
  %if FL_CALL_DEPTH
    %assign LAB_CS LAB_CS + 10
  %endif
%endmacro

;; Per-run main prog: hits++; func1(); func1(); func1(); return 0;
%macro LAB_PERRUN 4                         ; alt, name, sub, counter
  SB_COUNTER %4
  %ifnidn %1, baseline
    PRIV_AREA %2_area, 64
  %endif
LAB_FUNC %2, %1, %2_area, 0
  JIT_INC_COUNTER %4
  LAB_CALL %1, %3
  LAB_CALL %1, %3
  LAB_CALL %1, %3
  JIT_MOV32_ZERO eax
  JIT_EXIT
LAB_ENDFUNC
%endmacro

;; In-loop program:
;;   n = *batch_iters; for (i = 0; i < n; i++) { hits++; func1() x 3; }
;; as do_jit() emits it: R6 = i in rbx, R7 = n in r13 (callee-saved, live
;; across the calls, so push_callee_regs() saves rbx and r13).
%macro LAB_INLOOP 5                         ; alt, name, sub, counter, batch_iters
  SB_COUNTER %4
  SB_BATCH_ITERS %5
  %ifnidn %1, baseline
    PRIV_AREA %2_area, 64
  %endif
  LAB_CALL_SITE_BYTES %1
  ;; loop body: hits++ (22) + 3 call sites + add rbx,1 (4) + cmp rbx,r13 (3)
  %assign LAB_BODY 22 + 3 * LAB_CS + 7
  %if LAB_BODY + 2 <= 128
    %assign LAB_JB 2
  %else
    %assign LAB_JB 6
  %endif
LAB_FUNC %2, %1, %2_area, 1
    mov rdi, strict qword %5                ; 48 bf imm64: r1 = &batch_iters
    mov r13, [byte rdi+0]                   ; 4c 8b 6f 00: r7 = *(u64 *)(r1 + 0)
    xor ebx, ebx                            ; 31 db: r6 = 0
    test r13, r13                           ; 4d 85 ed: if r7 == 0 goto exit
  %if LAB_BODY + LAB_JB <= 123              ; is_imm8_jmp_offset()
    jz short %%exit                         ; 74 rel8
  %else
    jz near %%exit                          ; 0f 84 rel32
  %endif
%%loop:
  JIT_INC_COUNTER %4
  LAB_CALL %1, %3
  LAB_CALL %1, %3
  LAB_CALL %1, %3
    add rbx, byte 1                         ; 48 83 c3 01: r6 += 1
    cmp rbx, r13                            ; 4c 39 eb
  %if LAB_JB == 2
    jb short %%loop                         ; 72 rel8: if r6 < r7 goto loop
  %else
    jb near %%loop                          ; 0f 82 rel32
  %endif
%%exit:
  JIT_MOV32_ZERO eax
  JIT_EXIT
LAB_ENDFUNC
%endmacro

;; Call depth tracking: the caller of a BPF program accounts the call (the
;; trampoline's emit_rsb_call() before "call bpf_func", or the indirect call
;; thunk of BPF_PROG_TEST_RUN). This entry does that for the harness, then
;; jumps to the program, whose exit goes through call_depth_return_thunk:
;; sar on the way in, shl on the way out, the depth stays balanced.
%macro LAB_CALL_DEPTH_ENTRY 2               ; entry name, program
SB_FUNC %1
  JIT_CALL_DEPTH_ACCOUNT
    jmp near %2                             ; e9 rel32
SB_ENDFUNC
%endmacro

;; The record of one lab variant: its struct sb_variant (SB_VARIANT) and its
;; struct sb_lab_info (include/stubbench/lab_variants.h), each pointing at the other.
%macro LAB_RECORD 3                         ; alt, ret, shape (perrun | inloop)
  %define %%prog sb_lab_%1_%2_%3
  %ifidn %2, calldepth
    %define V_ENTRY sb_lab_%1_%2_%3_entry
  %else
    %define V_ENTRY %%prog
  %endif
  %define V_PROGRAM %%prog
  %define V_FAMILY "lab"
  %define V_COUNTER sb_lab_%1_%2_%3_hits
  %define V_CALLEE sb_lab_sub_%2
  %ifnidn LAB_CODE_%1, baseline
    %define V_AREA sb_lab_%1_%2_%3_area
  %endif
  %ifidn %3, perrun
    %define V_NAME %strcat("lab-", LAB_NAME_%1, LAB_RSUF_%2, "-perrun")
    %define V_SEED_NAME %strcat(LAB_NAME_%1, LAB_RSUF_%2)
    %define V_SHAPE "per-run"
    %define V_DESCRIPTION %strcat(LAB_DESC_%1, "; per-run; ", LAB_SIZE_%1, LAB_FLSIZE_%2)
    %define V_BATCH_ITERS 0
    %assign %%per_iter LAB_MAIN_%1 + 3 * (LAB_SITE_INSNS_%2 + LAB_SUB_INSNS_%2) + LAB_RET_INSNS_%2 + LAB_ENTRY_INSNS_%2
    %assign %%fixed 0
    %assign %%in_loop 0
  %else
    %define V_NAME %strcat("lab-", LAB_NAME_%1, LAB_RSUF_%2, "-inloop")
    %define V_SEED_NAME %strcat(LAB_NAME_%1, LAB_RSUF_%2, "-inloop")
    %define V_SHAPE "in-loop"
    %define V_DESCRIPTION %strcat(LAB_DESC_%1, "; in-loop; ", LAB_SIZE_%1, LAB_FLSIZE_%2)
    %define V_BATCH_ITERS sb_lab_%1_%2_inloop_batch_iters
    ;; one iteration: hits++ (4), three call sites, add/cmp/jb (3)
    %assign %%per_iter 4 + 3 * (1 + LAB_CALL_%1 + LAB_SITE_INSNS_%2 + LAB_SUB_INSNS_%2) + 3
    %assign %%fixed LAB_FIXED_%1 + LAB_RET_INSNS_%2 + LAB_ENTRY_INSNS_%2
    %assign %%in_loop 1
  %endif
  %define V_INSNS_PER_CALL %%per_iter
  %define V_INSNS_FIXED %%fixed
  %define V_LISTING LAB_LISTING_%2(%strcat(LAB_LST_%1, "_", %str(%3)))
  %ifidn %2, ret
    %define V_LISTING_FILE %strcat("lab_", LAB_LST_%1, "_", %str(%3), ".lst")
  %elifdef LAB_FILE_%1_%2_%3
    %define V_LISTING_FILE LAB_FILE_%1_%2_%3
  %endif
  %define V_FAMILY_INFO %%info
  SB_VARIANT %%variant
  [section .rodata]
  align 8
%%info:                                     ; struct sb_lab_info
  dq %%variant                              ; variant
  dd LAB_ENUM_%1, LAB_RET_ENUM_%2, %%in_loop ; alt, ret, in_loop
  dd LAB_PRO_%1, LAB_SITE_%1                ; prologue_bytes, call_site_bytes
  dd LAB_RET_BYTES_%2, LAB_SITE_FL_BYTES_%2 ; flavour_return_bytes, flavour_call_bytes
  dd %%fixed                                ; insns_fixed
  dq %%prog                                 ; program
  %ifidn LAB_CODE_%1, baseline
    dq 0                                    ; area
  %else
    dq sb_lab_%1_%2_%3_area
  %endif
  dd LAB_FPREG_%1, 0                        ; fp_reg
  __?SECT?__
%endmacro

;; One alternative in one return flavour: both shapes and their records.
%macro LAB_ONE 2                            ; alt, ret
  LAB_PERRUN LAB_CODE_%1, sb_lab_%1_%2_perrun, sb_lab_sub_%2, sb_lab_%1_%2_perrun_hits
  LAB_INLOOP LAB_CODE_%1, sb_lab_%1_%2_inloop, sb_lab_sub_%2, sb_lab_%1_%2_inloop_hits, sb_lab_%1_%2_inloop_batch_iters
  %if FL_CALL_DEPTH
    LAB_CALL_DEPTH_ENTRY sb_lab_%1_%2_perrun_entry, sb_lab_%1_%2_perrun
    SB_FUNCTION_RECORD sb_lab_%1_%2_perrun_entry, "lab_calldepth_entry.lst", none, none, sb_lab_%1_%2_perrun
    LAB_CALL_DEPTH_ENTRY sb_lab_%1_%2_inloop_entry, sb_lab_%1_%2_inloop
    SB_FUNCTION_RECORD sb_lab_%1_%2_inloop_entry, "lab_calldepth_entry.lst", none, none, sb_lab_%1_%2_inloop
  %endif
  LAB_RECORD %1, %2, perrun
  LAB_RECORD %1, %2, inloop
%endmacro

;; One return flavour: its subprog (func1() { return 0; } without a private
;; stack), then every alternative and the placement control (the
;; baseline's bytes again, at other code and data addresses: its
;; difference to the baseline is what placement alone does to a
;; measurement, the noise floor of every other comparison).
%macro LAB_FLAVOUR 2                        ; ret, listing of the subprog
JIT_FUNC sb_lab_sub_%1, none
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC
  SB_FUNCTION_RECORD sb_lab_sub_%1, %2
  LAB_ONE baseline, %1
  LAB_ONE mainline, %1
  LAB_ONE reload, %1
  LAB_ONE callee, %1
  LAB_ONE spill, %1
  LAB_ONE control, %1
%endmacro

;; ---------------------------------------------------------------------------
;; The stubs, one return flavour after the other
;; ---------------------------------------------------------------------------
%include "flavours/v6_18_noibt.inc"
LAB_FLAVOUR ret, "lab_sub_ret.lst"
%include "flavours/v6_18_noibt_rethunk.inc"
LAB_FLAVOUR rethunk, "lab_sub_rethunk.lst"
%include "flavours/v6_18_noibt_calldepth.inc"
LAB_FLAVOUR calldepth, "lab_sub_rethunk.lst"    ; the same bytes, another thunk
%include "flavours/v6_18_noibt_srso.inc"
LAB_FLAVOUR srso, "lab_sub_rethunk.lst"
%include "flavours/v6_18_noibt_srso_alias.inc"
LAB_FLAVOUR srsoalias, "lab_sub_rethunk.lst"

section .note.GNU-stack noalloc noexec nowrite progbits

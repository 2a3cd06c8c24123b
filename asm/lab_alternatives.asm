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
;; gs:0xffffffff83b0c028), the flavour of this project's machines, with three
;; kinds of return (<ret>): ret, rethunk (jmp its_return_thunk, as this 6.18
;; Xeon VM's ITS mitigation makes the JIT emit) and calldepth (call depth
;; tracking accounting before every call + call_depth_return_thunk).
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

extern sb_x86_return_thunk, sb_call_depth_return_thunk ; lab_return_thunks.asm

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
  %define SB_LAB_AREA %2_area
SB_FUNC %2
  JIT_PROLOGUE
  LAB_PROLOGUE %1
  LAB_FP_SETUP %1, %2_area
  JIT_INC_COUNTER %4
  LAB_CALL %1, %3
  LAB_CALL %1, %3
  LAB_CALL %1, %3
    xor eax, eax                            ; 31 c0
  LAB_EPILOGUE %1
    leave                                   ; c9
  JIT_RET_FLAVOUR
SB_ENDFUNC
  %undef SB_LAB_AREA
%endmacro

;; In-loop program:
;;   n = *batch_iters; for (i = 0; i < n; i++) { hits++; func1() x 3; }
;; as do_jit() emits it: R6 = i in rbx, R7 = n in r13 (callee-saved, live
;; across the calls, so push_callee_regs() saves rbx and r13).
%macro LAB_INLOOP 5                         ; alt, name, sub, counter, batch_iters
  SB_COUNTER %4
  [section .data]
  alignb 64
  global %5:data 8
%5: dq 1                                    ; one iteration until the harness sets it
  __?SECT?__
  %ifnidn %1, baseline
    PRIV_AREA %2_area, 64
  %endif
  %define SB_LAB_AREA %2_area
  LAB_CALL_SITE_BYTES %1
  ;; loop body: hits++ (22) + 3 call sites + add rbx,1 (4) + cmp rbx,r13 (3)
  %assign LAB_BODY 22 + 3 * LAB_CS + 7
  %if LAB_BODY + 2 <= 128
    %assign LAB_JB 2
  %else
    %assign LAB_JB 6
  %endif
SB_FUNC %2
  JIT_PROLOGUE
  LAB_PROLOGUE %1
  JIT_PUSH_RBX_R13
  LAB_FP_SETUP %1, %2_area
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
    xor eax, eax                            ; 31 c0
  JIT_POP_R13_RBX
  LAB_EPILOGUE %1
    leave                                   ; c9
  JIT_RET_FLAVOUR
SB_ENDFUNC
  %undef SB_LAB_AREA
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

;; One return flavour: its subprog, then every alternative in both shapes.
%macro LAB_FLAVOUR 1                        ; ret | rethunk | calldepth
  FLAVOUR_V6_18_NOIBT_RETURN %1
  LAB_SUB sb_lab_sub_%1
  LAB_ALL_ALTS %1
%endmacro

%macro LAB_ONE 2                            ; alt, ret
  LAB_PERRUN %1, sb_lab_%1_%2_perrun, sb_lab_sub_%2, sb_lab_%1_%2_perrun_hits
  LAB_INLOOP %1, sb_lab_%1_%2_inloop, sb_lab_sub_%2, sb_lab_%1_%2_inloop_hits, sb_lab_%1_%2_inloop_batch_iters
  %if FL_CALL_DEPTH
    LAB_CALL_DEPTH_ENTRY sb_lab_%1_%2_perrun_entry, sb_lab_%1_%2_perrun
    LAB_CALL_DEPTH_ENTRY sb_lab_%1_%2_inloop_entry, sb_lab_%1_%2_inloop
  %endif
%endmacro

%macro LAB_ALL_ALTS 1                       ; ret
  LAB_ONE baseline, %1
  LAB_ONE mainline, %1
  LAB_ONE reload, %1
  LAB_ONE callee, %1
  LAB_ONE spill, %1
  LAB_CONTROL %1
%endmacro

;; Placement control: the baseline's bytes again, at other code and data
;; addresses. Its difference to the baseline is what placement alone does to
;; a measurement on this machine: the noise floor of every other comparison.
%macro LAB_CONTROL 1                        ; ret
  LAB_PERRUN baseline, sb_lab_control_%1_perrun, sb_lab_sub_%1, sb_lab_control_%1_perrun_hits
  LAB_INLOOP baseline, sb_lab_control_%1_inloop, sb_lab_sub_%1, sb_lab_control_%1_inloop_hits, sb_lab_control_%1_inloop_batch_iters
  %if FL_CALL_DEPTH
    LAB_CALL_DEPTH_ENTRY sb_lab_control_%1_perrun_entry, sb_lab_control_%1_perrun
    LAB_CALL_DEPTH_ENTRY sb_lab_control_%1_inloop_entry, sb_lab_control_%1_inloop
  %endif
%endmacro

;; ---------------------------------------------------------------------------
;; The stubs
;; ---------------------------------------------------------------------------
LAB_FLAVOUR ret
LAB_FLAVOUR rethunk
LAB_FLAVOUR calldepth

section .note.GNU-stack noalloc noexec nowrite progbits

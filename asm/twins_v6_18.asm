;; twins_v6_18.asm: replica twins of the programs of
;; bench/bpf/private_stack_shapes.bpf.c as this machine's kernel JITs them,
;; so every `stubbench kernel` measurement has a user-space twin of the same
;; shape and flavour.
;;
;; Kernel: Linux 6.18 (6.18.44), x86-64, no IBT, CONFIG_MITIGATION_ITS
;; active: nop3 padding, gs:[0xffffffff83b0e028] (relative per-CPU offsets,
;; v6.15+), returns through "jmp its_return_thunk", callee-saved pushes of
;; BPF r6-r8 (rbx, r13, r14). Listings reproduced byte for byte, apart from
;; imm64, rel32 and the gs disp32: tests/data/jit_v6_18_<prog>.<func>.lst,
;; taken with `stubbench kernel --dump-jit` on 29 Nov 2026.
;;
;; Variants (stack sizes; v6.13+ gives a function a private stack when
;; round_up(depth, 16) >= 64): baseline 8 bytes everywhere, private 64 in
;; "prog" and subprog, hybrid 64 in "prog" and 8 in the subprog.
;;
;; Shapes:
;;   per-run  run_<v> (driver) -> prog_<v> (hits++, 3 calls) -> sub: the
;;            harness calls sb_twin_run_<v>_prog `batch` times, as run_<v>
;;            calls prog_<v> batch_iters times; the twins placed like a load
;;            (src/kernel/twin_placement.c) run a copy of the driver twin
;;            instead, which reads sb_twin_batch_iters as run_<v> does.
;;   in-loop  loop_<v> holds the loop: the harness sets
;;            sb_twin_loop_batch_iters and calls sb_twin_loop_<v> once.

%include "jit_macros.inc"
%include "flavours/v6_18_noibt_its.inc"

extern sb_its_return_thunk               ; return_thunks.asm

;; The listing of kernel function func of program prog, in tests/data.
%define TWIN_LST(prog, func) %strcat("jit_v6_18_", %str(prog), ".", %str(func), ".lst")

;; The programs' globals: batch_iters (.rodata, u32 read) and the counters.
  [section .data]
  align 8
  global sb_twin_batch_iters:data 8
  global sb_twin_loop_batch_iters:data 8
sb_twin_batch_iters: dq 1                 ; one iteration until set (the BPF default)
sb_twin_loop_batch_iters: dq 1            ; the harness sets it to the batch
  __?SECT?__

SB_COUNTER sb_twin_hits_baseline
SB_COUNTER sb_twin_hits_private
SB_COUNTER sb_twin_hits_hybrid
SB_COUNTER sb_twin_loop_hits_baseline
SB_COUNTER sb_twin_loop_hits_private
SB_COUNTER sb_twin_loop_hits_hybrid

;; One area per private-stack function, as the kernel allocates one per
;; JITed function (64 bytes of stack each).
PRIV_AREA sb_twin_run_private_prog_area, 64
PRIV_AREA sb_twin_run_private_sub_area, 64
PRIV_AREA sb_twin_run_hybrid_prog_area, 64
PRIV_AREA sb_twin_loop_private_area, 64
PRIV_AREA sb_twin_loop_private_sub_area, 64
PRIV_AREA sb_twin_loop_hybrid_area, 64
;; The placed twins' frames (src/kernel/twin_placement.c): a page and a
;; frame each for the entry and its subprog, so that a frame can sit at any
;; page offset, as the kernel's private stack of each load does.
PRIV_AREA sb_twin_placed_entry_area, 4096 + 64
PRIV_AREA sb_twin_placed_sub_area, 4096 + 64

;; ---------------------------------------------------------------------------
;; Subprogs: sub_small (8 bytes, rbp frame) and sub_big (64 bytes, private).
;; BPF: *(u64 *)(r10 - N) = r1; r1 = *(u64 *)(r10 - N); exit
;; ---------------------------------------------------------------------------

;; tests/data/jit_v6_18_run_baseline.sub_small.lst (0x21 bytes); the same
;; bytes are run_hybrid's, loop_baseline's and loop_hybrid's sub_small.
%macro TWIN_SUB_SMALL 2                     ; name, kernel prog
JIT_FUNC %1, none, 8
  JIT_STX_FP -8, rdi
  JIT_LDX_FP rdi, -8
  JIT_EXIT
JIT_ENDFUNC
SB_FUNCTION_RECORD %1, TWIN_LST(%2, sub_small), none, none, none, %2, sub_small
%endmacro

;; tests/data/jit_v6_18_run_private.sub_big.lst (0x2d bytes); the same
;; bytes are loop_private's sub_big.
%macro TWIN_SUB_BIG 3                       ; name, area, kernel prog
JIT_FUNC %1, %2, 64
  JIT_STX_FP -0x40, rdi
  JIT_LDX_FP rdi, -0x40
  JIT_EXIT
JIT_ENDFUNC
SB_FUNCTION_RECORD %1, TWIN_LST(%3, sub_big), %2, none, none, %3, sub_big
%endmacro

TWIN_SUB_SMALL sb_twin_run_baseline_sub, run_baseline
TWIN_SUB_BIG   sb_twin_run_private_sub, sb_twin_run_private_sub_area, run_private
TWIN_SUB_SMALL sb_twin_run_hybrid_sub, run_hybrid
TWIN_SUB_SMALL sb_twin_loop_baseline_sub, loop_baseline
TWIN_SUB_BIG   sb_twin_loop_private_sub, sb_twin_loop_private_sub_area, loop_private
TWIN_SUB_SMALL sb_twin_loop_hybrid_sub, loop_hybrid

;; ---------------------------------------------------------------------------
;; per-run "prog": x = *(fp-N) after *(fp-N) = x; hits++; sub(x) x3; return 0
;; tests/data/jit_v6_18_run_<v>.prog_<v>.lst (baseline 0x53, private and
;; hybrid 0x6b bytes).
;; ---------------------------------------------------------------------------
%macro TWIN_PROG 7 ; name, area|none, stack depth, counter, subprog, kernel prog, func
JIT_FUNC %1, %2, %3, rbx
  JIT_STX_FP -(%3), rdi
  JIT_LDX_FP rbx, -(%3)
  JIT_INC_COUNTER %4
  %rep 3
    JIT_MOV64_REG rdi, rbx
    JIT_CALL %5
  %endrep
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC
SB_FUNCTION_RECORD %1, TWIN_LST(%6, %7), %2, %5, none, %6, %7
%endmacro

TWIN_PROG sb_twin_run_baseline_prog, none, 8, sb_twin_hits_baseline, sb_twin_run_baseline_sub, run_baseline, prog_baseline
TWIN_PROG sb_twin_run_private_prog, sb_twin_run_private_prog_area, 64, sb_twin_hits_private, sb_twin_run_private_sub, run_private, prog_private
TWIN_PROG sb_twin_run_hybrid_prog, sb_twin_run_hybrid_prog_area, 64, sb_twin_hits_hybrid, sb_twin_run_hybrid_sub, run_hybrid, prog_hybrid

;; ---------------------------------------------------------------------------
;; per-run driver (the raw_tp program run_<v>):
;;   for (i = 0; i < batch_iters; i++) prog_<v>(i);  return 0
;; tests/data/jit_v6_18_run_<v>.run_<v>.lst (0x44 bytes). Compared with
;; the kernel's, and timed in the placed twins only: for the aligned twins
;; the harness's timed loop plays its part.
;; ---------------------------------------------------------------------------
%macro TWIN_DRIVER 3 ; name, prog, kernel prog
JIT_FUNC %1, none, 0, rbx, r13
  JIT_LD_IMM64 r13, sb_twin_batch_iters
  JIT_LDX_W edi, r13, 0
  JIT_JEQ0 rdi, .done
  JIT_MOV32_ZERO ebx
.loop:
  JIT_MOV64_REG rdi, rbx
  JIT_CALL %2
  JIT_ADD64_IMM8 rbx, 1
  JIT_LDX_W edi, r13, 0
  JIT_JGT_REG rdi, rbx, .loop
.done:
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC
SB_FUNCTION_RECORD %1, TWIN_LST(%3, %3), none, %2, none, %3, %3
%endmacro

TWIN_DRIVER sb_twin_run_baseline, sb_twin_run_baseline_prog, run_baseline
TWIN_DRIVER sb_twin_run_private, sb_twin_run_private_prog, run_private
TWIN_DRIVER sb_twin_run_hybrid, sb_twin_run_hybrid_prog, run_hybrid

;; ---------------------------------------------------------------------------
;; in-loop program loop_<v>:
;;   n = batch_iters via *(fp-N); for (i = 0; i < n; i++) { hits++; sub(i) x3 }
;; tests/data/jit_v6_18_loop_<v>.loop_<v>.lst (baseline 0x78, private and
;; hybrid 0x90 bytes).
;; ---------------------------------------------------------------------------
%macro TWIN_LOOP 6 ; name, area|none, stack depth, counter, subprog, kernel prog
JIT_FUNC %1, %2, %3, rbx, r13, r14
  JIT_LD_IMM64 rdi, sb_twin_loop_batch_iters
  JIT_LDX_W edi, rdi, 0
  JIT_STX_FP -(%3), rdi
  JIT_LDX_FP r13, -(%3)
  JIT_JEQ0 r13, .done
  JIT_MOV32_ZERO ebx
  JIT_LD_IMM64 r14, %4
.loop:
  JIT_LDX_DW rdi, r14, 0
  JIT_ADD64_IMM8 rdi, 1
  JIT_STX_DW r14, 0, rdi
  %rep 3
    JIT_MOV64_REG rdi, rbx
    JIT_CALL %5
  %endrep
  JIT_ADD64_IMM8 rbx, 1
  JIT_JGT_REG r13, rbx, .loop
.done:
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC
SB_FUNCTION_RECORD %1, TWIN_LST(%6, %6), %2, %5, none, %6, %6
%endmacro

TWIN_LOOP sb_twin_loop_baseline, none, 8, sb_twin_loop_hits_baseline, sb_twin_loop_baseline_sub, loop_baseline
TWIN_LOOP sb_twin_loop_private, sb_twin_loop_private_area, 64, sb_twin_loop_hits_private, sb_twin_loop_private_sub, loop_private
TWIN_LOOP sb_twin_loop_hybrid, sb_twin_loop_hybrid_area, 64, sb_twin_loop_hits_hybrid, sb_twin_loop_hybrid_sub, loop_hybrid


;; ---------------------------------------------------------------------------
;; The variants: one per kernel measurement of `stubbench kernel`, same shape,
;; same variant, same codegen flavour. Instructions per iteration, counted on
;; the listings (the thunk's ret included: every return is
;; jmp its_return_thunk + ret): per-run prog baseline 23, private/hybrid 30;
;; subprog small 10, big 11; in-loop body baseline 12, private/hybrid 18
;; (push/pop r9), + 3 subprogs; once per run (prologue, setup, exit, thunk)
;; baseline 23, private/hybrid 24.
;; ---------------------------------------------------------------------------
%define TWIN_LISTING(prog) %strcat("tests/data/jit_v6_18_", prog, ".*.lst (stubbench kernel --dump-jit, 29 Nov 2026)")

%macro TWIN_VARIANT 13 ; variant, seed variant, shape, kernel prog, kernel func, entry,
                       ; counter, batch_iters|0, area|none, callee, per iteration, fixed, description
  %define V_NAME %strcat("twin-", %3, "-", %1)
  %define V_SEED_NAME %strcat(%2, "-", %3, "-twin")
  %define V_FAMILY "twin"
  %define V_SHAPE %3
  %define V_DESCRIPTION %13
  %define V_LISTING TWIN_LISTING(%str(%4))
  %define V_LISTING_FILE TWIN_LST(%4, %5)
  %define V_ENTRY %6
  %define V_COUNTER %7
  %define V_BATCH_ITERS %8
  %define V_AREA %9
  %define V_CALLEE %10
  %define V_INSNS_PER_CALL %11
  %define V_INSNS_FIXED %12
  SB_VARIANT
%endmacro

TWIN_VARIANT "baseline", "no-private-stack", "per-run", run_baseline, prog_baseline, sb_twin_run_baseline_prog, \
  sb_twin_hits_baseline, 0, none, sb_twin_run_baseline_sub, 23 + 3 * 10, 0, \
  "twin of run_baseline: prog (8-byte rbp frame) bumps a counter, calls sub_small 3 times"
TWIN_VARIANT "private", "private-stack", "per-run", run_private, prog_private, sb_twin_run_private_prog, \
  sb_twin_hits_private, 0, sb_twin_run_private_prog_area, sb_twin_run_private_sub, 30 + 3 * 11, 0, \
  "twin of run_private: prog and sub_big with private stacks (r9 setup each, push/pop r9)"
TWIN_VARIANT "hybrid", "hybrid", "per-run", run_hybrid, prog_hybrid, sb_twin_run_hybrid_prog, \
  sb_twin_hits_hybrid, 0, sb_twin_run_hybrid_prog_area, sb_twin_run_hybrid_sub, 30 + 3 * 10, 0, \
  "twin of run_hybrid: private-stack prog (r9, push/pop) calling sub_small (rbp frame)"
TWIN_VARIANT "baseline", "no-private-stack", "in-loop", loop_baseline, loop_baseline, sb_twin_loop_baseline, \
  sb_twin_loop_hits_baseline, sb_twin_loop_batch_iters, none, sb_twin_loop_baseline_sub, 12 + 3 * 10, 23, \
  "twin of loop_baseline: the program loops, bumping a counter and calling sub_small 3 times"
TWIN_VARIANT "private", "private-stack", "in-loop", loop_private, loop_private, sb_twin_loop_private, \
  sb_twin_loop_hits_private, sb_twin_loop_batch_iters, sb_twin_loop_private_area, sb_twin_loop_private_sub, \
  18 + 3 * 11, 24, \
  "twin of loop_private: r9 set up once per run, push/pop r9 around every call, sub_big private"
TWIN_VARIANT "hybrid", "hybrid", "in-loop", loop_hybrid, loop_hybrid, sb_twin_loop_hybrid, \
  sb_twin_loop_hits_hybrid, sb_twin_loop_batch_iters, sb_twin_loop_hybrid_area, sb_twin_loop_hybrid_sub, \
  18 + 3 * 10, 24, \
  "twin of loop_hybrid: r9 once per run, push/pop r9 around calls of sub_small (rbp frame)"

section .note.GNU-stack noalloc noexec nowrite progbits

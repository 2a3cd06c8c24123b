;; replicas_seed001_v2.asm: the JITed functions listed in seed 001,
;; "[PATCH bpf-next v2 2/2] selftests/bpf: Benchmark runtime performance with
;; private stack" (Yonghong Song, 18 July 2024), and the hybrid Alexei
;; Starovoitov asked for in the review (seed 000, 19 July 2024).
;;
;; Kernel: bpf-next of July 2024 (v6.10 era) with the private stack v2 patch,
;; CONFIG_X86_KERNEL_IBT=y: endbr64 at entry and after the frame, "66 90"
;; padding, gs:0x21a00 (zero-based per-CPU offsets), plain ret.
;; Byte for byte as listed, apart from the imm64 of the movabs instructions
;; (addresses) and the rel32 of the calls.
;;
;; Program (progs/private_stack.c of the seed): the fentry program
;;   hits++; func1(); func1(); func1(); return 0;
;; with func1() { return 0; }.

%include "jit_macros.inc"

FLAVOUR_SEED_V2_JUL2024

;; The v2 patch enabled the private stack for any stack depth; these functions
;; use no stack. The areas get 64 bytes, the smallest depth for which mainline
;; (v6.13+, BPF_PRIV_STACK_MIN_SIZE) enables the private stack.
PRIV_AREA sb_seed001_private_sub_area, 64
PRIV_AREA sb_seed001_private_main_area, 64
PRIV_AREA sb_seed001_hybrid_main_area, 64

SB_COUNTER sb_seed001_baseline_hits
SB_COUNTER sb_seed001_private_hits
SB_COUNTER sb_seed001_hybrid_hits

;; Seed 001, "jited code ... without private stack", subprog (0x17 bytes).
JIT_FUNC sb_seed001_baseline_sub, none
  JIT_EXIT
JIT_ENDFUNC

;; Seed 001, "without private stack", main prog (0x3c bytes).
JIT_FUNC sb_seed001_baseline_main, none
  JIT_INC_COUNTER sb_seed001_baseline_hits
  JIT_CALL sb_seed001_baseline_sub
  JIT_CALL sb_seed001_baseline_sub
  JIT_CALL sb_seed001_baseline_sub
  JIT_EXIT
JIT_ENDFUNC

;; Seed 001, "jited progs with private stack", subprog (0x2a bytes).
JIT_FUNC sb_seed001_private_sub, sb_seed001_private_sub_area
  JIT_EXIT
JIT_ENDFUNC

;; Seed 001, "jited progs with private stack", main prog (0x5b bytes).
JIT_FUNC sb_seed001_private_main, sb_seed001_private_main_area
  JIT_INC_COUNTER sb_seed001_private_hits
  JIT_CALL sb_seed001_private_sub
  JIT_CALL sb_seed001_private_sub
  JIT_CALL sb_seed001_private_sub
  JIT_EXIT
JIT_ENDFUNC

;; Seed 000, Alexei's request: the private-stack main prog of seed 001
;; (0x5b bytes, same bytes) calling the baseline subprog, which has no r9
;; setup ("a big function with a large stack ... calls a subprog without a
;; private stack").
JIT_FUNC sb_seed001_hybrid_main, sb_seed001_hybrid_main_area
  JIT_INC_COUNTER sb_seed001_hybrid_hits
  JIT_CALL sb_seed001_baseline_sub
  JIT_CALL sb_seed001_baseline_sub
  JIT_CALL sb_seed001_baseline_sub
  JIT_EXIT
JIT_ENDFUNC

section .note.GNU-stack noalloc noexec nowrite progbits

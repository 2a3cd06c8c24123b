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
%include "flavours/seed_v2_jul2024_ibt.inc"
%include "seed001_programs.inc"
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
SEED001_SUB sb_seed001_baseline_sub, none
SB_FUNCTION_RECORD sb_seed001_baseline_sub, "seed001_baseline_sub.lst"

;; Seed 001, "without private stack", main prog (0x3c bytes).
SEED001_MAIN sb_seed001_baseline_main, none, sb_seed001_baseline_hits, sb_seed001_baseline_sub
%define V_NAME "baseline"
%define V_FAMILY "replica"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack"
%define V_DESCRIPTION "rbp frame: main prog bumps a counter and calls a do-nothing subprog 3 times"
%define V_LISTING 'seed 001 v2, "jited code ... without private stack" (subprog + main prog)'
%define V_LISTING_FILE "seed001_baseline_main.lst"
%define V_ENTRY sb_seed001_baseline_main
%define V_COUNTER sb_seed001_baseline_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_baseline_sub
%define V_INSNS_PER_CALL 16 + 3 * 9        ; main prog 16, subprog 9
SB_VARIANT

;; Seed 001, "jited progs with private stack", subprog (0x2a bytes).
SEED001_SUB sb_seed001_private_sub, sb_seed001_private_sub_area
SB_FUNCTION_RECORD sb_seed001_private_sub, "seed001_private_sub.lst", sb_seed001_private_sub_area

;; Seed 001, "jited progs with private stack", main prog (0x5b bytes).
SEED001_MAIN sb_seed001_private_main, sb_seed001_private_main_area, sb_seed001_private_hits, sb_seed001_private_sub
%define V_NAME "private"
%define V_FAMILY "replica"
%define V_SHAPE "per-run"
%define V_SEED_NAME "private-stack"
%define V_DESCRIPTION "private stack in main prog and subprog: r9 setup in both, push/pop r9 around calls"
%define V_LISTING 'seed 001 v2, "jited progs with private stack" (subprog + main prog)'
%define V_LISTING_FILE "seed001_private_main.lst"
%define V_ENTRY sb_seed001_private_main
%define V_COUNTER sb_seed001_private_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_private_sub
%define V_AREA sb_seed001_private_main_area
%define V_INSNS_PER_CALL 24 + 3 * 11       ; main prog 24, subprog 11
SB_VARIANT sb_seed001_private_record

;; Seed 000, Alexei's request: the private-stack main prog of seed 001
;; (0x5b bytes, same bytes) calling the baseline subprog, which has no r9
;; setup ("a big function with a large stack ... calls a subprog without a
;; private stack").
SEED001_MAIN sb_seed001_hybrid_main, sb_seed001_hybrid_main_area, sb_seed001_hybrid_hits, sb_seed001_baseline_sub
%define V_NAME "hybrid"
%define V_FAMILY "replica"
%define V_SHAPE "per-run"
%define V_SEED_NAME "hybrid"
%define V_DESCRIPTION "private-stack main prog (r9, push/pop) calling the baseline subprog (no r9 setup)"
%define V_LISTING "seed 000 review request: seed 001 private main prog + baseline subprog"
%define V_LISTING_FILE "seed001_private_main.lst"
%define V_ENTRY sb_seed001_hybrid_main
%define V_COUNTER sb_seed001_hybrid_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_baseline_sub
%define V_AREA sb_seed001_hybrid_main_area
%define V_INSNS_PER_CALL 24 + 3 * 9        ; main prog 24, subprog 9
SB_VARIANT sb_seed001_hybrid_record

;; The baseline padded to the private and hybrid programs' layout
;; (SEED001_MAIN_PADDED, SEED001_SUB_PADDED): seed 001 v2 flavour (bpf-next of July 2024, v6.10 era, IBT).
;; Byte for byte the baseline listing above (seed 001 v2, "jited code ... without private stack") with the
;; kernel's NOP forms where the private listing has movabs r9 / add r9, gs
;; (19 bytes) and push r9 / pop r9 (2 bytes each); their own family, so
;; --variant=all leaves them out and the sweep adds them beside the
;; variants they pad (the codegen and layout costs, docs/re-rolled-states.md).
SB_COUNTER sb_seed001_padded_private_hits
SB_COUNTER sb_seed001_padded_hybrid_hits

SEED001_SUB_PADDED sb_seed001_padded_sub
SB_FUNCTION_RECORD sb_seed001_padded_sub, "seed001_padded_private_sub.lst"

SEED001_MAIN_PADDED sb_seed001_padded_private_main, sb_seed001_padded_private_hits, sb_seed001_padded_sub
%define V_NAME "padded-private"
%define V_FAMILY "replica-padded"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack-padded-private"
%define V_DESCRIPTION "the baseline's code with nops where private has its r9 setup and push/pop r9"
%define V_LISTING 'seed 001 v2, "jited code ... without private stack", padded to the layout of the private listing'
%define V_LISTING_FILE "seed001_padded_private_main.lst"
%define V_ENTRY sb_seed001_padded_private_main
%define V_COUNTER sb_seed001_padded_private_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_padded_sub
%define V_FAMILY_INFO sb_seed001_private_record
%define V_INSNS_PER_CALL 25 + 3 * 12
SB_VARIANT

SEED001_MAIN_PADDED sb_seed001_padded_hybrid_main, sb_seed001_padded_hybrid_hits, sb_seed001_baseline_sub
%define V_NAME "padded-hybrid"
%define V_FAMILY "replica-padded"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack-padded-hybrid"
%define V_DESCRIPTION "the baseline's code with nops where hybrid's main prog has its r9 setup and push/pop r9"
%define V_LISTING 'seed 001 v2, "jited code ... without private stack", main prog padded to the layout of the private main prog'
%define V_LISTING_FILE "seed001_padded_private_main.lst"
%define V_ENTRY sb_seed001_padded_hybrid_main
%define V_COUNTER sb_seed001_padded_hybrid_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_baseline_sub
%define V_FAMILY_INFO sb_seed001_hybrid_record
%define V_INSNS_PER_CALL 25 + 3 * 9
SB_VARIANT

section .note.GNU-stack noalloc noexec nowrite progbits

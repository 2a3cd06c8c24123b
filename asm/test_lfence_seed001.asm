;; test_lfence_seed001.asm: a test variant, not a measurement: seed 001's
;; private main prog with an lfence planted before its second call, for
;; the attribution test of `stubbench annotate` (tests/commands/annotate_lfence.py):
;; the planted instruction must take the cost it adds. Family "test": the
;; registry lists it only with STUBBENCH_TEST_VARIANTS=1 (bench/test_hooks.c),
;; so no user's --variant=all or --list sees it.

%include "jit_macros.inc"
%include "flavours/seed_v2_jul2024_ibt.inc"

PRIV_AREA sb_test_lfence_main_area, 64
SB_COUNTER sb_test_lfence_hits

extern sb_seed001_private_sub

JIT_FUNC sb_test_lfence_main, sb_test_lfence_main_area
  JIT_INC_COUNTER sb_test_lfence_hits
  JIT_CALL sb_seed001_private_sub
  push r9                                   ; 41 51
  lfence                                    ; 0f ae e8: the planted instruction
  call sb_seed001_private_sub
  pop r9                                    ; 41 59
  JIT_CALL sb_seed001_private_sub
  JIT_MOV32_ZERO eax
  JIT_EXIT
JIT_ENDFUNC
%define V_NAME "test-lfence"
%define V_FAMILY "test"
%define V_SHAPE "per-run"
%define V_SEED_NAME "test-lfence"
%define V_DESCRIPTION "test only: private with an lfence planted before its second call"
%define V_LISTING 'seed 001 v2 private main prog, lfence before the second call (not a listing)'
%define V_ENTRY sb_test_lfence_main
%define V_COUNTER sb_test_lfence_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_seed001_private_sub
%define V_AREA sb_test_lfence_main_area
%define V_INSNS_PER_CALL 25 + 3 * 11       ; private's 24 + the lfence, subprog 11
SB_VARIANT

section .note.GNU-stack noalloc noexec nowrite progbits

;; replicas_seed001_host.asm: the programs of seed 001 (the same as
;; asm/replicas_seed001_v2.asm, from asm/seed001_programs.inc) in the
;; running kernel's codegen flavour instead of the seed's July 2024 one, so
;; `stubbench --flavour=host` can run the seed's benchmark as this kernel
;; would JIT and execute it, beside the seed's own flavour.
;;
;; Flavour: Linux 6.18 as this project's machines JIT (asm/flavours/
;; v6_18_noibt_its.inc: no IBT, "0f 1f 00" padding, gs:[kernel address]),
;; returns "jmp x86_return_thunk". The asm jumps to sb_its_return_thunk;
;; at run time sb_thunk_apply() re-aims every return at the replica of the
;; thunk the host uses (asm/return_thunks.asm), as the kernel's
;; apply_returns() does at boot. The IBT, padding and gs parts stay
;; 6.18's: only the return is taken from the host.

%include "jit_macros.inc"
%include "flavours/v6_18_noibt_its.inc"
%include "seed001_programs.inc"

extern sb_its_return_thunk               ; return_thunks.asm

PRIV_AREA sb_host001_private_sub_area, 64
PRIV_AREA sb_host001_private_main_area, 64
PRIV_AREA sb_host001_hybrid_main_area, 64

SB_COUNTER sb_host001_baseline_hits
SB_COUNTER sb_host001_private_hits
SB_COUNTER sb_host001_hybrid_hits

SEED001_SUB sb_host001_baseline_sub, none
SB_FUNCTION_RECORD sb_host001_baseline_sub, none

SEED001_MAIN sb_host001_baseline_main, none, sb_host001_baseline_hits, sb_host001_baseline_sub
%define V_NAME "host-baseline"
%define V_FAMILY "replica-host"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack-host"
%define V_DESCRIPTION "the baseline replica's program in this host's JIT flavour and return thunk"
%define V_LISTING "seed 001 v2 baseline programs, assembled in the v6.18 flavour (no listing of its own)"
%define V_ENTRY sb_host001_baseline_main
%define V_COUNTER sb_host001_baseline_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_host001_baseline_sub
%define V_INSNS_PER_CALL 15 + 3 * 8        ; main prog 14 + thunk ret, subprog 7 + thunk ret
SB_VARIANT

SEED001_SUB sb_host001_private_sub, sb_host001_private_sub_area
SB_FUNCTION_RECORD sb_host001_private_sub, none, sb_host001_private_sub_area

SEED001_MAIN sb_host001_private_main, sb_host001_private_main_area, sb_host001_private_hits, sb_host001_private_sub
%define V_NAME "host-private"
%define V_FAMILY "replica-host"
%define V_SHAPE "per-run"
%define V_SEED_NAME "private-stack-host"
%define V_DESCRIPTION "the private replica's program in this host's JIT flavour and return thunk"
%define V_LISTING "seed 001 v2 private-stack programs, assembled in the v6.18 flavour (no listing of its own)"
%define V_ENTRY sb_host001_private_main
%define V_COUNTER sb_host001_private_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_host001_private_sub
%define V_AREA sb_host001_private_main_area
%define V_INSNS_PER_CALL 23 + 3 * 10       ; main prog 22 + thunk ret, subprog 9 + thunk ret
SB_VARIANT sb_host001_private_record

SEED001_MAIN sb_host001_hybrid_main, sb_host001_hybrid_main_area, sb_host001_hybrid_hits, sb_host001_baseline_sub
%define V_NAME "host-hybrid"
%define V_FAMILY "replica-host"
%define V_SHAPE "per-run"
%define V_SEED_NAME "hybrid-host"
%define V_DESCRIPTION "the hybrid replica's program in this host's JIT flavour and return thunk"
%define V_LISTING "seed 000 hybrid (private main prog + baseline subprog), assembled in the v6.18 flavour"
%define V_ENTRY sb_host001_hybrid_main
%define V_COUNTER sb_host001_hybrid_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_host001_baseline_sub
%define V_AREA sb_host001_hybrid_main_area
%define V_INSNS_PER_CALL 23 + 3 * 8        ; main prog 22 + thunk ret, subprog 7 + thunk ret
SB_VARIANT sb_host001_hybrid_record

;; The baseline padded to the private and hybrid programs' layout
;; (SEED001_MAIN_PADDED, SEED001_SUB_PADDED): the v6.18 flavour of asm/flavours/v6_18_noibt_its.inc (Linux 6.18, no IBT).
;; Byte for byte the baseline listing above (seed 001 v2 baseline programs in the v6.18 flavour) with the
;; kernel's NOP forms where the private listing has movabs r9 / add r9, gs
;; (19 bytes) and push r9 / pop r9 (2 bytes each); their own family, so
;; --variant=all leaves them out and the sweep adds them beside the
;; variants they pad (the codegen and layout costs, docs/re-rolled-states.md).
SB_COUNTER sb_host001_padded_private_hits
SB_COUNTER sb_host001_padded_hybrid_hits

SEED001_SUB_PADDED sb_host001_padded_sub
SB_FUNCTION_RECORD sb_host001_padded_sub, none

SEED001_MAIN_PADDED sb_host001_padded_private_main, sb_host001_padded_private_hits, sb_host001_padded_sub
%define V_NAME "host-padded-private"
%define V_FAMILY "replica-host-padded"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack-host-padded-private"
%define V_DESCRIPTION "the baseline's code with nops where private has its r9 setup and push/pop r9"
%define V_LISTING "seed 001 v2 baseline programs in the v6.18 flavour, padded to the layout of the private listing"
%define V_ENTRY sb_host001_padded_private_main
%define V_COUNTER sb_host001_padded_private_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_host001_padded_sub
%define V_FAMILY_INFO sb_host001_private_record
%define V_INSNS_PER_CALL 24 + 3 * 11
SB_VARIANT

SEED001_MAIN_PADDED sb_host001_padded_hybrid_main, sb_host001_padded_hybrid_hits, sb_host001_baseline_sub
%define V_NAME "host-padded-hybrid"
%define V_FAMILY "replica-host-padded"
%define V_SHAPE "per-run"
%define V_SEED_NAME "no-private-stack-host-padded-hybrid"
%define V_DESCRIPTION "the baseline's code with nops where hybrid's main prog has its r9 setup and push/pop r9"
%define V_LISTING "seed 001 v2 baseline programs in the v6.18 flavour, main prog padded to the layout of the private main prog"
%define V_ENTRY sb_host001_padded_hybrid_main
%define V_COUNTER sb_host001_padded_hybrid_hits
%define V_BATCH_ITERS 0
%define V_CALLEE sb_host001_baseline_sub
%define V_FAMILY_INFO sb_host001_hybrid_record
%define V_INSNS_PER_CALL 24 + 3 * 8
SB_VARIANT

section .note.GNU-stack noalloc noexec nowrite progbits

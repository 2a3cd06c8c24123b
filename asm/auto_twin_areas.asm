;; auto_twin_areas.asm: private stack areas for twins made at run time from
;; a kernel JIT image (src/jit/auto_twin.c). A twin's "movabs r9, frame;
;; add r9, gs:[this_cpu_off]" is re-aimed at the frame of one of these, so
;; that r9 lands in this thread's per-CPU copy as the replicas' does
;; (src/variants/percpu.c). Each is MAX_BPF_STACK (512 bytes): any BPF frame
;; fits. The twins made take them in turn.

%include "jit_macros.inc"

%define SB_AUTO_TWIN_AREAS 16

%assign i 0
%rep SB_AUTO_TWIN_AREAS
PRIV_AREA sb_auto_twin_area_ %+ i, 512
%assign i i + 1
%endrep

;; The areas' frame pointers (the address r9 holds before the gs add), in order.
  section .rodata
  align 8
  global sb_auto_twin_area_fps:data (SB_AUTO_TWIN_AREAS * 8)
  global sb_auto_twin_n_areas:data 8
sb_auto_twin_n_areas: dq SB_AUTO_TWIN_AREAS
sb_auto_twin_area_fps:
%assign i 0
%rep SB_AUTO_TWIN_AREAS
  dq sb_auto_twin_area_ %+ i %+ .fp
%assign i i + 1
%endrep

section .note.GNU-stack noalloc noexec nowrite progbits

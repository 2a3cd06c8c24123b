/* stub.h: the one ABI every replica main prog follows, and the replicas. */
#ifndef STUBBENCH_STUB_H
#define STUBBENCH_STUB_H

#include <stdint.h>

/*
 * A main prog: takes nothing, returns 0 in eax like "return 0" in BPF,
 * clobbers only SysV caller-saved registers, and needs the calling thread's
 * GS base set up by sb_percpu_thread_init() when it uses a private stack.
 */
typedef int (*sb_stub_fn)(void);

/* asm/replicas_seed001_v2.asm: seed 001 listings (July 2024, IBT) and the
 * hybrid of the seed 000 review. */
int sb_seed001_baseline_sub(void);
int sb_seed001_baseline_main(void);
int sb_seed001_private_sub(void);
int sb_seed001_private_main(void);
int sb_seed001_hybrid_main(void);

extern volatile uint64_t sb_seed001_baseline_hits;
extern volatile uint64_t sb_seed001_private_hits;
extern volatile uint64_t sb_seed001_hybrid_hits;

/* Private stack areas in the per-CPU template (asm PRIV_AREA). */
extern char sb_seed001_private_sub_area[];
extern char sb_seed001_private_main_area[];
extern char sb_seed001_hybrid_main_area[];

#endif

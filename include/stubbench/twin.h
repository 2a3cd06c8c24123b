/* twin.h: the "twin" replicas of this machine's JITed kernel programs
 * (asm/twins_v6_18.asm, family "twin" of the registry) and the function
 * records saying which kernel function each one copies. */
#ifndef STUBBENCH_TWIN_H
#define STUBBENCH_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/variants.h"

/* How many functions are twins of a kernel function (records with prog). */
size_t sb_twin_count(void);
/* The twin of function func of program prog (addr, size, prog, func), or
 * NULL. */
const struct sb_function *sb_twin_find(const char *prog, const char *func);
/* The registry variant twinning a kernel arm: ("per-run", "private"). */
const struct sb_variant *sb_twin_variant(const char *shape, const char *variant);

/* The stubs (asm/twins_v6_18.asm). */
int sb_twin_run_baseline_prog(void);
int sb_twin_run_private_prog(void);
int sb_twin_run_hybrid_prog(void);
int sb_twin_run_baseline(void);
int sb_twin_run_private(void);
int sb_twin_run_hybrid(void);
int sb_twin_loop_baseline(void);
int sb_twin_loop_private(void);
int sb_twin_loop_hybrid(void);

extern volatile uint64_t sb_twin_batch_iters;      /* the per-run drivers' batch_iters */
extern volatile uint64_t sb_twin_loop_batch_iters; /* the in-loop programs' */
extern volatile uint64_t sb_twin_hits_baseline, sb_twin_hits_private, sb_twin_hits_hybrid;
extern volatile uint64_t sb_twin_loop_hits_baseline, sb_twin_loop_hits_private,
	sb_twin_loop_hits_hybrid;

#endif

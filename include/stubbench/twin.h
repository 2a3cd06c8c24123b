/* twin.h: the "twin" replicas of this machine's JITed kernel programs
 * (asm/twins_v6_18.asm, family "twin" of the registry) and the records
 * saying which kernel function each one copies. */
#ifndef STUBBENCH_TWIN_H
#define STUBBENCH_TWIN_H

#include <stddef.h>
#include <stdint.h>

struct sb_variant;

/* One record of section sb_twins (asm SB_TWIN_RECORD). */
struct sb_twin_record {
	const char *prog;   /* BPF program: "run_private" */
	const char *func;   /* JITed function of it: "sub_big" */
	const void *addr;   /* the twin's code */
	uint64_t size;      /* its bytes */
};

size_t sb_twin_records(const struct sb_twin_record **out);
/* The twin of function func of program prog, or NULL. */
const struct sb_twin_record *sb_twin_find(const char *prog, const char *func);
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

/* arms.h: harness arms that run the kernel's BPF programs. */
#ifndef STUBBENCH_ARMS_H
#define STUBBENCH_ARMS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
#include "kernel/loader.h"
#include "stubbench/parse.h"

/* Harness arms running the BPF programs (arms.c). One loaded object
 * per load and batch size (batch_iters is frozen at load); sample(ctx,
 * batch) runs the program of the current load's object whose batch_iters
 * == batch once with BPF_PROG_TEST_RUN and returns the TSC ticks around
 * the syscall (timed with the harness's timer, sb_time_calls). The loads
 * are the arms' re-rolled states: the harness moves every arm to the next
 * load block by block, so each cell is measured over all loads. The
 * overhead arm runs the empty driver: the syscall and dispatch cost,
 * removed by the harness. */
struct sb_kernel_arms {
	struct sb_arm arms[1 + SB_N_KVARIANTS];
	size_t n;
	struct sb_kernel_arm_ctx {
		struct sb_kernel_obj *const (*objs)[SB_MAX_BATCHES]; /* [load][batch] */
		size_t n_loads, load;              /* load: the current state */
		const uint64_t *batches;
		size_t n_batches;
		int empty;                         /* the overhead arm */
		enum sb_kernel_shape shape;
		enum sb_kernel_variant variant;
		int cpu;
		uint64_t runs[SB_KERNEL_MAX_LOADS][SB_MAX_BATCHES]; /* test runs per load and batch */
		int last_error;                    /* -errno of a failed run */
	} ctx[1 + SB_N_KVARIANTS];
	char names[SB_N_KVARIANTS][2][48];    /* sb_kernel_arm_name(): name, seed name */
};

/* Builds the overhead arm and one arm per selected variant (baseline first,
 * always), named by sb_kernel_arm_name(). */
void sb_kernel_arms_build(struct sb_kernel_arms *a, struct sb_kernel_obj *const (*objs)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS], int cpu);
/* Every program's counter advanced by exactly runs x batch_iters. Returns 0,
 * or -1 naming the first program that did not. */
int sb_kernel_arms_check_counters(const struct sb_kernel_arms *a, const uint64_t *hits_before,
				  char *err, size_t errlen);
/* The counters of the arms' programs in every object, before a run
 * (n_loads x n_batches x SB_N_KVARIANTS values). */
void sb_kernel_arms_read_counters(const struct sb_kernel_arms *a, uint64_t *out);

#endif

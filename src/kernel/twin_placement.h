/* twin_placement.h: the twins placed like each kernel load, and their harness arms. */
#ifndef STUBBENCH_TWIN_PLACEMENT_H
#define STUBBENCH_TWIN_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
#include "kernel/loader.h"
#include "stubbench/parse.h"
#include "jit/placement.h"
#include "stubbench/registry.h"

/* Twins placed like a kernel load (twin_placement.c): copies of the
 * twins of one shape whose functions start at the same page offset (hence
 * the same offset in their 64-byte cache lines) as the kernel put that
 * load's JITed functions (bpf_jit_binary_pack_alloc() starts every image at
 * a random offset of its first 64-byte chunk), and whose private frames
 * sit at the page offsets of the kernel's (the per-CPU allocation of each
 * load; `movabs r9, imm64` + this_cpu_off, a multiple of the page), as
 * registry-like variants the replica harness can run. Each is the whole
 * program the kernel runs, its loop included, called once per sample with
 * batch_iters set: per-run the driver twin (run_<v>) with prog_<v> and the
 * subprog, in-loop loop_<v> with the subprog. Their rbp frame on the normal
 * stack is put where the sampler's rsp puts it (sb_placed_stack_target,
 * for sb_run_opts.fixed_stack). */
#define SB_TWIN_PLACED_FUNCS 3 /* per-run: driver, prog, subprog; in-loop: loop, subprog */
struct sb_twin_placement {
	struct sb_placed_variant copies[SB_N_KVARIANTS]; /* made by sb_place() */
	struct sb_variant variants[SB_N_KVARIANTS];  /* main = the placed entry */
	char names[SB_N_KVARIANTS][64];              /* "twin-in-loop-private@load2" */
	int have[SB_N_KVARIANTS];
	/* What was copied (per-run: the twin with the driver as its main). */
	struct sb_variant entries[SB_N_KVARIANTS];
	size_t n_funcs[SB_N_KVARIANTS];              /* functions copied, as numbered below */
	/* Page offsets of the kernel's functions, in sb_place()'s order
	 * (the entry, then what it calls), which the copies take. */
	unsigned offsets[SB_N_KVARIANTS][SB_TWIN_PLACED_FUNCS];
	/* The page offset of each function's private frame pointer (r9) in
	 * the kernel's load, which the placed twin's frame takes too; -1:
	 * the function has no private stack. */
	int frame_offsets[SB_N_KVARIANTS][SB_TWIN_PLACED_FUNCS];
};
int sb_twin_place_like(const struct sb_kernel_obj *o, enum sb_kernel_shape shape, const int want[SB_N_KVARIANTS],
		       int load, struct sb_twin_placement *out, char *err, size_t errlen);
void sb_twin_placement_free(struct sb_twin_placement *p);

/* Harness arms over placed twins: an overhead arm (the empty stub, as the
 * replica harness's) and one arm per variant; sample(ctx, batch) runs the
 * twins placed like the current load's kernel object of that batch
 * (placed[load][batch index]); the loads are the arms' re-rolled states,
 * as for the kernel arms. */
struct sb_placed_arms {
	struct sb_arm arms[1 + SB_N_KVARIANTS];
	size_t n;
	struct sb_placed_arm_ctx {
		struct sb_twin_placement (*placed)[SB_MAX_BATCHES]; /* [load][batch] */
		size_t n_loads, load;
		const uint64_t *batches;
		size_t n_batches;
		int empty;
		enum sb_kernel_variant variant;
		uint64_t iterations; /* counted on the twins' counters (sb_placed_arms_iterations_on) */
	} ctx[1 + SB_N_KVARIANTS];
	char names[SB_N_KVARIANTS][2][64];    /* "private-in-loop-twin@loads", seed name */
};
void sb_placed_arms_build(struct sb_placed_arms *a, struct sb_twin_placement (*placed)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS]);
/* The page offset of the placed twins' rbp frame when the sampler calls
 * their arms' sample with rsp at page offset rsp_off: a stub with the
 * twins' prologue run in a twin's entry's place, through the same path
 * (sb_frame_probe_stub). */
unsigned sb_placed_frame_offset_at(unsigned rsp_off);
/* The rsp page offset (sb_run_opts.stack_rsp_offset) that puts the placed
 * twins' rbp frame at page offset frame_off, or as near below as rsp's
 * 16-byte alignment allows; *got: the frame's page offset it gives. */
unsigned sb_placed_stack_target(unsigned frame_off, unsigned *got);

/* The iterations the placed arms (arms: an sb_placed_arms) ran on counter:
 * they run copies of the twins and count on the twins' counters. */
uint64_t sb_placed_arms_iterations_on(const void *arms, const volatile uint64_t *counter);

#endif

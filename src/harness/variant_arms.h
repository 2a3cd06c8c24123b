/* variant_arms.h: harness arms for asm variants (replicas, lab, twins). */
#ifndef STUBBENCH_VARIANT_ARMS_H
#define STUBBENCH_VARIANT_ARMS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
#include "stubbench/registry.h"
#include "variants/variant_keys.h"

#define SB_MAX_ARMS 32

/* One arm per variant plus the overhead arm (the empty stub, called like the
 * variants: batch times for per-run stubs, once for in-loop stubs). Counts
 * the iterations each arm ran so the counters can be checked afterwards. */
struct sb_variant_arms {
	struct sb_arm arms[SB_MAX_ARMS + 1];
	size_t n;
	struct sb_variant_arm_ctx {
		const struct sb_variant *v;   /* NULL for the overhead arm */
		int in_loop;
		const struct sb_variant *cur; /* the code a sample runs: v or one of its copies */
		const struct sb_variant *const *copies; /* re-rolled states (sb_arm.n_states) */
		uint64_t iterations;          /* iterations run so far */
		uint64_t counter_start;
	} ctx[SB_MAX_ARMS + 1];
};

/* Builds the arms: overhead first, then baseline (may be NULL), then the
 * others. All variants must have the same shape. Returns 0, or -1 with a
 * message in err. */
int sb_variant_arms_build(struct sb_variant_arms *a, const struct sb_variant *baseline,
			  const struct sb_variant *const *others, size_t n_others, char *err,
			  size_t errlen);

/* The arm running copy (sb_place() of original, copy index) gets
 * original's key at that placement. Returns 0, or -1 when copy has no arm. */
int sb_variant_arms_mark_copy(struct sb_variant_arms *a, const struct sb_variant *copy,
			      const struct sb_variant *original, unsigned index);

/* Gives the arm of variant v n re-rolled states: copies of its code
 * (placed copies that share its counter), rotated by the harness block by
 * block. copies must outlive the run. Returns 0, or -1 when v has no arm. */
int sb_variant_arms_set_states(struct sb_variant_arms *a, const struct sb_variant *v,
			       const struct sb_variant *const *copies, size_t n);

/* Checks that every variant's counter advanced by exactly the iterations its
 * arm ran. Returns 0, or -1 naming the first variant that did not. */
int sb_variant_arms_check_counters(const struct sb_variant_arms *a, char *err, size_t errlen);
/* The same where other arms run copies of these variants (placed twins)
 * that count on the same counters: also(also_ctx, counter) gives their
 * iterations on that counter. */
int sb_variant_arms_check_counters_with(const struct sb_variant_arms *a,
					uint64_t (*also)(const void *ctx, const volatile uint64_t *counter),
					const void *also_ctx, char *err, size_t errlen);

/* For sb_run_opts.child_check (ctx: the sb_variant_arms): in each fresh
 * process, after its blocks, the counters as above and the private
 * stacks' guard words (sb_percpu_check_guards). */
int sb_variant_arms_child_check(void *a, char *err, size_t errlen);

#endif

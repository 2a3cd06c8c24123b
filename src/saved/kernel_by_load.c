/* kernel_by_load.c: a kernel run's figures load by load from its kept
 * blocks; see kernel_by_load.h. */
#include "saved/kernel_by_load.h"

#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "stats/paired_placements.h"

#define N_BOOT 1000 /* the resamples of the figures over all loads (batch_summary.c) */

/* SB_SEED_BOOTSTRAP's indices of these figures: apart from the cells'. */
#define SEED_INDEX_BASE (UINT64_C(1) << 40)

uint64_t sb_kernel_by_load_seed(uint64_t seed, const char *kernel, uint64_t batch)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (const char *c = kernel ? kernel : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * UINT64_C(1099511628211);
	h = (h ^ batch) * UINT64_C(1099511628211);
	return sb_seed_stream(seed, SB_SEED_BOOTSTRAP, SEED_INDEX_BASE + (h & 0xffffffffu));
}

/* One arm's values at one batch size: per block, its value (less its
 * baseline's in the same block) and the block's state, its load. */
struct arm_values {
	double *value;
	size_t *state;
	size_t n;
};

static int same_block(const struct sb_block_value *x, const struct sb_block_value *y)
{
	return x->part == y->part && x->batch == y->batch && x->process == y->process && x->block == y->block;
}

/* Arm's values at batch into out (room for t->n), less base's in the same
 * block where base >= 0 (a block without it left out). A block's rows
 * are adjacent, one per arm of its part. */
static void collect(const struct sb_block_table *t, long arm, long base, uint64_t batch, struct arm_values *out)
{
	out->n = 0;
	if (arm < 0)
		return;
	for (size_t r = 0; r < t->n;) {
		size_t end = r, ra = SIZE_MAX, rb = SIZE_MAX;
		for (; end < t->n && same_block(&t->rows[end], &t->rows[r]); end++) {
			if (t->rows[end].arm == (size_t)arm)
				ra = end;
			if (base >= 0 && t->rows[end].arm == (size_t)base)
				rb = end;
		}
		if (t->rows[r].batch == batch && ra != SIZE_MAX && (base < 0 || rb != SIZE_MAX)) {
			out->value[out->n] = t->rows[ra].value - (base >= 0 ? t->rows[rb].value : 0);
			out->state[out->n++] = t->rows[ra].state;
		}
		r = end;
	}
}

static long arm_of(const struct sb_block_table *t, const char *name)
{
	return name ? sb_block_table_arm(t, name) : -1;
}

static void values_free(struct arm_values *v)
{
	free(v->value), free(v->state);
}

static int values_alloc(struct arm_values *v, size_t n)
{
	v->value = malloc((n ? n : 1) * sizeof(*v->value));
	v->state = malloc((n ? n : 1) * sizeof(*v->state));
	v->n = 0;
	return v->value && v->state ? 0 : -1;
}

/* The placed twin's added cost less the kernel's (k), paired by load. */
static int paired_by_load(const struct sb_block_table *t, const struct sb_kernel_load_arms *a,
			  const struct arm_values *k, struct arm_values *p, uint64_t seed, struct sb_kernel_by_load *out)
{
	collect(t, arm_of(t, a->placed), arm_of(t, a->placed_base), a->batch, p);
	if (!p->n || !k->n) {
		out->paired = sb_estimate_absent("no blocks of the placed twin or the kernel at this batch");
		return 0;
	}
	struct sb_arm_blocks pb = {p->value, p->state, NULL, p->n, 0}, kb = {k->value, k->state, NULL, k->n, 0};
	struct sb_paired pr;
	if (sb_paired_between_placements(&pb, &kb, N_BOOT, seed, &pr) != 0)
		return -1;
	out->paired = pr.mean;
	out->paired_loads = pr.mean.known ? pr.n_placements : 0;
	if (!pr.mean.known)
		out->paired = sb_estimate_absent("fewer than two loads with blocks of both");
	return 0;
}

int sb_kernel_by_load(const struct sb_block_table *t, const struct sb_kernel_load_arms *a, uint64_t seed,
		      struct sb_kernel_by_load *out)
{
	memset(out, 0, sizeof(*out));
	out->absolute.between = out->absolute.within = out->added.between = out->added.within =
		sb_estimate_absent("no blocks of the kernel's arm at this batch");
	out->paired = sb_estimate_absent(a->kernel_base ? "no placed twin" : "the baseline");
	struct arm_values k = {0}, p = {0};
	int rc = -1;
	if (values_alloc(&k, t->n) != 0 || values_alloc(&p, t->n) != 0)
		goto out;
	long arm = arm_of(t, a->kernel);
	collect(t, arm, -1, a->batch, &k);
	if (k.n && sb_spread_split(k.value, k.state, k.n, &out->absolute) != 0)
		goto out;
	rc = 0;
	if (!a->kernel_base)
		goto out;
	collect(t, arm, arm_of(t, a->kernel_base), a->batch, &k);
	out->added.between = out->added.within = sb_estimate_absent("no blocks of the kernel's arm and baseline");
	if (k.n && sb_spread_split(k.value, k.state, k.n, &out->added) != 0)
		rc = -1;
	else if (a->placed)
		rc = paired_by_load(t, a, &k, &p, seed, out);
out:
	values_free(&k), values_free(&p);
	return rc;
}

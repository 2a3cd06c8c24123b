/* state_figures.c: a recorded sweep's figures per core state, from its
 * blocks log; see state_figures.h. */
#include "saved/state_figures.h"

#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "stats/paired_placements.h"
#include "stubbench/registry.h"
#include "base/rng.h"
#include "variants/variant_keys.h"

#define N_BOOT 400

/* What the log holds, indexed for the figures. */
struct log_view {
	const struct sb_block_table *t;
	enum sb_core_state *state; /* [t->n]: each row's block's */
	size_t n_parts;
	unsigned char *has;        /* [part * n_arms + arm]: 1 the arm has rows, 2 as the part's baseline */
	unsigned char *interleaved; /* [part]: the part has a baseline */
	size_t *start;             /* [part * n_arms + arm]: its rows are order[start[k] .. start[k + 1]) */
	size_t *order;             /* [t->n]: row indexes grouped by part and arm, ascending in each */
};

/* Blocks of one arm chosen for an estimate: values, placements, processes. */
struct chosen {
	double *a, *b;
	size_t *placement, *process;
	size_t n;
};

static int same_block(const struct sb_block_value *x, const struct sb_block_value *y)
{
	return x->part == y->part && x->batch == y->batch && x->process == y->process && x->block == y->block;
}

/* One canary a block (the first row of each), and every row's state. */
static int split_states(struct log_view *lv, double record_level, struct sb_core_split *split)
{
	const struct sb_block_table *t = lv->t;
	double *canary = malloc(t->n * sizeof(*canary));
	enum sb_core_state *block_state = malloc(t->n * sizeof(*block_state));
	int rc = -1;
	if (!canary || !block_state)
		goto out;
	size_t m = 0;
	for (size_t r = 0; r < t->n; r++)
		if (r == 0 || !same_block(&t->rows[r], &t->rows[r - 1]))
			canary[m++] = t->rows[r].canary;
	if (sb_core_states_split(canary, m, record_level, block_state, split) != 0)
		goto out;
	for (size_t r = 0; r < t->n; r++)
		lv->state[r] = sb_core_state_of(split, t->rows[r].canary);
	rc = 0;
out:
	free(canary);
	free(block_state);
	return rc;
}

static int view_make(const struct sb_block_table *t, double record_level, struct log_view *lv,
		     struct sb_core_split *split)
{
	memset(lv, 0, sizeof(*lv));
	lv->t = t;
	/* Parts past the bound are not a log's (the reader refuses them). */
	for (size_t r = 0; r < t->n; r++)
		if (t->rows[r].part < SB_BLOCKS_MAX_PARTS && t->rows[r].part + 1 > lv->n_parts)
			lv->n_parts = t->rows[r].part + 1;
	size_t cells = lv->n_parts * t->n_arms;
	lv->state = malloc((t->n ? t->n : 1) * sizeof(*lv->state));
	lv->has = calloc(cells + 1, 1);
	lv->interleaved = calloc(lv->n_parts + 1, 1);
	lv->start = calloc(cells + 2, sizeof(*lv->start));
	lv->order = malloc((t->n ? t->n : 1) * sizeof(*lv->order));
	if (!lv->state || !lv->has || !lv->interleaved || !lv->start || !lv->order)
		return -1;
	for (size_t r = 0; r < t->n; r++) {
		const struct sb_block_value *v = &t->rows[r];
		if (v->part >= lv->n_parts || v->arm >= t->n_arms)
			continue;
		unsigned char *h = &lv->has[v->part * t->n_arms + v->arm];
		*h = v->baseline ? 2 : *h ? *h : 1;
		lv->interleaved[v->part] |= (unsigned char)v->baseline;
		lv->start[v->part * t->n_arms + v->arm + 2]++;
	}
	/* A counting sort by (part, arm): each cell's rows in their order. */
	for (size_t k = 2; k < cells + 2; k++)
		lv->start[k] += lv->start[k - 1];
	for (size_t r = 0; r < t->n; r++) {
		const struct sb_block_value *v = &t->rows[r];
		if (v->part < lv->n_parts && v->arm < t->n_arms)
			lv->order[lv->start[v->part * t->n_arms + v->arm + 1]++] = r;
	}
	return split_states(lv, record_level, split);
}

static void view_free(struct log_view *lv)
{
	free(lv->state), free(lv->has), free(lv->interleaved), free(lv->start), free(lv->order);
}

/* The part where arm runs in a group of its own (no baseline beside it), or -1. */
static long own_part(const struct log_view *lv, long arm)
{
	for (size_t p = 0; arm >= 0 && p < lv->n_parts; p++)
		if (!lv->interleaved[p] && lv->has[p * lv->t->n_arms + (size_t)arm])
			return (long)p;
	return -1;
}

static void chosen_free(struct chosen *c)
{
	free(c->a), free(c->b), free(c->placement), free(c->process);
	memset(c, 0, sizeof(*c));
}

static int chosen_alloc(struct chosen *c, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->a = malloc((n ? n : 1) * sizeof(double));
	c->b = malloc((n ? n : 1) * sizeof(double));
	c->placement = malloc((n ? n : 1) * sizeof(size_t));
	c->process = malloc((n ? n : 1) * sizeof(size_t));
	return c->a && c->b && c->placement && c->process ? 0 : -1;
}

/* The row of arm other in row r's block, or -1: a block's rows are
 * adjacent (one per arm of its part). */
static long row_of_block(const struct sb_block_table *t, size_t r, long other)
{
	const struct sb_block_value *v = &t->rows[r];
	size_t k = r;
	while (k > 0 && same_block(&t->rows[k - 1], v))
		k--;
	for (; k < t->n && same_block(&t->rows[k], v); k++)
		if (t->rows[k].arm == (size_t)other)
			return (long)k;
	return -1;
}

/* Arm's blocks in part at batch in state into c (c->a); with other >= 0,
 * only blocks that also hold arm other, its value in c->b. */
static int choose(const struct log_view *lv, size_t part, long arm, long other, uint64_t batch,
		  enum sb_core_state state, struct chosen *c)
{
	const struct sb_block_table *t = lv->t;
	memset(c, 0, sizeof(*c));
	if (arm < 0 || part >= lv->n_parts)
		return chosen_alloc(c, 0);
	size_t cell = part * t->n_arms + (size_t)arm;
	if (chosen_alloc(c, lv->start[cell + 1] - lv->start[cell]) != 0)
		return -1;
	for (size_t i = lv->start[cell]; i < lv->start[cell + 1]; i++) {
		size_t r = lv->order[i];
		const struct sb_block_value *v = &t->rows[r];
		if (v->batch != batch || lv->state[r] != state)
			continue;
		long match = other < 0 ? (long)r : row_of_block(t, r, other);
		if (match < 0)
			continue;
		c->a[c->n] = v->value;
		c->b[c->n] = t->rows[match].value;
		c->placement[c->n] = v->state;
		c->process[c->n++] = v->process;
	}
	return 0;
}

/* a's own group against b's (sb_paired_between_placements), median or mean. */
static struct sb_estimate between(const struct log_view *lv, long a, long b, uint64_t batch,
				  enum sb_core_state state, int median, uint64_t seed)
{
	long pa = own_part(lv, a), pb = own_part(lv, b);
	if (pa < 0 || pb < 0)
		return sb_estimate_absent("no group of its own in the log (a run without --padded)");
	struct chosen ca = {0}, cb = {0};
	struct sb_paired p;
	struct sb_estimate e = sb_estimate_absent("out of memory");
	if (choose(lv, (size_t)pa, a, -1, batch, state, &ca) == 0 &&
	    choose(lv, (size_t)pb, b, -1, batch, state, &cb) == 0) {
		struct sb_arm_blocks ba = {ca.a, ca.placement, ca.process, ca.n, 0},
				     bb = {cb.a, cb.placement, cb.process, cb.n, 0};
		e = sb_estimate_absent("no placement and process in both in this state");
		if (ca.n && cb.n && sb_paired_between_placements(&ba, &bb, N_BOOT, seed, &p) == 0)
			e = median ? p.median : p.mean;
	}
	chosen_free(&ca);
	chosen_free(&cb);
	return e;
}

/* The batch sizes of arm's rows in part, ascending, into out (at most max). */
static size_t batches_of(const struct log_view *lv, size_t part, long arm, uint64_t *out, size_t max)
{
	const struct sb_block_table *t = lv->t;
	size_t n = 0, cell = part * t->n_arms + (size_t)arm;
	for (size_t i = lv->start[cell]; i < lv->start[cell + 1]; i++) {
		uint64_t batch = t->rows[lv->order[i]].batch;
		size_t k = 0;
		while (k < n && out[k] != batch)
			k++;
		if (k == n && n < max)
			out[n++] = batch;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && out[k - 1] > out[k]; k--) {
			uint64_t x = out[k];
			out[k] = out[k - 1], out[k - 1] = x;
		}
	return n;
}

static int push(struct sb_state_figures *s, const struct sb_state_figure *f)
{
	struct sb_state_figure *g = realloc(s->f, (s->n + 1) * sizeof(*g));
	if (!g)
		return -1;
	s->f = g;
	s->f[s->n++] = *f;
	return 0;
}

/* The padded baseline of variant name, by the registry; NULL: none. */
static const char *padded_name(const char *name)
{
	const struct sb_variant *v = sb_variant_padded_baseline_of(sb_variant_find(name));
	return v ? v->name : NULL;
}

/* Variant arm v of interleaved part p (baseline arm b): a figure per batch
 * size and state seen. */
static int variant_figures(const struct log_view *lv, size_t p, long v, long b, uint64_t seed,
			   struct sb_state_figures *s)
{
	const struct sb_block_table *t = lv->t;
	const char *pad = padded_name(t->arms[v]);
	long pv = pad ? sb_block_table_arm(t, pad) : -1;
	uint64_t batches[64];
	size_t nb = batches_of(lv, p, v, batches, 64);
	for (size_t bi = 0; bi < nb; bi++)
		for (int st = 0; st < SB_CORE_STATES; st++) {
			if (s->split.n[st] < SB_CORE_MIN_BLOCKS)
				continue;
			struct sb_state_figure f = {.batch = batches[bi], .state = (enum sb_core_state)st};
			snprintf(f.variant, sizeof(f.variant), "%s", t->arms[v]);
			snprintf(f.baseline, sizeof(f.baseline), "%s", t->arms[b]);
			snprintf(f.against, sizeof(f.against), "%s", pv >= 0 ? pad : "");
			struct chosen c;
			struct sb_paired pr;
			if (choose(lv, p, v, b, f.batch, f.state, &c) != 0)
				return chosen_free(&c), -1;
			f.blocks = c.n;
			uint64_t k = s->n * 3;
			f.vs_base = sb_estimate_absent("no block of both arms in this state");
			if (c.n && sb_paired_over_placements(c.a, c.b, c.placement, c.process, c.n, N_BOOT,
							     sb_seed_stream(seed, SB_SEED_BOOTSTRAP, k), &pr) == 0)
				f.vs_base = pr.mean;
			chosen_free(&c);
			f.codegen = pv >= 0 ? between(lv, v, pv, f.batch, f.state, 1,
						      sb_seed_stream(seed, SB_SEED_BOOTSTRAP, k + 1))
					    : sb_estimate_absent("no padded baseline in the log");
			f.total = between(lv, v, b, f.batch, f.state, 0, sb_seed_stream(seed, SB_SEED_BOOTSTRAP, k + 2));
			if (f.blocks >= SB_CORE_MIN_BLOCKS / 4 && push(s, &f) != 0)
				return -1;
		}
	return 0;
}

int sb_state_figures_of_blocks(const struct sb_block_table *t, double record_level, uint64_t seed,
			       struct sb_state_figures *out)
{
	memset(out, 0, sizeof(*out));
	struct log_view lv;
	int rc = view_make(t, record_level, &lv, &out->split);
	out->n_blocks = out->split.n[0] + out->split.n[1] + out->split.n[2];
	for (size_t p = 0; rc == 0 && p < lv.n_parts; p++) {
		long b = -1;
		for (size_t a = 0; lv.interleaved[p] && a < t->n_arms; a++)
			b = lv.has[p * t->n_arms + a] == 2 ? (long)a : b;
		for (size_t a = 0; rc == 0 && b >= 0 && a < t->n_arms; a++)
			if (lv.has[p * t->n_arms + a] == 1 && strcmp(t->arms[a], "overhead") != 0)
				rc = variant_figures(&lv, p, (long)a, b, seed, out);
	}
	view_free(&lv);
	if (rc != 0)
		sb_state_figures_free(out);
	return rc;
}

int sb_state_figures_compute(const struct sb_block_table *t, double record_level, uint64_t seed,
			     struct sb_state_figures *out, char *err, size_t errlen)
{
	if (sb_state_figures_of_blocks(t, record_level, seed, out) != 0)
		return sb_set_err(err, errlen, "out of memory"), -1;
	if (!out->n)
		return sb_set_err(err, errlen, "no variant beside its baseline in the log, in a state of %d blocks "
					       "or more", SB_CORE_MIN_BLOCKS), sb_state_figures_free(out), -1;
	return 0;
}

void sb_state_figures_free(struct sb_state_figures *s)
{
	free(s->f);
	memset(s, 0, sizeof(*s));
}

/* placement_states.c: see placement_states.h. */
#include "stats/placement_states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/stats.h"

/* Values closer than this (cycles per iteration) are one steady state:
 * the modes' rule for a cell's blocks (batch_summary.c). */
#define MODE_MIN_SEP 0.3

/* Block indices of one arm sorted by placement. */
struct by_place {
	const struct sb_arm_blocks *arm;
	size_t *idx;
};

static const struct sb_arm_blocks *sort_arm;

static int cmp_place(const void *x, const void *y)
{
	size_t a = sort_arm->placement[*(const size_t *)x], b = sort_arm->placement[*(const size_t *)y];
	return a < b ? -1 : a > b;
}

static int sort_by_place(const struct sb_arm_blocks *arm, struct by_place *out)
{
	out->arm = arm;
	out->idx = malloc((arm->n ? arm->n : 1) * sizeof(*out->idx));
	if (!out->idx)
		return -1;
	for (size_t i = 0; i < arm->n; i++)
		out->idx[i] = i;
	sort_arm = arm;
	qsort(out->idx, arm->n, sizeof(*out->idx), cmp_place);
	return 0;
}

/* The run of blocks at placement p from *at on (at moved past it): their
 * values in v, their count returned. */
static size_t values_at(const struct by_place *s, size_t p, size_t *at, double *v)
{
	size_t n = 0;
	while (*at < s->arm->n && s->arm->placement[s->idx[*at]] < p)
		(*at)++;
	while (*at < s->arm->n && s->arm->placement[s->idx[*at]] == p)
		v[n++] = s->arm->value[s->idx[(*at)++]];
	return n;
}

/* 1 when n values fall in more than one steady state, each of at least
 * two of them (one stray block is not a state). */
static int in_states(const double *v, size_t n)
{
	struct sb_mode m[SB_MAX_MODES];
	size_t k = sb_find_modes(v, n, MODE_MIN_SEP, m, SB_MAX_MODES, NULL);
	if (k < 2)
		return 0;
	for (size_t i = 0; i < k; i++)
		if (m[i].share * (double)n < 1.5)
			return 0;
	return 1;
}

/* The Wilson score interval of k in n, in %. */
static struct sb_estimate wilson_pct(size_t k, size_t n)
{
	const double z = 1.959964;
	double p = (double)k / (double)n, nn = (double)n;
	double mid = (p + z * z / (2 * nn)) / (1 + z * z / nn);
	double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / (1 + z * z / nn);
	return sb_estimate_of(100.0 * p, 100.0 * fmax(0.0, mid - half), 100.0 * fmin(1.0, mid + half));
}

int sb_placements_in_states(const struct sb_arm_blocks *a, const struct sb_arm_blocks *b,
			    struct sb_placement_states *out)
{
	memset(out, 0, sizeof(*out));
	out->share_pct = sb_estimate_absent("no placement with enough blocks of both arms");
	if (!a->n || !b->n || !a->placement || !b->placement)
		return 0;
	struct by_place sa = {0}, sb = {0};
	size_t most = a->n > b->n ? a->n : b->n;
	double *v = malloc(most * sizeof(*v));
	int rc = -1;
	if (!v || sort_by_place(a, &sa) != 0 || sort_by_place(b, &sb) != 0)
		goto out;
	for (size_t ia = 0, ib = 0; ia < a->n;) {
		size_t p = a->placement[sa.idx[ia]];
		size_t na = values_at(&sa, p, &ia, v);
		int multi = na >= SB_PLACEMENT_STATES_MIN_BLOCKS && in_states(v, na);
		size_t nb = values_at(&sb, p, &ib, v);
		if (na < SB_PLACEMENT_STATES_MIN_BLOCKS || nb < SB_PLACEMENT_STATES_MIN_BLOCKS)
			continue;
		multi |= in_states(v, nb);
		out->n++;
		out->multi += (size_t)multi;
	}
	if (out->n)
		out->share_pct = wilson_pct(out->multi, out->n);
	rc = 0;
out:
	free(v), free(sa.idx), free(sb.idx);
	return rc;
}

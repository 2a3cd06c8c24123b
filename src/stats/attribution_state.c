/* attribution_state.c: whether an attribution's parts add up, or the cost
 * is a state of the loop that any one of several parts moves it out of;
 * see attribution.h. */
#include "stats/attribution.h"

#include <math.h>

/* A part reads "about the whole cost" when its NOP figure is this share of
 * the total less layout, at least and at most. */
#define SHARE_MIN 0.5
#define SHARE_MAX 2.0
/* The parts' sum is "far from the total" when the interaction, opposite in
 * sign to the total less layout, is at least this share of it. */
#define FAR_SHARE 0.5

/* e has a CI and it excludes 0. */
static int excludes_zero(const struct sb_estimate *e)
{
	return sb_estimate_has_ci(e) && (e->lo > 0 || e->hi < 0);
}

/* The total less layout: what the parts, NOPed at the variant's layout, can
 * hold (the total where there is no layout figure). */
static double whole_of(const struct sb_attribution *t)
{
	if (sb_estimate_known(&t->layout) && isfinite(t->layout.value))
		return t->total.value - t->layout.value;
	return t->total.value;
}

/* Part k's NOP figure is real and reads about all of whole. */
static int reads_whole(const struct sb_estimate *nop, double whole)
{
	double share = nop->value / whole;
	return excludes_zero(nop) && share >= SHARE_MIN && share <= SHARE_MAX;
}

void sb_attribution_state_of(const struct sb_attribution *t, struct sb_attribution_state *s)
{
	s->n = 0;
	s->whole = whole_of(t);
	s->lo = s->hi = NAN;
	s->verdict = excludes_zero(&t->interaction) ? SB_ATTRIBUTION_NOT_ADDITIVE : SB_ATTRIBUTION_ADDITIVE;
	double w = s->whole, x = t->interaction.value;
	if (s->verdict == SB_ATTRIBUTION_ADDITIVE || !isfinite(w) || w == 0 || !(x * w < 0) ||
	    fabs(x) < FAR_SHARE * fabs(w))
		return;
	for (size_t k = 0; k < t->n_parts && k < SB_ATTRIBUTION_MAX_PARTS; k++) {
		if (!reads_whole(&t->nop[k], w))
			continue;
		double v = t->nop[k].value;
		s->lo = s->n && s->lo < v ? s->lo : v;
		s->hi = s->n && s->hi > v ? s->hi : v;
		s->part[s->n++] = k;
	}
	if (s->n >= 2)
		s->verdict = SB_ATTRIBUTION_STATE;
	else
		s->n = 0, s->lo = s->hi = NAN;
}

const char *sb_attribution_verdict_name(const struct sb_attribution *t)
{
	struct sb_attribution_state s;
	sb_attribution_state_of(t, &s);
	if (s.verdict == SB_ATTRIBUTION_STATE)
		return "loop state";
	return s.verdict == SB_ATTRIBUTION_NOT_ADDITIVE ? "not additive" : "additive";
}

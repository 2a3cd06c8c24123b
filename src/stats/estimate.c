/* estimate.c: figures with their CIs, or why there are none; see estimate.h. */
#include "stubbench/estimate.h"

#include <math.h>

#include "stubbench/stats.h"

struct sb_estimate sb_estimate_of(double value, double lo, double hi)
{
	return (struct sb_estimate){value, lo, hi, 1, NULL};
}

struct sb_estimate sb_estimate_absent(const char *why)
{
	return (struct sb_estimate){NAN, NAN, NAN, 0, why};
}

int sb_estimate_known(const struct sb_estimate *e)
{
	return e->known;
}

int sb_estimate_has_ci(const struct sb_estimate *e)
{
	return e->known && isfinite(e->value) && isfinite(e->lo) && isfinite(e->hi);
}

struct sb_estimate sb_estimate_scaled(const struct sb_estimate *e, double k)
{
	if (!e->known)
		return *e;
	return sb_estimate_of(e->value * k, e->lo * k, e->hi * k);
}

struct sb_estimate sb_estimate_pct_to_cycles(const struct sb_estimate *pct, double base)
{
	if (!pct->known)
		return *pct;
	if (!isfinite(base))
		return sb_estimate_absent("the baseline has no cost to scale by");
	return sb_estimate_scaled(pct, base / 100.0);
}

struct sb_estimate sb_estimate_difference(const struct sb_estimate *a, const struct sb_estimate *b)
{
	if (!a->known || !b->known)
		return sb_estimate_absent(!a->known ? (a->absent ? a->absent : "no figure")
						    : (b->absent ? b->absent : "no figure"));
	double v = a->value - b->value;
	if (!sb_estimate_has_ci(a) || !sb_estimate_has_ci(b))
		return sb_estimate_of(v, NAN, NAN);
	return sb_estimate_of(v, v - hypot(a->value - a->lo, b->hi - b->value),
			      v + hypot(a->hi - a->value, b->value - b->lo));
}

struct sb_estimate sb_summary_estimate(const struct sb_summary *s, const char *why)
{
	if (!s->n)
		return sb_estimate_absent(why ? why : "no samples");
	return s->n > 1 ? sb_estimate_of(s->mean, s->ci_lo, s->ci_hi) : sb_estimate_of(s->mean, NAN, NAN);
}

/* compare_change.c: one figure's change between two runs; see compare_change.h. */
#include "compare/compare_change.h"

#include <math.h>
#include <string.h>

int sb_compare_metric_parse(const char *s, enum sb_compare_metric *out)
{
	if (s && strcmp(s, "cycles") == 0) {
		*out = SB_METRIC_CYCLES;
		return 0;
	}
	int i = sb_figure_index(s);
	if (i < 0)
		return -1;
	*out = (enum sb_compare_metric)i;
	return 0;
}

const char *sb_compare_metric_name(enum sb_compare_metric m)
{
	return m == SB_METRIC_CYCLES ? "cycles" : sb_figure_at((size_t)m)->name;
}

int sb_compare_as_difference(enum sb_compare_metric m)
{
	return m != SB_METRIC_CYCLES && sb_figure_at((size_t)m)->change_as_difference;
}

static const struct sb_estimate *pick(const struct sb_run_row *r, enum sb_compare_metric m)
{
	return m == SB_METRIC_CYCLES ? &r->cycles : &r->figures[m];
}

int sb_compare_change(const struct sb_run_row *a, const struct sb_run_row *b, enum sb_compare_metric m,
		      struct sb_change *c)
{
	memset(c, 0, sizeof(*c));
	c->a = *pick(a, m);
	c->b = *pick(b, m);
	const struct sb_estimate *ea = &c->a, *eb = &c->b;
	if (!sb_estimate_has_ci(ea) || !sb_estimate_has_ci(eb))
		return -1;
	if (ea->lo > ea->value || ea->value > ea->hi || eb->lo > eb->value || eb->value > eb->hi)
		return -1;
	c->overlap = ea->lo <= eb->hi && eb->lo <= ea->hi;
	if (sb_compare_as_difference(m)) {
		double change = eb->value - ea->value;
		c->change = sb_estimate_of(change, change - hypot(eb->value - eb->lo, ea->hi - ea->value),
					   change + hypot(eb->hi - eb->value, ea->value - ea->lo));
		return 0;
	}
	if (!(ea->value > 0) || !(eb->value > 0))
		return -1;
	double ratio = eb->value / ea->value;
	c->change = sb_estimate_of(
		(ratio - 1) * 100,
		(ratio * (1 - hypot((eb->value - eb->lo) / eb->value, (ea->hi - ea->value) / ea->value)) - 1) * 100,
		(ratio * (1 + hypot((eb->hi - eb->value) / eb->value, (ea->value - ea->lo) / ea->value)) - 1) * 100);
	return 0;
}

/* compare.c: two saved runs side by side; see compare.h. */
#include "stubbench/compare.h"

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

/* The metric's change is B - A in its unit (not B / A - 1). */
static int as_difference(enum sb_compare_metric m)
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
	if (as_difference(m)) {
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

static void header(FILE *f, const char *which, const struct sb_run_file *r)
{
	fprintf(f, "# %s: %s (%s, %s; %s; %s; git %s)\n", which, r->path, r->tool[0] ? r->tool : "?",
		r->machine[0] ? r->machine : "machine unknown", r->kernel[0] ? r->kernel : "kernel unknown",
		r->date[0] ? r->date : "date unknown", r->git[0] ? r->git : "unknown");
}

static void only_in(FILE *f, const char *which, const struct sb_run_file *r, const struct sb_run_file *other)
{
	int first = 1;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct sb_run_row *row = &r->rows[i];
		if (sb_run_file_match(other, row))
			continue;
		fprintf(f, "%s%s-%llu", first ? (which[0] == 'A' ? "# only in A: " : "# only in B: ") : ", ",
			row->variant, (unsigned long long)row->batch);
		first = 0;
	}
	if (!first)
		fputc('\n', f);
}

size_t sb_compare_write(FILE *f, const struct sb_run_file *a, const struct sb_run_file *b,
			enum sb_compare_metric m)
{
	header(f, "A", a);
	header(f, "B", b);
	if (m == SB_METRIC_CYCLES)
		fprintf(f, "# cycles: core cycles per iteration, 95 %% CI; change: B / A - 1, %%\n");
	else if (as_difference(m))
		fprintf(f, "# %s: %s, 95 %% CI; change: B - A%s\n", sb_figure_at((size_t)m)->name,
			sb_figure_at((size_t)m)->title, strcmp(sb_figure_at((size_t)m)->unit, "%") ? "" : " in percentage points");
	else
		fprintf(f, "# %s: %s, 95 %% CI; change: B / A - 1, %%\n", sb_figure_at((size_t)m)->name,
			sb_figure_at((size_t)m)->title);
	fprintf(f, "# change CI: the two CIs' half-widths added in quadrature (A, B independent);\n"
		   "# '*': the CIs of A and B do not overlap\n");
	int w = 16;
	for (size_t i = 0; i < a->n_rows; i++)
		if ((int)strlen(a->rows[i].variant) > w)
			w = (int)strlen(a->rows[i].variant);
	fprintf(f, "%-*s %6s %26s %26s %28s\n", w, "variant", "batch", "A", "B", "change");
	size_t flagged = 0, shown = 0;
	const char *unit = m == SB_METRIC_CYCLES ? "" : sb_figure_at((size_t)m)->unit;
	const char *change_unit = as_difference(m) ? (strcmp(unit, "%") ? "" : "pp") : "%";
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct sb_run_row *ra = &a->rows[i];
		const struct sb_run_row *rb = sb_run_file_match(b, ra);
		struct sb_change c;
		if (!rb || sb_compare_change(ra, rb, m, &c) != 0)
			continue;
		char sa[48], sbb[48], sc[48];
		snprintf(sa, sizeof(sa), "%+.2f%s [%+.2f, %+.2f]", c.a.value, unit, c.a.lo, c.a.hi);
		snprintf(sbb, sizeof(sbb), "%+.2f%s [%+.2f, %+.2f]", c.b.value, unit, c.b.lo, c.b.hi);
		if (m == SB_METRIC_CYCLES) {
			snprintf(sa, sizeof(sa), "%.2f [%.2f, %.2f]", c.a.value, c.a.lo, c.a.hi);
			snprintf(sbb, sizeof(sbb), "%.2f [%.2f, %.2f]", c.b.value, c.b.lo, c.b.hi);
		}
		snprintf(sc, sizeof(sc), "%+.2f%s [%+.2f, %+.2f]", c.change.value, change_unit,
			 c.change.lo, c.change.hi);
		fprintf(f, "%-*s %6llu %26s %26s %28s%s\n", w, ra->variant, (unsigned long long)ra->batch, sa, sbb,
			sc, c.overlap ? "" : " *");
		flagged += !c.overlap;
		shown++;
	}
	if (!shown)
		fprintf(f, "# no variant and batch has the %s metric in both runs\n", sb_compare_metric_name(m));
	only_in(f, "A", a, b);
	only_in(f, "B", b, a);
	fprintf(f, "# %zu of %zu compared rows differ (CIs do not overlap)\n", flagged, shown);
	return flagged;
}

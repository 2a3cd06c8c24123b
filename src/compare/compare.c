/* compare.c: two saved runs side by side; see compare.h. */
#include "compare/compare.h"

#include <math.h>
#include <string.h>

static void header(FILE *f, const char *which, const struct sb_run_file *r)
{
	fprintf(f, "# %s: %s (%s, %s; %s; %s; git %s)\n", which, r->path, r->tool[0] ? r->tool : "?",
		r->machine[0] ? r->machine : "machine unknown", r->kernel[0] ? r->kernel : "kernel unknown",
		r->date[0] ? r->date : "date unknown", r->git[0] ? r->git : "unknown");
}

/* x with two decimals, or in three significant digits when large. */
static const char *num(char *buf, size_t len, double x, int sign)
{
	if (fabs(x) < 1e6)
		snprintf(buf, len, sign ? "%+.2f" : "%.2f", x);
	else
		snprintf(buf, len, sign ? "%+.3g" : "%.3g", x);
	return buf;
}

/* "V [LO, HI]" with unit after V. */
static void with_ci(char *out, size_t len, const struct sb_estimate *e, const char *unit, int sign)
{
	char v[24], lo[24], hi[24];
	snprintf(out, len, "%s%s [%s, %s]", num(v, sizeof(v), e->value, sign), unit, num(lo, sizeof(lo), e->lo, sign),
		 num(hi, sizeof(hi), e->hi, sign));
}

/* The cells of r not in other, on one line of at most about 100 columns. */
static void only_in(FILE *f, const char *which, const struct sb_run_file *r, const struct sb_run_file *other)
{
	size_t n = 0, col = 0;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct sb_run_row *row = &r->rows[i];
		if (sb_run_file_match(other, row))
			continue;
		char cell[160];
		snprintf(cell, sizeof(cell), "%s-%llu", row->variant, (unsigned long long)row->batch);
		if (n == 0)
			col = (size_t)fprintf(f, "# only in %s: %s", which, cell);
		else if (col + strlen(cell) + 2 <= 88)
			col += (size_t)fprintf(f, ", %s", cell);
		else
			col = 1000;
		n++;
	}
	if (n && col == 1000)
		fprintf(f, ", ... (%zu in all)\n", n);
	else if (n)
		fputc('\n', f);
}

/* The run holds at least one result with samples. */
static int has_samples(const struct sb_run_file *r)
{
	for (size_t i = 0; i < r->n_rows; i++)
		if (r->rows[i].samples > 0 || sb_estimate_known(&r->rows[i].cycles))
			return 1;
	return 0;
}

int sb_compare_check(const struct sb_run_file *a, const struct sb_run_file *b, enum sb_compare_metric m,
		     char *err, size_t errlen)
{
	if (a->tool[0] && b->tool[0] && strcmp(a->tool, b->tool) != 0) {
		snprintf(err, errlen, "A is a run of '%s', B one of '%s': different kinds of run", a->tool, b->tool);
		return -1;
	}
	for (int k = 0; k < 2; k++) {
		const struct sb_run_file *r = k ? b : a;
		if (!has_samples(r)) {
			snprintf(err, errlen, "%s (%s): no result of the run has samples", k ? "B" : "A", r->path);
			return -1;
		}
	}
	/* Runs in different core states: their rows are not compared (the
	 * states' figures are, sb_compare_states_write). */
	if (!sb_compare_same_state(a, b))
		return 0;
	size_t common = 0, compared = 0;
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct sb_run_row *rb = sb_run_file_match(b, &a->rows[i]);
		struct sb_change c;
		common += rb != NULL;
		compared += rb && sb_compare_change(&a->rows[i], rb, m, &c) == 0;
	}
	if (!common) {
		snprintf(err, errlen, "no cell (variant at a batch size) of A is in B");
		return -1;
	}
	if (!compared) {
		snprintf(err, errlen, "none of the %zu cells in both runs has the %s metric with a CI in both", common,
			 sb_compare_metric_name(m));
		return -1;
	}
	return 0;
}

/* A change of 1000 % or more in a ratio: its own line saying why. */
static void note_large(FILE *f, const struct sb_run_row *ra, const struct sb_change *c)
{
	char v[24], x[24], y[24];
	fprintf(f, "#   %s at batch %llu: a change of %s %% is B / A of two figures of which A (%s) is small\n"
		   "#   against B (%s): the cost in A is near zero, e.g. after the overhead subtracted\n",
		ra->variant, (unsigned long long)ra->batch, num(v, sizeof(v), c->change.value, 1),
		num(x, sizeof(x), c->a.value, 0), num(y, sizeof(y), c->b.value, 0));
}

static void metric_header(FILE *f, enum sb_compare_metric m)
{
	if (m == SB_METRIC_CYCLES)
		fprintf(f, "# cycles: core cycles per iteration, 95 %% CI; change: B / A - 1, %%\n");
	else if (sb_compare_as_difference(m))
		fprintf(f, "# %s: %s, 95 %% CI; change: B - A%s\n", sb_figure_at((size_t)m)->name,
			sb_figure_at((size_t)m)->title, strcmp(sb_figure_at((size_t)m)->unit, "%") ? "" : " in percentage points");
	else
		fprintf(f, "# %s: %s, 95 %% CI; change: B / A - 1, %%\n", sb_figure_at((size_t)m)->name,
			sb_figure_at((size_t)m)->title);
	fprintf(f, "# change CI: the two CIs' half-widths added in quadrature (A, B independent);\n"
		   "# '*': the CIs of A and B do not overlap\n");
}

size_t sb_compare_write(FILE *f, const struct sb_run_file *a, const struct sb_run_file *b,
			enum sb_compare_metric m)
{
	header(f, "A", a);
	header(f, "B", b);
	size_t by_state = sb_compare_states_write(f, a, b);
	if (!sb_compare_same_state(a, b)) {
		fprintf(f, "# %zu of the states' compared rows differ (CIs do not overlap)\n", by_state);
		return by_state;
	}
	metric_header(f, m);
	int w = 16;
	for (size_t i = 0; i < a->n_rows; i++)
		if ((int)strlen(a->rows[i].variant) > w)
			w = (int)strlen(a->rows[i].variant);
	fprintf(f, "%-*s %6s %26s %26s %28s\n", w, "variant", "batch", "A", "B", "change");
	size_t flagged = 0, shown = 0;
	const char *unit = m == SB_METRIC_CYCLES ? "" : sb_figure_at((size_t)m)->unit;
	const char *change_unit = sb_compare_as_difference(m) ? (strcmp(unit, "%") ? "" : "pp") : "%";
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct sb_run_row *ra = &a->rows[i];
		const struct sb_run_row *rb = sb_run_file_match(b, ra);
		struct sb_change c;
		if (!rb || sb_compare_change(ra, rb, m, &c) != 0)
			continue;
		char sa[80], sbb[80], sc[80];
		with_ci(sa, sizeof(sa), &c.a, unit, m != SB_METRIC_CYCLES);
		with_ci(sbb, sizeof(sbb), &c.b, unit, m != SB_METRIC_CYCLES);
		with_ci(sc, sizeof(sc), &c.change, change_unit, 1);
		fprintf(f, "%-*s %6llu %26s %26s %28s%s\n", w, ra->variant, (unsigned long long)ra->batch, sa, sbb,
			sc, c.overlap ? "" : " *");
		if (!sb_compare_as_difference(m) && fabs(c.change.value) >= 1000)
			note_large(f, ra, &c);
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

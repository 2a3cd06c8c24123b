/* footprint_answer.c: stubbench footprint's lines of the summary (an
 * sb_answer_fn, answer.h), from a run's rows alone, so that the live run
 * and `stubbench report` of its JSON print the same: the first variant
 * against the baseline, added cycles per call by copies (rows) and layout
 * (columns), then whether the figures are known to hold for the next run. */
#include "answer/footprint_answer.h"

#include <stdlib.h>
#include <string.h>

#include "output/text_grid.h"
#include "stubbench/estimate.h"
#include "output/figures.h"

/* A row's arm name, "<variant>@<layout>/<copies>", taken apart. 0: not one. */
static int fp_name(const struct sb_run_row *r, char *variant, size_t vlen, char *layout, size_t llen,
		   unsigned long long *copies)
{
	const char *at = strrchr(r->variant, '@'), *slash = at ? strchr(at, '/') : NULL;
	if (!at || !slash || slash[1] < '0' || slash[1] > '9')
		return 0;
	snprintf(variant, vlen, "%.*s", (int)(at - r->variant), r->variant);
	snprintf(layout, llen, "%.*s", (int)(slash - at - 1), at + 1);
	*copies = strtoull(slash + 1, NULL, 10);
	return 1;
}

/* The row of variant at layout and copies, or NULL. */
static const struct sb_run_row *fp_find(const struct sb_run_file *rf, const char *variant, const char *layout,
					unsigned long long copies)
{
	char name[200];
	snprintf(name, sizeof(name), "%s@%s/%llu", variant, layout, copies);
	for (size_t i = 0; i < rf->n_rows; i++)
		if (strcmp(rf->rows[i].variant, name) == 0)
			return &rf->rows[i];
	return NULL;
}

/* What the summary shows of r: the range for the next run in cycles where
 * the record of past runs gave one (next = 1), else this run's CI. */
static struct sb_estimate fp_figure(const struct sb_run_row *r, const struct sb_run_row *base, int next)
{
	if (!next)
		return r->figures[sb_figure_index("delta-cycles")];
	return sb_estimate_pct_to_cycles(&r->figures[sb_figure_index("next-run")], base->cycles.value);
}

/* The layouts, copies and variants of the run, in the rows' order. */
struct fp_shape {
	char base[128], lead[128], layouts[2][32];
	unsigned long long copies[16];
	size_t n_layouts, n_copies, n_variants;
	int next; /* every lead row has a range for the next run */
};

static void fp_shape_of(const struct sb_run_file *rf, struct fp_shape *s)
{
	memset(s, 0, sizeof(*s));
	s->next = 1;
	char v[128], l[32], seen[8][128];
	unsigned long long n;
	for (size_t i = 0; i < rf->n_rows; i++) {
		if (!fp_name(&rf->rows[i], v, sizeof(v), l, sizeof(l), &n))
			continue;
		if (!s->base[0])
			snprintf(s->base, sizeof(s->base), "%s", v);
		else if (!s->lead[0] && strcmp(v, s->base) != 0)
			snprintf(s->lead, sizeof(s->lead), "%s", v);
		size_t k = 0;
		while (k < s->n_variants && k < 8 && strcmp(seen[k], v) != 0)
			k++;
		if (k == s->n_variants && k < 8)
			snprintf(seen[s->n_variants++], sizeof(seen[0]), "%s", v);
		k = 0;
		while (k < s->n_layouts && strcmp(s->layouts[k], l) != 0)
			k++;
		if (k == s->n_layouts && k < 2)
			snprintf(s->layouts[s->n_layouts++], sizeof(s->layouts[0]), "%s", l);
		k = 0;
		while (k < s->n_copies && s->copies[k] != n)
			k++;
		if (k == s->n_copies && k < 16)
			s->copies[s->n_copies++] = n;
		if (s->lead[0] && strcmp(v, s->lead) == 0 &&
		    !sb_estimate_has_ci(&rf->rows[i].figures[sb_figure_index("next-run")]))
			s->next = 0;
	}
}

/* The grid of the lead variant's figures: a row per copies, a column per layout. */
static void fp_grid(const struct sb_run_file *rf, const struct fp_shape *s, struct sb_grid *g, size_t n_rows)
{
	int cc = sb_grid_col(g, "copies", 0, 1, -1), cl[2];
	for (size_t k = 0; k < s->n_layouts; k++)
		cl[k] = sb_grid_col(g, s->layouts[k], 1, 0, -1);
	for (size_t c = 0; c < s->n_copies && c < n_rows; c++) {
		long row = sb_grid_row(g);
		sb_grid_set(g, row, cc, "%llu", s->copies[c]);
		for (size_t k = 0; k < s->n_layouts; k++) {
			const struct sb_run_row *r = fp_find(rf, s->lead, s->layouts[k], s->copies[c]);
			const struct sb_run_row *b = fp_find(rf, s->base, s->layouts[k], s->copies[c]);
			struct sb_estimate e = r && b ? fp_figure(r, b, s->next) : sb_estimate_absent("no row");
			char buf[64];
			sb_answer_estimate(buf, sizeof(buf), &e, 1);
			const char *w = sb_answer_faster(&e);
			sb_grid_set(g, row, cl[k], "%s%s%s%s", buf, w[0] ? " (" : "", w, w[0] ? ")" : "");
		}
	}
}

int sb_footprint_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	struct fp_shape s;
	fp_shape_of(rf, &s);
	if (!s.lead[0] || max_lines < 5) {
		fprintf(f, "no variant beside the baseline: every cell's cost per call: --table\n");
		return 1;
	}
	fprintf(f, "%s vs %s, cycles added per call (%s):\n", s.lead, s.base,
		s.next ? "95 % range for the next run, past runs" : "95 % CI");
	/* Lines: the title, the grid's header and rows, the note on the next
	 * run, the more-variants line and the last line. */
	int more = s.n_variants > 2;
	size_t n_rows = s.n_copies;
	if ((int)n_rows > max_lines - 4 - more)
		n_rows = (size_t)(max_lines - 4 - more);
	struct sb_grid g = {0};
	fp_grid(rf, &s, &g, n_rows);
	sb_grid_print(f, &g, SB_ANSWER_MAX_COLUMNS);
	sb_grid_free(&g);
	int lines = 2 + (int)n_rows;
	if (!s.next)
		fprintf(f, "within this run only: whole runs have moved these by more (a next-run range needs 5 past runs)\n");
	else
		fprintf(f, "each range holds the next run's figure (drawn from the record of past runs)\n");
	if (more)
		fprintf(f, "(%zu more variants%s: --table)\n", s.n_variants - 2,
			n_rows < s.n_copies ? ", more copies" : "");
	fprintf(f, "every layout, copies and variant: --table; every figure: --format=json\n");
	return lines + 2 + more;
}

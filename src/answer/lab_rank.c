/* lab_rank.c: the lab's alternatives ranked per return flavour and shape;
 * see lab_rank.h. */
#include "answer/lab_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "output/json_doc.h"

#include "output/text_grid.h"

static const char *const lab_returns[] = {"ret", "rethunk", "calldepth", "srso", "srso-alias"};
static const char *const lab_shapes[] = {"per-run", "in-loop"};
#define N_RETURNS (sizeof(lab_returns) / sizeof(lab_returns[0]))
#define N_SHAPES (sizeof(lab_shapes) / sizeof(lab_shapes[0]))
#define CONTROL "placement-control"

const char *sb_lab_rank_return_of(const char *thunk)
{
	static const struct {
		const char *symbol, *ret;
	} map[] = {{"srso_alias_return_thunk", "srso-alias"}, {"srso_return_thunk", "srso"},
		   {"call_depth_return_thunk", "calldepth"},     {"its_return_thunk", "rethunk"},
		   {"__x86_return_thunk", "rethunk"},           {"retbleed_return_thunk", "rethunk"}};
	for (size_t i = 0; thunk && i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(thunk, map[i].symbol) == 0)
			return map[i].ret;
	return "ret";
}

/* a - b, their CIs added in quadrature side by side. */
static struct sb_estimate difference(const struct sb_estimate *a, const struct sb_estimate *b)
{
	if (!sb_estimate_has_ci(a) || !sb_estimate_has_ci(b))
		return sb_estimate_absent("no CI");
	double d = a->value - b->value;
	return sb_estimate_of(d, d - hypot(a->value - a->lo, b->hi - b->value),
			      d + hypot(a->hi - a->value, b->value - b->lo));
}

static int lab_row(const struct sb_run_row *r, const char *ret, const char *shape, uint64_t batch)
{
	return r->key.side == SB_SIDE_LAB && r->key.placement < 0 && r->batch == batch &&
	       strcmp(r->key.ret, ret) == 0 && strcmp(r->key.shape, shape) == 0;
}

/* Every alternative of the group has a delta with a CI at batch (and there is one). */
static int batch_complete(const struct sb_run_file *rf, const char *ret, const char *shape, uint64_t batch)
{
	int n = 0;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		if (!lab_row(r, ret, shape, batch) || strcmp(r->key.codegen, "baseline") == 0)
			continue;
		if (!sb_estimate_has_ci(&r->figures[SB_FIGURE_DELTA]))
			return 0;
		n++;
	}
	return n > 0;
}

static int by_cost(const void *a, const void *b)
{
	double x = ((const struct sb_lab_ranked *)a)->cost.value, y = ((const struct sb_lab_ranked *)b)->cost.value;
	return (x > y) - (x < y);
}

/* The group's alternatives at batch: costs, then the differences. */
static void fill(const struct sb_run_file *rf, struct sb_lab_rank *out)
{
	const struct sb_run_row *base = NULL;
	for (size_t i = 0; i < rf->n_rows && !base; i++)
		if (lab_row(&rf->rows[i], out->ret, out->shape, out->batch) &&
		    strcmp(rf->rows[i].key.codegen, "baseline") == 0)
			base = &rf->rows[i];
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		if (!lab_row(r, out->ret, out->shape, out->batch) || r == base)
			continue;
		struct sb_lab_ranked x = {.row = r};
		x.cost = base ? sb_estimate_pct_to_cycles(&r->figures[SB_FIGURE_DELTA], base->cycles.value) : sb_estimate_absent(NULL);
		if (strcmp(r->key.codegen, CONTROL) == 0)
			out->control = x;
		else if (out->n < SB_LAB_RANK_MAX)
			out->alt[out->n++] = x;
	}
	qsort(out->alt, out->n, sizeof(out->alt[0]), by_cost);
	const struct sb_lab_ranked *mainline = NULL;
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->alt[i].row->key.codegen, "mainline") == 0)
			mainline = &out->alt[i];
	struct sb_estimate ml = mainline ? mainline->cost : sb_estimate_absent(NULL);
	for (size_t i = 0; i < out->n; i++) {
		struct sb_lab_ranked *x = &out->alt[i];
		x->vs_mainline = difference(&x->cost, &ml);
		x->vs_control = out->control.row ? difference(&x->cost, &out->control.cost) : sb_estimate_absent(NULL);
		x->like_control = sb_estimate_has_ci(&x->vs_control) && x->vs_control.lo <= 0 && x->vs_control.hi >= 0;
	}
}

int sb_lab_rank(const struct sb_run_file *rf, const char *ret, const char *shape, struct sb_lab_rank *out)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->ret, sizeof(out->ret), "%s", ret);
	snprintf(out->shape, sizeof(out->shape), "%s", shape);
	out->cheapest = -1;
	out->margin = sb_estimate_absent("no alternative is cheapest beyond the CIs");
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		if (lab_row(r, ret, shape, r->batch) && r->batch > out->batch && batch_complete(rf, ret, shape, r->batch))
			out->batch = r->batch;
	}
	if (!out->batch)
		return -1;
	fill(rf, out);
	if (out->n == 0)
		return -1;
	if (out->n == 1) {
		out->cheapest = 0;
		return 0;
	}
	/* Cheapest beyond the CIs: below every other, the next cheapest included. */
	int holds = 1;
	for (size_t i = 1; i < out->n && holds; i++) {
		struct sb_estimate d = difference(&out->alt[0].cost, &out->alt[i].cost);
		holds = sb_estimate_has_ci(&d) && d.hi < 0;
	}
	if (holds) {
		out->cheapest = 0;
		out->margin = difference(&out->alt[1].cost, &out->alt[0].cost);
	}
	return 0;
}

void sb_lab_rank_table(FILE *f, const struct sb_run_file *rf)
{
	fprintf(f, "# lab ranking: cycles per iteration added to the group's baseline (95 %% CI), cheapest\n"
		   "# first; vs mainline, vs control: the difference (CIs in quadrature); '=control':\n"
		   "# indistinguishable from the placement control (the CI of the difference holds 0)\n");
	struct sb_grid g = {0};
	int cr = sb_grid_col(&g, "return", 1, 1, -1), cs = sb_grid_col(&g, "shape", 1, 1, -1);
	int cb = sb_grid_col(&g, "batch", 0, 1, -1), ca = sb_grid_col(&g, "alternative", 1, 1, -1);
	int cc = sb_grid_col(&g, "cost", 1, 0, -1), cm = sb_grid_col(&g, "vs mainline", 1, 0, -1);
	int cv = sb_grid_col(&g, "vs control", 1, 0, -1), cn = sb_grid_col(&g, "", 1, 0, -1);
	for (size_t r = 0; r < N_RETURNS; r++)
		for (size_t s = 0; s < N_SHAPES; s++) {
			struct sb_lab_rank k;
			if (sb_lab_rank(rf, lab_returns[r], lab_shapes[s], &k) != 0)
				continue;
			for (size_t i = 0; i <= k.n; i++) {
				const struct sb_lab_ranked *x = i < k.n ? &k.alt[i] : &k.control;
				if (!x->row)
					continue;
				char c[48], m[48], v[48];
				sb_answer_estimate(c, sizeof(c), &x->cost, 1);
				sb_answer_estimate(m, sizeof(m), &x->vs_mainline, 1);
				sb_answer_estimate(v, sizeof(v), &x->vs_control, 1);
				long row = sb_grid_row(&g);
				sb_grid_set(&g, row, cr, "%s", k.ret);
				sb_grid_set(&g, row, cs, "%s", k.shape);
				sb_grid_set(&g, row, cb, "%llu", (unsigned long long)k.batch);
				sb_grid_set(&g, row, ca, "%s", x->row->key.codegen);
				sb_grid_set(&g, row, cc, "%s", c);
				sb_grid_set(&g, row, cm, "%s", i < k.n ? m : "");
				sb_grid_set(&g, row, cv, "%s", i < k.n ? v : "");
				int cheapest = (int)i == k.cheapest;
				sb_grid_set(&g, row, cn, "%s%s%s", x->like_control ? "=control" : "",
					    x->like_control && cheapest ? " " : "", cheapest ? "cheapest" : "");
			}
		}
	sb_grid_print(f, &g, SB_TABLE_MAX_COLUMNS);
	sb_grid_free(&g);
}

/* A point estimate to one decimal, never "-0.0". */
static double one_decimal(double v)
{
	return fabs(v) < 0.05 ? 0 : v;
}

/* One shape's ranking for the summary: the order with costs, the cheapest
 * with its margin, those like the control. Returns the lines printed. */
static int shape_lines(FILE *f, const struct sb_lab_rank *k)
{
	char buf[64], line[512];
	size_t n_line = (size_t)snprintf(line, sizeof(line), "  %-7s @%llu:", k->shape, (unsigned long long)k->batch);
	int minus = 0; /* a cost below zero: the line says what that means */
	for (size_t i = 0; i < k->n && n_line < sizeof(line); i++) {
		minus |= one_decimal(k->alt[i].cost.value) < 0;
		n_line += (size_t)snprintf(line + n_line, sizeof(line) - n_line, " %s %+.1f%s", k->alt[i].row->key.codegen,
					   one_decimal(k->alt[i].cost.value), i + 1 < k->n ? " <" : "");
	}
	if (k->control.row && n_line < sizeof(line))
		snprintf(line + n_line, sizeof(line) - n_line, "; control %+.1f", one_decimal(k->control.cost.value));
	fprintf(f, "%s%s\n", line, minus && strlen(line) + 11 <= SB_ANSWER_MAX_COLUMNS ? "; -: faster" : "");
	if (k->cheapest >= 0) {
		sb_answer_estimate(buf, sizeof(buf), &k->margin, 1);
		fprintf(f, "    cheapest: %s, by %s cycles over the next", k->alt[k->cheapest].row->key.codegen,
			sb_estimate_known(&k->margin) ? buf : "n/a");
	} else {
		fprintf(f, "    cheapest: none beyond the CIs");
	}
	int n = 0;
	for (size_t i = 0; i < k->n; i++)
		if (k->alt[i].like_control)
			fprintf(f, "%s%s", n++ ? ", " : "; like the control: ", k->alt[i].row->key.codegen);
	if (!n)
		fprintf(f, "; none like the control");
	fputc('\n', f);
	return 2;
}

int sb_lab_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	const char *ret = sb_lab_rank_return_of(rf->thunk);
	int lines = 0;
	/* The terms before the lines that use them: the figures, the
	 * control, cheapest and like the control. */
	fprintf(f, "cost added to the baseline, cycles per iteration, placed at random, returning as here (%s);\n"
		   "control: the baseline's own bytes at another address, what placement alone moves the cost;\n"
		   "cheapest: beyond the CIs of the differences; like the control: the CI holds 0; below 0: faster\n", ret);
	lines += 3;
	/* Which figure answers what, after the rankings (the last line's room
	 * is the pointer's to the rest). */
	int ranked = 0;
	for (size_t s = 0; s < N_SHAPES && lines + 2 + 1 <= max_lines; s++) {
		struct sb_lab_rank k;
		if (sb_lab_rank(rf, ret, lab_shapes[s], &k) == 0) {
			lines += shape_lines(f, &k);
			ranked |= k.control.row != NULL;
		}
	}
	if (ranked && lines < max_lines) {
		fprintf(f, "quote vs control (--table) for what the code adds, the cost for what a placed load pays here\n");
		lines++;
	}
	if (lines < max_lines) {
		fprintf(f, "every return flavour ranked: --table; every figure: --format=json\n");
		lines++;
	}
	return lines;
}


void sb_lab_rank_doc(struct sb_doc *doc, const struct sb_run_file *rf)
{
	struct sb_doc *ranking = sb_doc_array(doc, "lab_ranking");
	for (size_t r = 0; r < N_RETURNS; r++)
		for (size_t s = 0; s < N_SHAPES; s++) {
			struct sb_lab_rank k;
			if (sb_lab_rank(rf, lab_returns[r], lab_shapes[s], &k) != 0)
				continue;
			sb_doc_break(ranking, "\n    ");
			struct sb_doc *o = sb_doc_object(ranking, NULL);
			sb_doc_string(o, "return", k.ret);
			sb_doc_string(o, "shape", k.shape);
			sb_doc_uint(o, "batch", k.batch);
			if (k.cheapest >= 0)
				sb_doc_string(o, "cheapest", k.alt[k.cheapest].row->key.codegen);
			else
				sb_doc_null(o, "cheapest");
			sb_doc_estimate(o, "margin", "cycles", &k.margin);
			sb_doc_estimate(o, "control", "cycles", &k.control.cost);
			struct sb_doc *alts = sb_doc_array(o, "alternatives");
			for (size_t i = 0; i < k.n; i++) {
				struct sb_doc *alt = sb_doc_object(alts, NULL);
				sb_doc_string(alt, "codegen", k.alt[i].row->key.codegen);
				sb_doc_estimate(alt, "cost", "cycles", &k.alt[i].cost);
				sb_doc_estimate(alt, "vs_mainline", "cycles", &k.alt[i].vs_mainline);
				sb_doc_estimate(alt, "vs_control", "cycles", &k.alt[i].vs_control);
				sb_doc_bool(alt, "like_control", k.alt[i].like_control);
			}
		}
}

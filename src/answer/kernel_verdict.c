/* kernel_verdict.c: twin against kernel, an equivalence test with a
 * stated margin; see kernel_verdict.h. */
#include "answer/kernel_verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "output/figures.h"

static const char *const shapes[] = {"per-run", "in-loop"};
static const char *const codegens[] = {"baseline", "private", "hybrid"};
#define N_SHAPES (sizeof(shapes) / sizeof(shapes[0]))
#define N_CODEGENS (sizeof(codegens) / sizeof(codegens[0]))

double sb_kernel_resolved_bound(double base_cost)
{
	double b = fabs(base_cost);
	return fmin(b, fmax(SB_KERNEL_RESOLVED_CYCLES, SB_KERNEL_RESOLVED_FRACTION * b));
}

double sb_estimate_half_width(const struct sb_estimate *e)
{
	if (!sb_estimate_has_ci(e))
		return NAN;
	return fmax(e->value - e->lo, e->hi - e->value);
}

int sb_kernel_resolved(const struct sb_estimate *e, const struct sb_estimate *base)
{
	/* Without a CI there is no spread to judge (no figure, or n/a). */
	if (!sb_estimate_has_ci(e))
		return 1;
	if (!sb_estimate_has_ci(base))
		return 1;
	double bound = sb_kernel_resolved_bound(base->value);
	if (e != base && sb_estimate_half_width(base) > bound)
		return 0;
	return sb_estimate_half_width(e) <= bound;
}

const char *sb_verdict_name(enum sb_verdict v)
{
	switch (v) {
	case SB_VERDICT_AGREE:
		return "agree";
	case SB_VERDICT_DIFFER:
		return "differ";
	case SB_VERDICT_INCONCLUSIVE:
		return "inconclusive";
	default:
		return NULL;
	}
}

struct sb_verdict_of sb_kernel_verdict(const struct sb_estimate *twin, const struct sb_estimate *kernel)
{
	struct sb_verdict_of out = {.verdict = SB_VERDICT_NONE, .diff = sb_estimate_absent("no figure"),
				    .margin = NAN};
	if (!sb_estimate_has_ci(twin) || !sb_estimate_has_ci(kernel) || !isfinite(twin->value) ||
	    !isfinite(kernel->value))
		return out;
	double d = twin->value - kernel->value;
	/* Each side of the difference's CI from the sides of the two CIs
	 * that move it that way, added in quadrature. */
	double below = hypot(twin->value - twin->lo, kernel->hi - kernel->value);
	double above = hypot(twin->hi - twin->value, kernel->value - kernel->lo);
	out.diff = sb_estimate_of(d, d - below, d + above);
	out.margin = fmax(SB_VERDICT_MARGIN_CYCLES, SB_VERDICT_MARGIN_FRACTION * fabs(kernel->value));
	if (out.diff.lo >= -out.margin && out.diff.hi <= out.margin)
		out.verdict = SB_VERDICT_AGREE;
	else if (out.diff.lo > out.margin || out.diff.hi < -out.margin)
		out.verdict = SB_VERDICT_DIFFER;
	else
		out.verdict = SB_VERDICT_INCONCLUSIVE;
	return out;
}

int sb_kernel_figures(const struct sb_run_file *rf, enum sb_cell_side side, const char *codegen, const char *shape,
		      uint64_t batch, struct sb_estimate *absolute, struct sb_estimate *added)
{
	const struct sb_run_row *r = sb_answer_find(rf, side, NULL, codegen, shape, batch);
	const struct sb_run_row *base = sb_answer_find(rf, side, NULL, "baseline", shape, batch);
	*absolute = sb_estimate_absent("not measured");
	*added = sb_estimate_absent("not measured");
	if (!r)
		return -1;
	*absolute = r->cycles;
	/* The row's own figure in cycles where it has one (what the table and
	 * the plot draw), else its delta (%) scaled by the baseline's. */
	int dc = sb_figure_index("delta-cycles");
	if (base && r != base)
		*added = dc >= 0 && sb_estimate_known(&r->figures[dc])
				 ? r->figures[dc]
				 : sb_estimate_pct_to_cycles(&r->figures[SB_FIGURE_DELTA], base->cycles.value);
	return 0;
}

/* The twin a verdict takes: placed like the loads, else aligned. */
static enum sb_cell_side twin_side(const struct sb_run_file *rf, const char *shape, uint64_t batch)
{
	return sb_answer_find(rf, SB_SIDE_PLACED_TWIN, NULL, "baseline", shape, batch) ? SB_SIDE_PLACED_TWIN
											: SB_SIDE_TWIN;
}

/* The batch sizes of the kernel's rows, ascending, at most max. */
static size_t kernel_batches(const struct sb_run_file *rf, uint64_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		if (r->key.side != SB_SIDE_KERNEL)
			continue;
		size_t k = 0;
		while (k < n && out[k] < r->batch)
			k++;
		if ((k < n && out[k] == r->batch) || n == max)
			continue;
		memmove(out + k + 1, out + k, (n - k) * sizeof(*out));
		out[k] = r->batch;
		n++;
	}
	return n;
}

static void count_one(struct sb_verdict_counts *c, int which, const struct sb_verdict_of *v, const char *codegen,
		      const char *shape, uint64_t batch)
{
	c->n[which][v->verdict]++;
	if (v->verdict == SB_VERDICT_DIFFER &&
	    (c->worst[which].verdict != SB_VERDICT_DIFFER || fabs(v->diff.value) > fabs(c->worst[which].diff.value))) {
		c->worst[which] = *v;
		snprintf(c->worst_where[which], sizeof(c->worst_where[which]), "%s %s @%llu", codegen, shape,
			 (unsigned long long)batch);
	}
}

int sb_kernel_figures_resolved(const struct sb_run_file *rf, const char *codegen, const char *shape, uint64_t batch,
			       int *absolute, int *added, double *spread)
{
	struct sb_estimate a, d, ba, bd;
	*absolute = *added = 0;
	*spread = NAN;
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegen, shape, batch, &a, &d) != 0 ||
	    sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shape, batch, &ba, &bd) != 0)
		return -1;
	int is_base = strcmp(codegen, "baseline") == 0;
	*absolute = sb_kernel_resolved(&a, is_base ? &a : &ba) && (is_base || sb_kernel_resolved(&ba, &ba));
	*added = !is_base && sb_kernel_resolved(&d, &ba);
	/* The spread the line names: the widest of what is not resolved. */
	double w = 0;
	if (!sb_kernel_resolved(&ba, &ba))
		w = fmax(w, sb_estimate_half_width(&ba));
	if (!*absolute)
		w = fmax(w, sb_estimate_half_width(&a));
	if (!is_base && !*added)
		w = fmax(w, sb_estimate_half_width(&d));
	*spread = w > 0 ? w : NAN;
	return 0;
}

/* One cell of the kernel run beside its twin's: where it is, the
 * kernel's and the twin's absolute (ka, ta) and added (kd, td) figures,
 * and whether the kernel's are resolved (not the driver's spread). */
struct cell_pair {
	size_t s, v;
	uint64_t batch;
	enum sb_cell_side twin;
	struct sb_estimate ka, kd, ta, td;
	int res_abs, res_add;
};

/* fn(ctx, p) for every cell of rf that has both the kernel's figures and
 * its twin's, shape by shape, batch by batch, codegen by codegen. */
static void each_cell_pair(const struct sb_run_file *rf, void (*fn)(void *ctx, const struct cell_pair *p),
			   void *ctx)
{
	uint64_t batches[64];
	size_t nb = kernel_batches(rf, batches, 64);
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t b = 0; b < nb; b++) {
			struct cell_pair p = {.s = s, .batch = batches[b], .twin = twin_side(rf, shapes[s], batches[b])};
			for (p.v = 0; p.v < N_CODEGENS; p.v++) {
				double spread;
				if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegens[p.v], shapes[s], p.batch, &p.ka, &p.kd) ||
				    sb_kernel_figures(rf, p.twin, codegens[p.v], shapes[s], p.batch, &p.ta, &p.td) ||
				    sb_kernel_figures_resolved(rf, codegens[p.v], shapes[s], p.batch, &p.res_abs,
							       &p.res_add, &spread))
					continue;
				fn(ctx, &p);
			}
		}
}

/* A figure that is the driver's spread gets no verdict. */
static void count_pair(void *ctx, const struct cell_pair *p)
{
	struct sb_verdict_counts *out = ctx;
	struct sb_verdict_of abs_v = sb_kernel_verdict(&p->ta, &p->ka), add_v = sb_kernel_verdict(&p->td, &p->kd);
	if (p->res_abs)
		count_one(out, 0, &abs_v, codegens[p->v], shapes[p->s], p->batch);
	else
		out->not_resolved[0]++;
	if (p->v > 0 && p->res_add)
		count_one(out, 1, &add_v, codegens[p->v], shapes[p->s], p->batch);
	else if (p->v > 0)
		out->not_resolved[1]++;
}

void sb_kernel_verdict_count(const struct sb_run_file *rf, struct sb_verdict_counts *out)
{
	memset(out, 0, sizeof(*out));
	each_cell_pair(rf, count_pair, out);
}

/* Pieces of text written as lines of at most SB_ANSWER_MAX_COLUMNS, a
 * piece that does not fit starting a line of its own after indent. */
struct wrap {
	FILE *f;
	size_t col;
	int lines;
	const char *indent;
};

/* sep (", ", "; " or "") then piece; where they do not fit, sep's mark
 * ends the line and piece starts the next. */
static void wrap_put(struct wrap *w, const char *sep, const char *piece)
{
	size_t n = strlen(piece), ns = strlen(sep);
	if (w->col > strlen(w->indent) && w->col + ns + n > SB_ANSWER_MAX_COLUMNS) {
		fprintf(w->f, "%.*s\n%s", ns ? 1 : 0, sep, w->indent);
		w->col = strlen(w->indent);
		w->lines++;
	} else {
		fputs(sep, w->f);
		w->col += ns;
	}
	fputs(piece, w->f);
	w->col += n;
}

/* One shape's kernel figures at batch (the baseline's cost, what the
 * variants add) and, below, the verdicts of the twin on them; a figure
 * that is the driver's spread (not resolved, kernel_verdict.h) is named
 * so with that spread, and gets no verdict. Every line within
 * SB_ANSWER_MAX_COLUMNS. Returns the lines printed: 0 when the run has no
 * such shape. */
static int shape_lines(FILE *f, const struct sb_run_file *rf, const char *shape, uint64_t batch)
{
	struct sb_estimate a, d;
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shape, batch, &a, &d) != 0)
		return 0;
	enum sb_cell_side ts = twin_side(rf, shape, batch);
	char buf[64], piece[160], verdicts[160], twin_alone[160], unresolved[64];
	size_t n = 0, nt = 0, nu = 0;
	double spread = 0;
	int minus = 0; /* an added cost below zero: the verdicts' line says what that means */
	verdicts[0] = twin_alone[0] = unresolved[0] = 0;
	char indent[16];
	snprintf(indent, sizeof(indent), "  %-7s  ", "");
	struct wrap w = {f, 0, 1, indent};
	snprintf(piece, sizeof(piece), "  %-7s ", shape);
	wrap_put(&w, "", piece);
	int shown = 0;
	/* "  per-run  base 103.62 [100.28, 106.95], private +5.35 [-5.84, +18.19], hybrid ..." */
	for (size_t v = 0; v < N_CODEGENS; v++) {
		struct sb_estimate ta, td;
		if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegens[v], shape, batch, &a, &d) != 0) {
			/* Not in the kernel (no private stack there): the twin's figure alone. */
			if (v && sb_kernel_figures(rf, SB_SIDE_TWIN, codegens[v], shape, batch, &ta, &td) == 0 &&
			    nt < sizeof(twin_alone)) {
				sb_answer_estimate(buf, sizeof(buf), &td, 1);
				nt += (size_t)snprintf(twin_alone + nt, sizeof(twin_alone) - nt, "%s%s %s",
						       nt ? ", " : "", codegens[v], buf);
			}
			continue;
		}
		int res_abs, res_add;
		double sp;
		sb_kernel_figures_resolved(rf, codegens[v], shape, batch, &res_abs, &res_add, &sp);
		const char *name_v = v ? codegens[v] : "base";
		if (!(v ? res_add : res_abs)) {
			if (nu < sizeof(unresolved))
				nu += (size_t)snprintf(unresolved + nu, sizeof(unresolved) - nu, "%s%s", nu ? ", " : "",
						       name_v);
			if (isfinite(sp))
				spread = fmax(spread, sp);
			continue;
		}
		sb_answer_estimate(buf, sizeof(buf), v ? &d : &a, v != 0);
		minus |= v && *sb_answer_faster(&d);
		snprintf(piece, sizeof(piece), "%s %s", name_v, buf);
		wrap_put(&w, shown ? ", " : "", piece);
		shown++;
		struct sb_verdict_of vd = {.verdict = SB_VERDICT_NONE};
		if (sb_kernel_figures(rf, ts, codegens[v], shape, batch, &ta, &td) == 0)
			vd = v ? sb_kernel_verdict(&td, &d) : sb_kernel_verdict(&ta, &a);
		const char *name = sb_verdict_name(vd.verdict);
		if (n < sizeof(verdicts))
			n += (size_t)snprintf(verdicts + n, sizeof(verdicts) - n, "%s%s %s", n ? ", " : "", name_v,
					      name ? name : "n/a");
	}
	if (nu) {
		/* Every figure of the shape (its base's spread makes what the
		 * others add spread too): the shape alone names them. */
		snprintf(piece, sizeof(piece), "%s%snot resolved at batch %llu: the driver's own spread is ±%.1f cycles",
			 shown ? unresolved : "", shown ? " " : "", (unsigned long long)batch, spread);
		wrap_put(&w, shown ? "; " : "", piece);
	}
	const char *tw = ts == SB_SIDE_PLACED_TWIN ? "placed" : "aligned";
	/* Variants the kernel did not run (no private stack there): the
	 * verdicts beside the kernel's figures, the twins' figures below. */
	if (nt) {
		if (n) {
			snprintf(piece, sizeof(piece), "%s twin: %s", tw, verdicts);
			wrap_put(&w, "; ", piece);
		}
		fprintf(f, "\n  %-7s twin alone: %s\n", "", twin_alone);
		return w.lines + 1;
	}
	fputc('\n', f);
	if (n) {
		fprintf(f, "  %-7s %s twin: %s%s\n", "", tw, verdicts, minus ? "; below 0: faster" : "");
		w.lines++;
	}
	return w.lines;
}

/* The counts of one kind of verdict over all batches. Returns the lines
 * printed. */
static int counts_line(FILE *f, const struct sb_verdict_counts *c, int which)
{
	const size_t *n = c->n[which];
	if (which && !n[SB_VERDICT_AGREE] && !n[SB_VERDICT_DIFFER] && !n[SB_VERDICT_INCONCLUSIVE] &&
	    !c->not_resolved[which]) {
		fprintf(f, "added cost: no verdict (no private or hybrid program measured in the kernel)\n");
		return 1;
	}
	fprintf(f, "%s, all batches: %zu agree, %zu differ, %zu inconclusive", which ? "added cost" : "absolute",
		n[SB_VERDICT_AGREE], n[SB_VERDICT_DIFFER], n[SB_VERDICT_INCONCLUSIVE]);
	if (c->not_resolved[which])
		fprintf(f, ", %zu not resolved (no verdict)", c->not_resolved[which]);
	fputc('\n', f);
	return 1;
}

/* Both kinds' counts in one line, where the summary has no room for two:
 * "all batches, absolute/added: 9/7 agree, 14/2 differ, ...". */
static int counts_compact_line(FILE *f, const struct sb_verdict_counts *c)
{
	const size_t *a = c->n[0], *d = c->n[1];
	fprintf(f, "all batches, absolute/added: %zu/%zu agree, %zu/%zu differ, %zu/%zu inconclusive", a[SB_VERDICT_AGREE],
		d[SB_VERDICT_AGREE], a[SB_VERDICT_DIFFER], d[SB_VERDICT_DIFFER], a[SB_VERDICT_INCONCLUSIVE],
		d[SB_VERDICT_INCONCLUSIVE]);
	if (c->not_resolved[0] || c->not_resolved[1])
		fprintf(f, ", %zu/%zu not resolved", c->not_resolved[0], c->not_resolved[1]);
	fputc('\n', f);
	return 1;
}

/* The differing verdicts most apart, named with what they are and their
 * unit: one line where both fit, else a line each, within room lines.
 * Returns the lines printed. */
static int most_lines(FILE *f, const struct sb_verdict_counts *c, int room)
{
	char one[2][128];
	int n = 0;
	for (int which = 0; which < 2; which++) {
		one[which][0] = 0;
		if (c->worst[which].verdict == SB_VERDICT_DIFFER) {
			snprintf(one[which], sizeof(one[which]), "%s %+.1f cycles per iteration at %s",
				 which ? "added" : "absolute", c->worst[which].diff.value, c->worst_where[which]);
			n++;
		}
	}
	if (!n || room < 1)
		return 0;
	const char *lead = "most apart, twin - kernel: ";
	if (one[0][0] && one[1][0] && strlen(lead) + strlen(one[0]) + 2 + strlen(one[1]) <= SB_ANSWER_MAX_COLUMNS) {
		fprintf(f, "%s%s; %s\n", lead, one[0], one[1]);
		return 1;
	}
	int lines = 0;
	for (int which = 0; which < 2 && lines < room; which++)
		if (one[which][0]) {
			fprintf(f, "%s%s\n", lead, one[which]);
			lines++;
		}
	return lines;
}

/* A differing verdict on a resolved figure: what the twin does not carry. */
struct gap {
	int found, added;
	uint64_t batch;
	const char *shape, *codegen;
	double kernel, twin; /* cycles per iteration */
	enum sb_cell_side side;
};

/* The differing verdict the gap line names: at batch first, then an added
 * cost before an absolute one, then the larger difference. */
static int gap_better(const struct gap *a, const struct gap *b, uint64_t batch)
{
	if (!b->found)
		return 1;
	if ((a->batch == batch) != (b->batch == batch))
		return a->batch == batch;
	if (a->added != b->added)
		return a->added;
	return fabs(a->kernel - a->twin) > fabs(b->kernel - b->twin);
}

/* The search for the gap to name: the best so far at the summary's batch. */
struct gap_search {
	struct gap best;
	uint64_t batch;
};

static void gap_of_pair(void *ctx, const struct cell_pair *p)
{
	struct gap_search *gs = ctx;
	for (int added = 0; added < 2; added++) {
		if (added ? !p->v || !p->res_add : !p->res_abs)
			continue;
		const struct sb_estimate *t = added ? &p->td : &p->ta, *k = added ? &p->kd : &p->ka;
		if (sb_kernel_verdict(t, k).verdict != SB_VERDICT_DIFFER)
			continue;
		struct gap g = {1, added, p->batch, shapes[p->s], p->v ? codegens[p->v] : "base", k->value, t->value,
				p->twin};
		if (gap_better(&g, &gs->best, gs->batch))
			gs->best = g;
	}
}

static struct gap find_gap(const struct sb_run_file *rf, uint64_t batch)
{
	struct gap_search gs = {.batch = batch};
	each_cell_pair(rf, gap_of_pair, &gs);
	return gs.best;
}

/* One line naming what the twin does not reproduce and its size: the
 * twin's figure below or above the kernel's by the gap; the longest form
 * that fits the columns. */
static int gap_line(FILE *f, const struct gap *g, uint64_t batch)
{
	if (!g->found)
		return 0;
	char where[48], k[24], t[24], line[4][256];
	snprintf(where, sizeof(where), "%s %s", g->shape, g->codegen);
	if (g->batch != batch)
		snprintf(where + strlen(where), sizeof(where) - strlen(where), " @%llu",
			 (unsigned long long)g->batch);
	snprintf(k, sizeof(k), g->added ? "%+.1f" : "%.1f", g->kernel);
	snprintf(t, sizeof(t), g->added ? "%+.1f" : "%.1f", g->twin);
	/* The sign in words: no convention to learn. */
	const char *rel = g->twin < g->kernel ? "below" : "above";
	double gap = fabs(g->kernel - g->twin);
	snprintf(line[0], sizeof(line[0]),
		 "%s not reproduced: twin %s %s kernel %s by %.1f cycles/iter; cause unknown", where, t, rel,
		 k, gap);
	snprintf(line[1], sizeof(line[1]), "%s not reproduced: twin %s %s kernel %s by %.1f cycles/iter", where, t,
		 rel, k, gap);
	snprintf(line[2], sizeof(line[2]), "%s: twin %s %s kernel %s by %.1f cycles/iter", where, t, rel, k, gap);
	snprintf(line[3], sizeof(line[3]), "%s not reproduced: twin %s kernel by %.1f", where, rel, gap);
	for (int i = 0; i < 4; i++)
		if (strlen(line[i]) <= SB_ANSWER_MAX_COLUMNS || i == 3) {
			fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line[i]);
			return 1;
		}
	return 0;
}

int sb_kernel_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	uint64_t batches[64];
	size_t nb = kernel_batches(rf, batches, 64);
	if (!nb || max_lines < 8) {
		fprintf(f, "no kernel figures in this run\n");
		return 1;
	}
	/* The largest batch where the kernel's baseline has a CI in some shape. */
	uint64_t b = batches[nb - 1];
	for (size_t i = nb; i-- > 0;) {
		struct sb_estimate a, d;
		int has = 0;
		for (size_t s = 0; s < N_SHAPES; s++)
			has |= sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shapes[s], batches[i], &a, &d) == 0 &&
			       sb_estimate_has_ci(&a);
		if (has) {
			b = batches[i];
			break;
		}
	}
	/* The shapes' lines first, to know how many they take (a line folded
	 * within the columns takes two): the rule's line goes where they
	 * leave no room for it (docs/kernel-verdict.md has it). */
	char *body = NULL;
	size_t body_len = 0;
	FILE *m = open_memstream(&body, &body_len);
	if (!m) {
		fprintf(f, "no kernel figures in this run (out of memory)\n");
		return 1;
	}
	int body_lines = 0;
	for (size_t s = 0; s < N_SHAPES; s++)
		body_lines += shape_lines(m, rf, shapes[s], b);
	fclose(m);
	int lines = 0, driver = rf->kernel_driver[0] != 0;
	/* A differing verdict is never left bare: its gap line takes the
	 * room first, then the rule's (what agree and differ mean), then the
	 * counts' second line (both kinds fit one). */
	struct gap g = find_gap(rf, b);
	int rule = driver + 2 + body_lines + g.found + 1 <= max_lines;
	if (driver) {
		char line[300];
		snprintf(line, sizeof(line), "kernel: %s", rf->kernel_driver);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		lines++;
	}
	fprintf(f, "kernel at batch %llu, cycles per iteration (95 %% CI): base's cost, what the others add;\n",
		(unsigned long long)b);
	lines++;
	if (rule) {
		fprintf(f, "verdict: CI of twin - kernel within ±max(1 cycle, 10 %% of the kernel): agree, outside: "
			   "differ\n");
		lines++;
	}
	fputs(body ? body : "", f);
	free(body);
	lines += body_lines;
	struct sb_verdict_counts c;
	sb_kernel_verdict_count(rf, &c);
	/* The gap line beside the verdicts it explains, the counts below in
	 * one line where two leave it no room. */
	int gap = gap_line(f, &g, b);
	if (lines + gap + 2 <= max_lines) {
		lines += counts_line(f, &c, 0);
		lines += counts_line(f, &c, 1);
	} else {
		lines += counts_compact_line(f, &c);
	}
	lines += gap;
	lines += most_lines(f, &c, max_lines - lines);
	if (lines < max_lines) {
		fprintf(f, "every verdict: --table; every figure: --format=json\n");
		lines++;
	}
	return lines;
}

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

struct sb_verdict_of sb_kernel_verdict_of_difference(const struct sb_estimate *diff,
						     const struct sb_estimate *kernel)
{
	struct sb_verdict_of out = {.verdict = SB_VERDICT_NONE, .diff = sb_estimate_absent("no figure"),
				    .margin = NAN};
	if (!sb_estimate_has_ci(diff) || !sb_estimate_has_ci(kernel) || !isfinite(kernel->value))
		return out;
	out.diff = *diff;
	out.margin = fmax(SB_VERDICT_MARGIN_CYCLES, SB_VERDICT_MARGIN_FRACTION * fabs(kernel->value));
	if (out.diff.lo >= -out.margin && out.diff.hi <= out.margin)
		out.verdict = SB_VERDICT_AGREE;
	else if (out.diff.lo > out.margin || out.diff.hi < -out.margin)
		out.verdict = SB_VERDICT_DIFFER;
	else
		out.verdict = SB_VERDICT_INCONCLUSIVE;
	return out;
}

struct sb_verdict_of sb_kernel_verdict(const struct sb_estimate *twin, const struct sb_estimate *kernel)
{
	struct sb_verdict_of none = {.verdict = SB_VERDICT_NONE, .diff = sb_estimate_absent("no figure"),
				     .margin = NAN};
	if (!sb_estimate_has_ci(twin) || !sb_estimate_has_ci(kernel) || !isfinite(twin->value) ||
	    !isfinite(kernel->value))
		return none;
	double d = twin->value - kernel->value;
	/* Each side of the difference's CI from the sides of the two CIs
	 * that move it that way, added in quadrature. */
	double below = hypot(twin->value - twin->lo, kernel->hi - kernel->value);
	double above = hypot(twin->hi - twin->value, kernel->value - kernel->lo);
	struct sb_estimate diff = sb_estimate_of(d, d - below, d + above);
	return sb_kernel_verdict_of_difference(&diff, kernel);
}

struct sb_verdict_of sb_kernel_added_verdict(const struct sb_estimate *twin, const struct sb_estimate *kernel,
					     const struct sb_estimate *paired, int *was_paired)
{
	int by_load = paired && sb_estimate_has_ci(paired);
	if (was_paired)
		*was_paired = by_load;
	return by_load ? sb_kernel_verdict_of_difference(paired, kernel) : sb_kernel_verdict(twin, kernel);
}

void sb_kernel_unresolved_reason(char *buf, size_t len, double half, const struct sb_estimate *between,
				 const struct sb_estimate *within)
{
	double b = sb_estimate_half_width(between), w = sb_estimate_half_width(within);
	int one_load = !sb_estimate_known(between) && sb_estimate_known(within);
	int w_names = isfinite(w) && w >= SB_SPREAD_SHARE * half && (one_load || w >= SB_SPREAD_NAMES * b);
	int b_names = isfinite(b) && isfinite(w) && b >= SB_SPREAD_SHARE * half && b >= SB_SPREAD_NAMES * w;
	if (b_names)
		snprintf(buf, len, "the loads differ: ±%.1f cycles, ±%.1f within a load", b, w);
	else if (w_names)
		snprintf(buf, len, "the driver's own spread is ±%.1f cycles", half);
	else if (one_load)
		snprintf(buf, len, "±%.1f cycles (one load, ±%.1f within it)", half, w);
	else if (isfinite(w) && isfinite(b))
		snprintf(buf, len, "±%.1f cycles (±%.1f between loads, ±%.1f within)", half, b, w);
	else if (isfinite(b))
		snprintf(buf, len, "±%.1f cycles (one block a load: loads and driver not told apart)", half);
	else
		snprintf(buf, len, "±%.1f cycles (this run has no figures by load)", half);
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

/* Figure `name` of row r (absent without the row or the figure). */
static struct sb_estimate row_figure(const struct sb_run_row *r, const char *name)
{
	int k = sb_figure_index(name);
	return r && k >= 0 ? r->figures[k] : sb_estimate_absent("not in this run");
}

/* The widest figure not resolved so far: its half-width and where its
 * spread comes from. */
struct widest {
	double half;
	struct sb_estimate between, within;
};

/* e (not resolved) where it is wider than w's: with its intervals between
 * and within loads, the figures b_name and w_name of its row r. */
static void widest_of(struct widest *w, const struct sb_estimate *e, const struct sb_run_row *r, const char *b_name,
		      const char *w_name)
{
	double h = sb_estimate_half_width(e);
	if (!(h > w->half))
		return;
	w->half = h;
	w->between = row_figure(r, b_name);
	w->within = row_figure(r, w_name);
}

int sb_kernel_figures_resolved(const struct sb_run_file *rf, const char *codegen, const char *shape, uint64_t batch,
			       int *absolute, int *added, double *spread, char *why, size_t why_len)
{
	struct sb_estimate a, d, ba, bd;
	*absolute = *added = 0;
	*spread = NAN;
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegen, shape, batch, &a, &d) != 0 ||
	    sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shape, batch, &ba, &bd) != 0)
		return -1;
	const struct sb_run_row *r = sb_answer_find(rf, SB_SIDE_KERNEL, NULL, codegen, shape, batch);
	const struct sb_run_row *base = sb_answer_find(rf, SB_SIDE_KERNEL, NULL, "baseline", shape, batch);
	int is_base = strcmp(codegen, "baseline") == 0;
	*absolute = sb_kernel_resolved(&a, is_base ? &a : &ba) && (is_base || sb_kernel_resolved(&ba, &ba));
	*added = !is_base && sb_kernel_resolved(&d, &ba);
	/* The spread the line names: the widest of what is not resolved. */
	struct widest w = {0};
	if (!sb_kernel_resolved(&ba, &ba))
		widest_of(&w, &ba, base, "between-loads", "within-loads");
	if (!*absolute)
		widest_of(&w, &a, r, "between-loads", "within-loads");
	if (!is_base && !*added)
		widest_of(&w, &d, r, "between-loads-added", "within-loads-added");
	*spread = w.half > 0 ? w.half : NAN;
	if (why && why_len)
		why[0] = 0;
	if (why && why_len && w.half > 0)
		sb_kernel_unresolved_reason(why, why_len, w.half, &w.between, &w.within);
	return 0;
}

struct sb_estimate sb_kernel_paired_figure(const struct sb_run_file *rf, const char *codegen, const char *shape,
					   uint64_t batch)
{
	return row_figure(sb_answer_find(rf, SB_SIDE_PLACED_TWIN, NULL, codegen, shape, batch), "paired-vs-kernel");
}

/* One cell of the kernel run beside its twin's: where it is, the
 * kernel's and the twin's absolute (ka, ta) and added (kd, td) figures,
 * and whether the kernel's are resolved (not the driver's spread). */
struct cell_pair {
	size_t s, v;
	uint64_t batch;
	enum sb_cell_side twin;
	struct sb_estimate ka, kd, ta, td;
	struct sb_estimate paired; /* the placed twin's added cost less the kernel's, by load */
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
							       &p.res_add, &spread, NULL, 0))
					continue;
				p.paired = sb_kernel_paired_figure(rf, codegens[p.v], shapes[s], p.batch);
				fn(ctx, &p);
			}
		}
}

/* A figure that is the driver's spread gets no verdict. */
static void count_pair(void *ctx, const struct cell_pair *p)
{
	struct sb_verdict_counts *out = ctx;
	struct sb_verdict_of abs_v = sb_kernel_verdict(&p->ta, &p->ka);
	struct sb_verdict_of add_v = sb_kernel_added_verdict(&p->td, &p->kd, &p->paired, NULL);
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

/* sep (", ", "; ", " " or "") then piece; where they do not fit, sep's
 * mark (none for a space) ends the line and piece starts the next. */
static void wrap_put(struct wrap *w, const char *sep, const char *piece)
{
	size_t n = strlen(piece), ns = strlen(sep);
	if (w->col > strlen(w->indent) && w->col + ns + n > SB_ANSWER_MAX_COLUMNS) {
		fprintf(w->f, "%.*s\n%s", ns && sep[0] != ' ' ? 1 : 0, sep, w->indent);
		w->col = strlen(w->indent);
		w->lines++;
	} else {
		fputs(sep, w->f);
		w->col += ns;
	}
	fputs(piece, w->f);
	w->col += n;
}

/* What one shape's lines say, gathered variant by variant. */
struct shape_text {
	char verdicts[160], twin_alone[160], unresolved[64], why[160];
	size_t n, nt, nu;
	double spread;   /* the widest spread not resolved */
	int minus;       /* an added cost below zero: the verdicts' line says what that means */
	int paired;      /* some added cost's verdict is paired by load */
	int shown;       /* figures printed */
};

/* Appends "sep piece" to buf (of size len, used *at). */
static void text_add(char *buf, size_t len, size_t *at, const char *piece)
{
	if (*at < len)
		*at += (size_t)snprintf(buf + *at, len - *at, "%s%s", *at ? ", " : "", piece);
}

/* Variant v of shape at batch into t (its figure on w's line, its verdict
 * by the twin on side ts): the kernel's figure where it is resolved, else
 * its name among those not resolved; the twin's figure alone where the
 * kernel did not run it. */
static void variant_text(struct wrap *w, struct shape_text *t, const struct sb_run_file *rf, const char *shape,
			 uint64_t batch, size_t v, enum sb_cell_side ts)
{
	struct sb_estimate a, d, ta, td;
	char buf[64], piece[224];
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegens[v], shape, batch, &a, &d) != 0) {
		/* Not in the kernel (no private stack there): the twin's figure alone. */
		if (v && sb_kernel_figures(rf, SB_SIDE_TWIN, codegens[v], shape, batch, &ta, &td) == 0) {
			sb_answer_estimate(buf, sizeof(buf), &td, 1);
			snprintf(piece, sizeof(piece), "%s %s", codegens[v], buf);
			text_add(t->twin_alone, sizeof(t->twin_alone), &t->nt, piece);
		}
		return;
	}
	int res_abs, res_add;
	double sp;
	char why[160];
	sb_kernel_figures_resolved(rf, codegens[v], shape, batch, &res_abs, &res_add, &sp, why, sizeof(why));
	const char *name_v = v ? codegens[v] : "base";
	if (!(v ? res_add : res_abs)) {
		text_add(t->unresolved, sizeof(t->unresolved), &t->nu, name_v);
		if (isfinite(sp) && sp > t->spread) {
			t->spread = sp;
			snprintf(t->why, sizeof(t->why), "%s", why);
		}
		return;
	}
	sb_answer_estimate(buf, sizeof(buf), v ? &d : &a, v != 0);
	t->minus |= v && *sb_answer_faster(&d);
	snprintf(piece, sizeof(piece), "%s %s", name_v, buf);
	wrap_put(w, t->shown++ ? ", " : "", piece);
	struct sb_verdict_of vd = {.verdict = SB_VERDICT_NONE};
	int paired = 0;
	if (sb_kernel_figures(rf, ts, codegens[v], shape, batch, &ta, &td) == 0) {
		struct sb_estimate pf = sb_kernel_paired_figure(rf, codegens[v], shape, batch);
		vd = v ? sb_kernel_added_verdict(&td, &d, ts == SB_SIDE_PLACED_TWIN ? &pf : NULL, &paired)
		       : sb_kernel_verdict(&ta, &a);
	}
	t->paired |= paired;
	const char *name = sb_verdict_name(vd.verdict);
	snprintf(piece, sizeof(piece), "%s %s", name_v, name ? name : "n/a");
	text_add(t->verdicts, sizeof(t->verdicts), &t->n, piece);
}

/* "placed twin: ...", or "placed twin (added paired by load): ..." where
 * an added cost's verdict is paired, shortened where that does not fit
 * after indent columns. */
static void verdicts_piece(char *buf, size_t len, const struct shape_text *t, enum sb_cell_side ts, size_t indent)
{
	const char *tw = ts == SB_SIDE_PLACED_TWIN ? "placed" : "aligned";
	snprintf(buf, len, "%s twin%s: %s", tw, t->paired ? " (added paired by load)" : "", t->verdicts);
	if (t->paired && indent + strlen(buf) > SB_ANSWER_MAX_COLUMNS)
		snprintf(buf, len, "%s twin (added paired): %s", tw, t->verdicts);
}

/* One shape's kernel figures at batch (the baseline's cost, what the
 * variants add) and, below, the verdicts of the twin on them; a figure
 * not resolved (kernel_verdict.h) is named so with where its spread comes
 * from, and gets no verdict. Every line within SB_ANSWER_MAX_COLUMNS.
 * Returns the lines printed: 0 when the run has no such shape. */
static int shape_lines(FILE *f, const struct sb_run_file *rf, const char *shape, uint64_t batch)
{
	struct sb_estimate a, d;
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shape, batch, &a, &d) != 0)
		return 0;
	enum sb_cell_side ts = twin_side(rf, shape, batch);
	struct shape_text t = {0};
	char piece[320], indent[16];
	snprintf(indent, sizeof(indent), "  %-7s  ", "");
	struct wrap w = {f, 0, 1, indent};
	snprintf(piece, sizeof(piece), "  %-7s ", shape);
	wrap_put(&w, "", piece);
	/* "  per-run  base 103.62 [100.28, 106.95], private +5.35 [-5.84, +18.19], hybrid ..." */
	for (size_t v = 0; v < N_CODEGENS; v++)
		variant_text(&w, &t, rf, shape, batch, v, ts);
	if (t.nu) {
		/* Every figure of the shape (its base's spread makes what the
		 * others add spread too): the shape alone names them. */
		snprintf(piece, sizeof(piece), "%s%snot resolved at batch %llu:", t.shown ? t.unresolved : "",
			 t.shown ? " " : "", (unsigned long long)batch);
		wrap_put(&w, t.shown ? "; " : "", piece);
		wrap_put(&w, " ", t.why);
	}
	/* Variants the kernel did not run (no private stack there): the
	 * verdicts beside the kernel's figures, the twins' figures below. */
	if (t.nt) {
		if (t.n) {
			verdicts_piece(piece, sizeof(piece), &t, ts, strlen(indent));
			wrap_put(&w, "; ", piece);
		}
		fprintf(f, "\n  %-7s twin alone: %s\n", "", t.twin_alone);
		return w.lines + 1;
	}
	fputc('\n', f);
	if (t.n) {
		char lead[16];
		snprintf(lead, sizeof(lead), "  %-7s ", "");
		struct wrap vw = {f, 0, 1, indent};
		wrap_put(&vw, "", lead);
		verdicts_piece(piece, sizeof(piece), &t, ts, strlen(lead));
		wrap_put(&vw, "", piece);
		if (t.minus)
			wrap_put(&vw, "; ", "below 0: faster");
		fputc('\n', f);
		w.lines += vw.lines;
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
	double diff;         /* twin - kernel: paired by load where paired */
	int paired;
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
	return fabs(a->diff) > fabs(b->diff);
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
		int paired = 0;
		struct sb_verdict_of v = added ? sb_kernel_added_verdict(t, k, &p->paired, &paired)
					       : sb_kernel_verdict(t, k);
		if (v.verdict != SB_VERDICT_DIFFER)
			continue;
		struct gap g = {1, added, p->batch, shapes[p->s], p->v ? codegens[p->v] : "base", k->value, t->value,
				v.diff.value, paired, p->twin};
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

/* Writes the first of the n lines that fits the summary's columns, else
 * the last cut to them. Returns 1 (one line written). */
static int first_fitting(FILE *f, char (*line)[256], int n)
{
	int i = 0;
	while (i < n - 1 && strlen(line[i]) > SB_ANSWER_MAX_COLUMNS)
		i++;
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line[i]);
	return 1;
}

/* The gap line of a verdict paired by load: the twin's added cost below
 * or above the kernel's load by load, by the mean of the loads' gaps. */
static int paired_gap_line(FILE *f, const char *where, const char *rel, double gap)
{
	char line[5][256];
	snprintf(line[0], sizeof(line[0]),
		 "%s not reproduced: twin %s kernel by %.1f cycles/iter, paired by load; cause unknown", where, rel,
		 gap);
	snprintf(line[1], sizeof(line[1]), "%s not reproduced: twin %s kernel by %.1f cycles/iter by load; cause unknown",
		 where, rel, gap);
	snprintf(line[2], sizeof(line[2]), "%s not reproduced: twin %s kernel by %.1f cycles/iter, paired by load",
		 where, rel, gap);
	snprintf(line[3], sizeof(line[3]), "%s: twin %s kernel by %.1f cycles/iter, paired by load", where, rel, gap);
	snprintf(line[4], sizeof(line[4]), "%s not reproduced: twin %s kernel by %.1f", where, rel, gap);
	return first_fitting(f, line, 5);
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
	const char *rel = g->diff < 0 ? "below" : "above";
	double gap = fabs(g->diff);
	if (g->paired)
		return paired_gap_line(f, where, rel, gap);
	snprintf(line[0], sizeof(line[0]),
		 "%s not reproduced: twin %s %s kernel %s by %.1f cycles/iter; cause unknown", where, t, rel,
		 k, gap);
	snprintf(line[1], sizeof(line[1]), "%s not reproduced: twin %s %s kernel %s by %.1f cycles/iter", where, t,
		 rel, k, gap);
	snprintf(line[2], sizeof(line[2]), "%s: twin %s %s kernel %s by %.1f cycles/iter", where, t, rel, k, gap);
	snprintf(line[3], sizeof(line[3]), "%s not reproduced: twin %s kernel by %.1f", where, rel, gap);
	return first_fitting(f, line, 4);
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

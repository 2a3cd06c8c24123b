/* kernel_report.c: replica twin vs kernel, like with like. For each batch
 * size, the cost that private and hybrid add to baseline, in core cycles
 * per iteration, with 95 % CIs, from the twin (user space) and from the
 * kernel (BPF_PROG_TEST_RUN, syscall removed), and whether they agree
 * by the equivalence test of kernel_verdict.h, on the added cost and on
 * every arm's absolute cost. */
#include "kernel/kernel_report.h"
#include "answer/answer.h"
#include "answer/kernel_verdict.h"
#include "kernel/loader.h"
#include "stubbench/config.h"

#include "output/json_doc.h"
#include "output/text_grid.h"

#include <math.h>
#include <string.h>

const struct sb_cell *sb_kernel_report_cell(const struct sb_results *r, enum sb_cell_side side,
					    enum sb_kernel_shape shape, int v, uint64_t batch)
{
	for (size_t i = 0; r && i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->batch == batch && c->arm && c->arm->key.side == side &&
		    strcmp(c->arm->key.shape, sb_kernel_shape_name(shape)) == 0 &&
		    strcmp(c->arm->key.codegen, sb_kernel_variant_name(v)) == 0)
			return c;
	}
	return NULL;
}

/* Variant v's cost added to the baseline of the same side, cycles per
 * iteration: the cell's own figure in cycles (its delta, % of the
 * baseline, scaled by the baseline's mean over states: what JSON's
 * delta_vs_baseline_cycles and the plot hold), so that the table, the
 * summary and the plot draw one estimate. */
static struct sb_estimate side_delta(const struct sb_results *r, enum sb_cell_side side, enum sb_kernel_shape shape,
				     int v, uint64_t batch)
{
	const struct sb_cell *c = sb_kernel_report_cell(r, side, shape, v, batch);
	const struct sb_cell *base = sb_kernel_report_cell(r, side, shape, SB_KV_BASELINE, batch);
	if (!c || !base)
		return sb_estimate_absent("not measured");
	if (sb_estimate_known(&c->delta_cycles))
		return c->delta_cycles;
	return sb_estimate_pct_to_cycles(&c->delta_pct, base->cycles.mean);
}

static void fmt_delta(char *buf, size_t len, const struct sb_estimate *e)
{
	sb_answer_estimate(buf, len, e, 1);
}

/* Variant v's absolute cost per iteration on side, cycles. */
static struct sb_estimate side_cost(const struct sb_results *r, enum sb_cell_side side, enum sb_kernel_shape shape,
				    int v, uint64_t batch)
{
	const struct sb_cell *c = sb_kernel_report_cell(r, side, shape, v, batch);
	return c ? sb_cell_cycles(c) : sb_estimate_absent("not measured");
}

/* The figures of one variant at one batch: the twin's, the placed twin's
 * and the kernel's added cost (absent for the baseline) and absolute
 * cost, and the verdicts of the placed twin (else the twin) on both: the
 * added cost's paired by load where the placed twin has that difference
 * (kernel_verdict.h), also kept from the two CIs alone (unpaired). */
struct side_by_side {
	struct sb_estimate twin, placed, kernel, paired;
	struct sb_estimate placed_abs, kernel_abs;
	struct sb_verdict_of added, unpaired, absolute;
	int added_paired;
	/* The kernel's figures resolved (kernel_verdict.h); where not, no
	 * verdict, and spread: the widest half-width of what is not, why:
	 * where it comes from. */
	int resolved_added, resolved_abs;
	double spread;
	char why[160];
};

/* The widest kernel figure not resolved so far (half-width *w), e, with
 * the intervals between and within loads of it that cell c holds. */
static void widest(double *w, struct side_by_side *x, const struct sb_estimate *e, const struct sb_cell *c,
		   int added)
{
	double h = sb_estimate_half_width(e);
	if (!(h > *w))
		return;
	*w = h;
	struct sb_estimate none = sb_estimate_absent("no cell");
	sb_kernel_unresolved_reason(x->why, sizeof(x->why), h,
				    c ? (added ? &c->between_loads_added : &c->between_loads) : &none,
				    c ? (added ? &c->within_loads_added : &c->within_loads) : &none);
}

static void side_by_side_of(struct side_by_side *x, enum sb_kernel_shape shape, const struct sb_results *kernel,
			    const struct sb_results *t, const struct sb_results *placed, int v, uint64_t batch)
{
	int base = v == SB_KV_BASELINE;
	enum sb_cell_side ps = placed ? SB_SIDE_PLACED_TWIN : SB_SIDE_TWIN;
	const struct sb_results *pr = placed ? placed : t;
	const struct sb_cell *pc = placed ? sb_kernel_report_cell(placed, ps, shape, v, batch) : NULL;
	const struct sb_cell *kc = sb_kernel_report_cell(kernel, SB_SIDE_KERNEL, shape, v, batch);
	const struct sb_cell *kbc = sb_kernel_report_cell(kernel, SB_SIDE_KERNEL, shape, SB_KV_BASELINE, batch);
	x->twin = base ? sb_estimate_absent("baseline") : side_delta(t, SB_SIDE_TWIN, shape, v, batch);
	x->placed = base ? sb_estimate_absent("baseline") : side_delta(pr, ps, shape, v, batch);
	x->kernel = base ? sb_estimate_absent("baseline") : side_delta(kernel, SB_SIDE_KERNEL, shape, v, batch);
	x->paired = pc && !base ? pc->paired_vs_kernel : sb_estimate_absent("not paired by load");
	x->placed_abs = side_cost(pr, ps, shape, v, batch);
	x->kernel_abs = side_cost(kernel, SB_SIDE_KERNEL, shape, v, batch);
	x->added = sb_kernel_added_verdict(&x->placed, &x->kernel, &x->paired, &x->added_paired);
	x->unpaired = sb_kernel_verdict(&x->placed, &x->kernel);
	x->absolute = sb_kernel_verdict(&x->placed_abs, &x->kernel_abs);
	struct sb_estimate kbase = side_cost(kernel, SB_SIDE_KERNEL, shape, SB_KV_BASELINE, batch);
	int base_ok = sb_kernel_resolved(&kbase, &kbase);
	x->resolved_abs = base_ok && sb_kernel_resolved(&x->kernel_abs, &kbase);
	x->resolved_added = base ? 1 : base_ok && sb_kernel_resolved(&x->kernel, &kbase);
	double w = 0;
	x->why[0] = 0;
	if (!base_ok)
		widest(&w, x, &kbase, kbc, 0);
	if (!x->resolved_abs)
		widest(&w, x, &x->kernel_abs, kc, 0);
	if (!x->resolved_added)
		widest(&w, x, &x->kernel, kc, 1);
	x->spread = w > 0 ? w : NAN;
	/* A figure not resolved gets no verdict. */
	struct sb_verdict_of none = {.verdict = SB_VERDICT_NONE, .diff = sb_estimate_absent("not resolved"),
				     .margin = NAN};
	if (!x->resolved_abs)
		x->absolute = none;
	if (!x->resolved_added)
		x->added = x->unpaired = none;
}

static const char *verdict_text(const struct sb_verdict_of *v)
{
	const char *n = sb_verdict_name(v->verdict);
	return n ? n : "-";
}

void sb_kernel_report_side_by_side(FILE *f, enum sb_kernel_shape shape,
				   const struct sb_results *const *kernel, size_t n_loads,
				   const struct sb_results *t, const struct sb_results *const *placed)
{
	(void)n_loads;
	const char *sh = sb_kernel_shape_name(shape);
	const struct sb_results *pl = placed ? placed[0] : NULL;
	fprintf(f, "\n# %s shape: core cycles per iteration (95 %% CI), over the loads\n", sh);
	fprintf(f, "# twin: 64-byte aligned; placed: twin copies at the page offsets the kernel gave the same\n"
		   "# functions; added: the cost added to baseline; absolute: the cost per iteration;\n");
	fprintf(f, "# by load: placed added - kernel added, per load, then over the loads (CI resampling them)\n");
	sb_comment(f, "verdicts: placed twin vs kernel, %s:", SB_VERDICT_RULE);
	fprintf(f, "# agree: the CI of the difference inside the margin; differ: outside; else inconclusive;\n"
		   "# added: paired by load (the by-load difference) where the placed twin has it, marked *\n");
	struct sb_grid g = {0};
	int cv = sb_grid_col(&g, "variant", 1, 1, -1), cb = sb_grid_col(&g, "batch", 0, 1, -1);
	int ct = sb_grid_col(&g, "twin added", 1, 0, -1), cp = sb_grid_col(&g, "placed added", 1, 0, 1);
	int ck = sb_grid_col(&g, "kernel added", 1, 0, 1), cpl = sb_grid_col(&g, "by load", 1, 0, 1);
	int cva = sb_grid_col(&g, "verdict", 1, 0, 1);
	int cpa = sb_grid_col(&g, "placed absolute", 1, 0, 2), cka = sb_grid_col(&g, "kernel absolute", 1, 0, 2);
	int cvb = sb_grid_col(&g, "verdict", 1, 0, 2);
	const struct sb_results *k0 = kernel[0];
	/* Per batch, the widest spread of a kernel figure not resolved, and
	 * where it comes from. */
	double spread[SB_MAX_BATCHES] = {0};
	char why[SB_MAX_BATCHES][160];
	for (int v = SB_KV_BASELINE; v < SB_N_KVARIANTS; v++)
		for (size_t b = 0; b < k0->n_batches; b++) {
			uint64_t batch = k0->cells[b].batch;
			if (!sb_kernel_report_cell(k0, SB_SIDE_KERNEL, shape, v, batch))
				continue;
			struct side_by_side x;
			side_by_side_of(&x, shape, k0, t, pl, v, batch);
			char ts[48], ps[48], ks[48], pl[48], pa[48], ka[48];
			fmt_delta(ts, sizeof(ts), &x.twin);
			fmt_delta(ps, sizeof(ps), &x.placed);
			fmt_delta(ks, sizeof(ks), &x.kernel);
			fmt_delta(pl, sizeof(pl), &x.paired);
			sb_answer_estimate(pa, sizeof(pa), &x.placed_abs, 0);
			sb_answer_estimate(ka, sizeof(ka), &x.kernel_abs, 0);
			if (!x.resolved_added)
				snprintf(ks, sizeof(ks), "not resolved");
			if (!x.resolved_abs)
				snprintf(ka, sizeof(ka), "not resolved");
			if (isfinite(x.spread) && b < SB_MAX_BATCHES && x.spread > spread[b]) {
				spread[b] = x.spread;
				snprintf(why[b], sizeof(why[b]), "%s", x.why);
			}
			long row = sb_grid_row(&g);
			sb_grid_set(&g, row, cv, "%s", sb_kernel_variant_name(v));
			sb_grid_set(&g, row, cb, "%llu", (unsigned long long)batch);
			sb_grid_set(&g, row, ct, "%s", v ? ts : "-");
			sb_grid_set(&g, row, cp, "%s", v ? ps : "-");
			sb_grid_set(&g, row, ck, "%s", v ? ks : "-");
			sb_grid_set(&g, row, cpl, "%s", v && sb_estimate_known(&x.paired) ? pl : "-");
			sb_grid_set(&g, row, cva, "%s%s", v ? verdict_text(&x.added) : "-",
				    v && x.added_paired && x.added.verdict != SB_VERDICT_NONE ? "*" : "");
			sb_grid_set(&g, row, cpa, "%s", pa);
			sb_grid_set(&g, row, cka, "%s", ka);
			sb_grid_set(&g, row, cvb, "%s", verdict_text(&x.absolute));
		}
	sb_grid_print(f, &g, SB_TABLE_MAX_COLUMNS);
	sb_grid_free(&g);
	int unresolved = 0;
	for (size_t b = 0; b < k0->n_batches && b < SB_MAX_BATCHES; b++)
		if (spread[b] > 0) {
			fprintf(f, "# not resolved at batch %llu: %s\n", (unsigned long long)k0->cells[b].batch, why[b]);
			unresolved = 1;
		}
	if (unresolved)
		fprintf(f, "#   (not resolved: a kernel figure's 95 %% CI half-width above max(%.0f cycles, %.0f %% of\n"
			"#   its base's cost), or above that cost: no figure, no verdict)\n", SB_KERNEL_RESOLVED_CYCLES,
			100 * SB_KERNEL_RESOLVED_FRACTION);
}


/* parent's member key: the verdict with its margin and the difference's
 * CI, or null without one. */
static void doc_verdict(struct sb_doc *parent, const char *key, const struct sb_verdict_of *v)
{
	const char *n = sb_verdict_name(v->verdict);
	if (!n) {
		sb_doc_null(parent, key);
		return;
	}
	struct sb_doc *o = sb_doc_object(parent, key);
	sb_doc_string(o, "verdict", n);
	sb_doc_number(o, "margin_cycles", v->margin);
	sb_doc_number(o, "difference_cycles", v->diff.value);
	struct sb_doc *ci = sb_doc_array(o, "ci95");
	sb_doc_number(ci, NULL, v->diff.lo);
	sb_doc_number(ci, NULL, v->diff.hi);
}

void sb_kernel_report_doc(struct sb_doc *verdicts, enum sb_kernel_shape shape, const struct sb_results *kernel,
			  const struct sb_results *t, const struct sb_results *placed)
{
	for (int v = SB_KV_BASELINE; v < SB_N_KVARIANTS; v++)
		for (size_t b = 0; b < kernel->n_batches && b < kernel->n_cells; b++) {
			uint64_t batch = kernel->cells[b].batch;
			if (!sb_kernel_report_cell(kernel, SB_SIDE_KERNEL, shape, v, batch))
				continue;
			struct side_by_side x;
			side_by_side_of(&x, shape, kernel, t, placed && placed->n_cells ? placed : NULL, v, batch);
			sb_doc_break(verdicts, "\n      ");
			struct sb_doc *o = sb_doc_object(verdicts, NULL);
			sb_doc_string(o, "shape", sb_kernel_shape_name(shape));
			sb_doc_string(o, "variant", sb_kernel_variant_name(v));
			sb_doc_uint(o, "batch", batch);
			sb_doc_estimate(o, "twin", "delta_cycles", &x.twin);
			sb_doc_estimate(o, "placed", "delta_cycles", &x.placed);
			sb_doc_estimate(o, "kernel", "delta_cycles", &x.kernel);
			/* The placed twin vs the kernel (kernel_verdict.h): added, absolute. */
			sb_doc_string_or_null(o, "verdict", sb_verdict_name(x.unpaired.verdict));
			sb_doc_bool(o, "kernel_resolved", x.resolved_added && x.resolved_abs);
			doc_verdict(o, "added_verdict", &x.unpaired);
			/* The added cost paired by load: what the summary and the
			 * table judge by, where the placed twin has it. */
			struct sb_verdict_of none = {.verdict = SB_VERDICT_NONE};
			doc_verdict(o, "paired_added_verdict", x.added_paired ? &x.added : &none);
			doc_verdict(o, "absolute_verdict", &x.absolute);
		}
}

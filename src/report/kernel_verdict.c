/* kernel_verdict.c: twin against kernel, an equivalence test with a
 * stated margin; see kernel_verdict.h. */
#include "report/kernel_verdict.h"

#include <math.h>
#include <string.h>

#include "stubbench/answer.h"

static const char *const shapes[] = {"per-run", "in-loop"};
static const char *const codegens[] = {"baseline", "private", "hybrid"};
#define N_SHAPES (sizeof(shapes) / sizeof(shapes[0]))
#define N_CODEGENS (sizeof(codegens) / sizeof(codegens[0]))

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
	if (base && r != base)
		*added = sb_estimate_pct_to_cycles(&r->figures[SB_FIGURE_DELTA], base->cycles.value);
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

void sb_kernel_verdict_count(const struct sb_run_file *rf, struct sb_verdict_counts *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t batches[64];
	size_t nb = kernel_batches(rf, batches, 64);
	for (size_t s = 0; s < N_SHAPES; s++)
		for (size_t b = 0; b < nb; b++) {
			enum sb_cell_side ts = twin_side(rf, shapes[s], batches[b]);
			for (size_t v = 0; v < N_CODEGENS; v++) {
				struct sb_estimate ka, kd, ta, td;
				if (sb_kernel_figures(rf, SB_SIDE_KERNEL, codegens[v], shapes[s], batches[b], &ka, &kd) ||
				    sb_kernel_figures(rf, ts, codegens[v], shapes[s], batches[b], &ta, &td))
					continue;
				struct sb_verdict_of abs_v = sb_kernel_verdict(&ta, &ka), add_v = sb_kernel_verdict(&td, &kd);
				count_one(out, 0, &abs_v, codegens[v], shapes[s], batches[b]);
				if (v > 0)
					count_one(out, 1, &add_v, codegens[v], shapes[s], batches[b]);
			}
		}
}

/* One shape's kernel figures at batch (the baseline's cost, what the
 * variants add) and, below, the verdicts of the twin on them. Returns the
 * lines printed: 0 when the run has no such shape. */
static int shape_lines(FILE *f, const struct sb_run_file *rf, const char *shape, uint64_t batch)
{
	struct sb_estimate a, d;
	if (sb_kernel_figures(rf, SB_SIDE_KERNEL, "baseline", shape, batch, &a, &d) != 0)
		return 0;
	enum sb_cell_side ts = twin_side(rf, shape, batch);
	char buf[64], verdicts[160], twin_alone[160];
	size_t n = 0, nt = 0;
	int minus = 0; /* an added cost below zero: the verdicts' line says what that means */
	verdicts[0] = twin_alone[0] = 0;
	fprintf(f, "  %-7s", shape);
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
		sb_answer_estimate(buf, sizeof(buf), v ? &d : &a, v != 0);
		minus |= v && *sb_answer_faster(&d);
		fprintf(f, "%s %s %s", v ? "," : "", v ? codegens[v] : "base", buf);
		struct sb_verdict_of vd = {.verdict = SB_VERDICT_NONE};
		if (sb_kernel_figures(rf, ts, codegens[v], shape, batch, &ta, &td) == 0)
			vd = v ? sb_kernel_verdict(&td, &d) : sb_kernel_verdict(&ta, &a);
		const char *name = sb_verdict_name(vd.verdict);
		if (n < sizeof(verdicts))
			n += (size_t)snprintf(verdicts + n, sizeof(verdicts) - n, "%s%s %s", v ? ", " : "",
					      v ? codegens[v] : "base", name ? name : "n/a");
	}
	const char *tw = ts == SB_SIDE_PLACED_TWIN ? "placed" : "aligned";
	/* Variants the kernel did not run (no private stack there): the
	 * verdicts beside the kernel's figures, the twins' figures below. */
	if (nt) {
		fprintf(f, "; %s twin: %s\n  %-7s twin alone: %s\n", tw, verdicts, "", twin_alone);
		return 2;
	}
	fprintf(f, "\n  %-7s %s twin: %s%s\n", "", tw, verdicts, minus ? "; below 0: faster" : "");
	return 2;
}

static void counts_line(FILE *f, const struct sb_verdict_counts *c, int which)
{
	const size_t *n = c->n[which];
	if (which && !n[SB_VERDICT_AGREE] && !n[SB_VERDICT_DIFFER] && !n[SB_VERDICT_INCONCLUSIVE]) {
		fprintf(f, "added cost: no verdict (no private or hybrid program measured in the kernel)\n");
		return;
	}
	char line[512];
	int k = snprintf(line, sizeof(line), "%s, all batches: %zu agree, %zu differ, %zu inconclusive",
			 which ? "added cost" : "absolute", n[SB_VERDICT_AGREE], n[SB_VERDICT_DIFFER],
			 n[SB_VERDICT_INCONCLUSIVE]);
	/* The cell where twin and kernel differ most, twin - kernel in
	 * cycles: with where it is where that fits. */
	if (c->worst[which].verdict == SB_VERDICT_DIFFER) {
		char most[256];
		snprintf(most, sizeof(most), "; twin - kernel most: %+.1f cycles, %s", c->worst[which].diff.value,
			 c->worst_where[which]);
		if (k + strlen(most) > SB_ANSWER_MAX_COLUMNS)
			snprintf(most, sizeof(most), "; twin - kernel most: %+.1f cycles", c->worst[which].diff.value);
		snprintf(line + k, sizeof(line) - (size_t)k, "%s", most);
	}
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
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
	int lines = 0;
	if (rf->kernel_driver[0]) {
		char line[300];
		snprintf(line, sizeof(line), "kernel: %s", rf->kernel_driver);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		lines++;
	}
	fprintf(f, "kernel at batch %llu, cycles per iteration (95 %% CI): base's cost, what the others add;\n"
		   "verdict: CI of twin - kernel within ±max(1 cycle, 10 %% of the kernel): agree, outside: differ\n",
		(unsigned long long)b);
	lines += 2;
	for (size_t s = 0; s < N_SHAPES; s++)
		lines += shape_lines(f, rf, shapes[s], b);
	struct sb_verdict_counts c;
	sb_kernel_verdict_count(rf, &c);
	counts_line(f, &c, 0);
	counts_line(f, &c, 1);
	lines += 2;
	if (lines < max_lines) {
		fprintf(f, "every verdict: --table; every figure: --format=json\n");
		lines++;
	}
	return lines;
}

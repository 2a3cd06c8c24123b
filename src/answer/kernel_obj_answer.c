/* kernel_obj_answer.c: the summary of `stubbench kernel --obj` (answer.h),
 * from the run's rows, so that a saved run prints the same: per program at
 * the largest batch, what it costs in the kernel (against the first
 * program; the kernel's own A/B where it was loaded again as a syscall
 * program, which gets no private stack), whether its twin placed like the
 * loads agrees, and what its private stack costs: its twin against its
 * de-privatized self at identical layout.
 *
 *   with_frame at batch 4096, cycles per iteration (95 % CI; twin: placed like the loads):
 *     kernel 29.43 [28.80, 30.06]; twin 29.45: agree
 *     private stack: codegen +0.00 [-0.01, +0.01] this run, layout +0.28 [+0.03, +0.55]
 *       placed like the loads: +0.44 [+0.01, +0.80], 1.02 ± 0.01 x the de-privatized twin's time
 *       in the kernel (these loads): +1.28 [+0.65, +1.91] cycles vs itself as a syscall program
 */
#include "answer/kernel_obj_answer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "answer/answer.h"
#include "output/figures.h"
#include "answer/kernel_verdict.h"
#include "output/output.h"

static const struct sb_run_row *row_of(const struct sb_run_file *rf, enum sb_cell_side side, const char *codegen,
				       uint64_t batch)
{
	return sb_answer_find(rf, side, "user-obj", codegen, NULL, batch);
}

/* The kernel's line of program k: its cycles, and against the first
 * program (base) where it is not that one; its twin's with the verdict. */
static void kernel_line(FILE *f, const struct sb_run_file *rf, const struct sb_run_row *k,
			const struct sb_run_row *base, uint64_t b)
{
	char cyc[64], d[64], line[400];
	if (!sb_kernel_resolved(&k->cycles, &k->cycles)) {
		/* The driver's spread, not a cost: no figure, no verdict. */
		fprintf(f, "  kernel: not resolved at batch %llu: the driver's own spread is ±%.1f cycles\n",
			(unsigned long long)b, sb_estimate_half_width(&k->cycles));
		return;
	}
	sb_answer_estimate(cyc, sizeof(cyc), &k->cycles, 0);
	/* A CI that reaches below zero: no cost told apart from the empty program's. */
	int n = snprintf(line, sizeof(line), "  kernel %s%s", cyc,
			 sb_estimate_has_ci(&k->cycles) && k->cycles.lo < 0 ? " (CI below 0: not told apart from empty)"
									      : "");
	const struct sb_estimate *delta = &k->figures[SB_FIGURE_DELTA];
	if (sb_estimate_known(delta) && base) {
		sb_answer_estimate(d, sizeof(d), delta, 1);
		n += snprintf(line + n, sizeof(line) - (size_t)n, " (%s %% vs %.20s)", d, base->key.codegen);
	}
	const struct sb_run_row *t = row_of(rf, SB_SIDE_PLACED_TWIN, k->key.codegen, b);
	if (t && sb_estimate_known(&t->cycles)) {
		struct sb_verdict_of v = sb_kernel_verdict(&t->cycles, &k->cycles);
		const char *vn = sb_verdict_name(v.verdict);
		snprintf(line + n, sizeof(line) - (size_t)n, "; twin %.2f: %s", t->cycles.value, vn ? vn : "no verdict");
		/* A differing twin is never left bare: how far it is from the
		 * kernel, which way in words, as much of it as fits. */
		if (v.verdict == SB_VERDICT_DIFFER) {
			size_t at = strlen(line);
			const char *fmt[] = {", %s the kernel by %.2f cycles; cause unknown", ", %s the kernel by %.2f",
					     ", %2$.2f %1$s"};
			const char *rel = t->cycles.value < k->cycles.value ? "below" : "above";
			for (size_t i = 0; i < sizeof(fmt) / sizeof(fmt[0]); i++) {
				snprintf(line + at, sizeof(line) - at, fmt[i], rel, fabs(k->cycles.value - t->cycles.value));
				if (strlen(line) <= SB_ANSWER_MAX_COLUMNS)
					break;
			}
		}
	}
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		memcpy(line + SB_ANSWER_MAX_COLUMNS - 3, "...", 4);
	fprintf(f, "%s\n", line);
}

/* Program k's copy loaded as a syscall program, or NULL. */
static const struct sb_run_row *syscall_copy(const struct sb_run_file *rf, const struct sb_run_row *k, uint64_t b)
{
	char name[160];
	snprintf(name, sizeof(name), "%s@syscall", k->key.codegen);
	return row_of(rf, SB_SIDE_KERNEL, name, b);
}

/* The kernel's own A/B of program k: raw_tp (a private stack) minus its
 * copy sys loaded as a syscall program (none), each over the run's loads:
 * its CI resamples these loads, not the next run's. */
static struct sb_estimate kernel_ab(char *buf, size_t len, const struct sb_run_row *k, const struct sb_run_row *sys)
{
	struct sb_estimate ab = sb_estimate_difference(&k->cycles, &sys->cycles);
	sb_answer_estimate(buf, len, &ab, 1);
	return ab;
}

/* The A/B's line: the figure, or where it is the drivers' spread (not
 * resolved against the syscall copy's cost, kernel_verdict.h), that. */
static void ab_line(FILE *f, const char *lead, const struct sb_run_row *k, const struct sb_run_row *sys, uint64_t b)
{
	char cyc[64], line[512];
	struct sb_estimate ab = kernel_ab(cyc, sizeof(cyc), k, sys);
	if (!sb_kernel_resolved(&ab, &sys->cycles) || !sb_kernel_resolved(&sys->cycles, &sys->cycles)) {
		double w = fmax(sb_estimate_half_width(&ab), sb_estimate_half_width(&sys->cycles));
		snprintf(line, sizeof(line), "%s: not resolved at batch %llu: the drivers' own spread is ±%.1f cycles",
			 lead, (unsigned long long)b, w);
		if (strlen(line) > SB_ANSWER_MAX_COLUMNS) /* bytes: '±' counts twice */
			snprintf(line, sizeof(line), "%s: not resolved at batch %llu: drivers' spread ±%.0f cycles",
				 lead, (unsigned long long)b, w);
		fprintf(f, "%s\n", line);
		return;
	}
	snprintf(line, sizeof(line), "%s: %s cycles vs itself as a syscall program", lead, cyc);
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "%s: %s cycles vs its syscall copy", lead, cyc);
	sb_answer_line_faster(f, line, &ab);
}

/* How many lines program k takes at least: its heading, the kernel's
 * line, and the private stack's (one, two, or three with the kernel's
 * A/B); the lines that yield to the budget (private_lines) not counted. */
static int program_lines(const struct sb_run_file *rf, const struct sb_run_row *k, uint64_t b)
{
	char twin[160];
	snprintf(twin, sizeof(twin), "%s-twin", k->key.codegen);
	return row_of(rf, SB_SIDE_TWIN, twin, b) ? 4 + (syscall_copy(rf, k, b) != NULL) : 3;
}

/* Program k's twin at b has its codegen apart from its placed cost (the
 * summary's quote line is for it); 0 where it has no twin. */
static int twin_apart(const struct sb_run_file *rf, const struct sb_run_row *k, uint64_t b)
{
	char twin[160];
	snprintf(twin, sizeof(twin), "%s-twin", k->key.codegen);
	const struct sb_run_row *t = row_of(rf, SB_SIDE_TWIN, twin, b);
	return t && sb_answer_codegen_apart(t);
}

/* The private stack's lines of program k (two, three with the kernel's
 * A/B), or one saying there is no such figure. */
static int private_lines(FILE *f, const struct sb_run_file *rf, const struct sb_run_row *k, uint64_t b,
			 int max_lines)
{
	char twin[160], depriv[180];
	snprintf(twin, sizeof(twin), "%s-twin", k->key.codegen);
	snprintf(depriv, sizeof(depriv), "%s:deprivatized", twin);
	const struct sb_run_row *t = row_of(rf, SB_SIDE_TWIN, twin, b), *d = row_of(rf, SB_SIDE_TWIN, depriv, b);
	int dc = sb_figure_index("delta-cycles");
	const struct sb_run_row *sys = syscall_copy(rf, k, b);
	char cyc[64], line[512];
	if (!t || !d || dc < 0) {
		if (!sys) {
			fprintf(f, "  private stack: none measured (%s)\n",
				rf->not_measured[0] ? "none in this kernel's JIT: see 'not measured'"
						    : "none in its JIT, or the notes say why");
			return 1;
		}
		/* No twins (a build without them, or none comparable): the
		 * kernel's A/B alone. */
		ab_line(f, "  private stack, in the kernel (these loads)", k, sys, b);
		return 1;
	}
	/* The lines that may yield to the budget (max_lines: what is left
	 * after the two below and the kernel's A/B): the signs-differ line
	 * first, the codegen + layout line second. */
	int room = max_lines - 2 - (sys != NULL);
	if (room < 0)
		return 0;
	char ratio[32], cg[96], lay[72] = "";
	sb_answer_ratio(ratio, sizeof(ratio), &t->figures[SB_FIGURE_DELTA]);
	sb_answer_estimate(cyc, sizeof(cyc), &t->figures[dc], 1);
	sb_answer_codegen(cg, sizeof(cg), t);
	int li = sb_figure_index("layout");
	if (li >= 0 && sb_estimate_known(&t->figures[li])) {
		char l[56];
		sb_answer_estimate(l, sizeof(l), &t->figures[li], 1);
		snprintf(lay, sizeof(lay), ", layout %s", l);
	}
	/* The codegen at identical layout first, what the twin placed like
	 * the loads pays second. Their CIs hold what varies within this run:
	 * kernel --obj keeps no record of past runs to give a next-run range. */
	snprintf(line, sizeof(line), "  private stack: codegen %s%s", cg, lay);
	sb_answer_line_faster(f, line, sb_answer_codegen_figure(t));
	snprintf(line, sizeof(line), "    placed like the loads: %s, %s x the de-privatized twin's time", cyc, ratio);
	sb_answer_line_faster(f, line, &t->figures[dc]);
	int lines = 2;
	int differ = sb_answer_signs_differ(&t->figures[SB_FIGURE_CODEGEN], &t->figures[dc]);
	if (li >= 0 && room > differ &&
	    sb_costs_disagree(&t->figures[SB_FIGURE_CODEGEN], &t->figures[li], &t->figures[dc])) {
		fprintf(f, "    (codegen + layout do not add up to the placed cost within the CIs: --table)\n");
		lines++;
	}
	if (differ && room > 0) {
		struct sb_estimate lay_e = li >= 0 ? t->figures[li] : sb_estimate_absent("no layout figure");
		sb_answer_signs_line(line, sizeof(line), "    ", &t->figures[SB_FIGURE_CODEGEN], &t->figures[dc], &lay_e);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		lines++;
	}
	if (!sys)
		return lines;
	ab_line(f, "    in the kernel (these loads)", k, sys, b);
	return lines + 1;
}

/* A program's row in the kernel at batch b (not its copy loaded as a
 * syscall program). */
static int is_program(const struct sb_run_file *rf, const struct sb_run_row *r, uint64_t b)
{
	if (!(r->key.side == SB_SIDE_KERNEL && strcmp(r->key.family, "user-obj") == 0 && r->batch == b &&
	      r->key.placement < 0))
		return 0;
	/* Not another program's copy loaded as a syscall program. */
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *p = &rf->rows[i];
		if (p != r && p->key.side == SB_SIDE_KERNEL && p->batch == b && syscall_copy(rf, p, b) == r)
			return 0;
	}
	return 1;
}

int sb_kernel_obj_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	uint64_t b = sb_answer_largest_batch(rf);
	int lines = 0, both = 0;
	size_t skipped = 0;
	const struct sb_run_row *base = NULL;
	for (size_t i = 0; i < rf->n_rows && !base; i++)
		if (is_program(rf, &rf->rows[i], b) && !sb_estimate_known(&rf->rows[i].figures[SB_FIGURE_DELTA]))
			base = &rf->rows[i];
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *k = &rf->rows[i];
		if (!is_program(rf, k, b))
			continue;
		if (max_lines - lines < 1 + program_lines(rf, k, b)) {
			skipped++;
			continue;
		}
		fprintf(f, "%s at batch %llu, cycles per iteration (95 %% CI; twin: placed like the loads):\n",
			k->key.codegen, (unsigned long long)b);
		kernel_line(f, rf, k, base, b);
		lines += 2;
		lines += private_lines(f, rf, k, b, max_lines - lines - 1);
		both |= twin_apart(rf, k, b);
	}
	if (!lines && max_lines > 0) {
		fprintf(f, "(no program has a figure at batch %llu)\n", (unsigned long long)b);
		lines++;
	}
	if (skipped && lines < max_lines) {
		fprintf(f, "(%zu more program%s: --table)\n", skipped, skipped == 1 ? "" : "s");
		lines++;
	}
	/* Which figure answers what, where a program shown has both and there
	 * is room. */
	if (both && lines + 1 < max_lines) {
		fprintf(f, "%s\n", SB_ANSWER_QUOTE_LINE);
		lines++;
	}
	if (lines < max_lines) {
		fprintf(f, "the full table: --table; every figure: --format=json\n");
		lines++;
	}
	return lines;
}

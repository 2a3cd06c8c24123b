/* test_answer.c: the summary's pieces on made-up and recorded figures:
 *   - the kernel verdict (kernel_verdict.h): agree inside the margin,
 *     differ outside it, inconclusive across an edge, none without a CI;
 *     the margin is 1 cycle or 10 % of the kernel, whichever is larger;
 *     on an added cost paired by load, the same rule on that difference;
 *   - where a figure not resolved has its spread (made-up intervals
 *     between and within loads): the loads or the driver named only where
 *     twice the other and half the figure's spread, else no cause;
 *   - recorded on an AMD EPYC Zen 4 VM whose returns go through
 *     srso_alias_return_thunk: `stubbench kernel --thunk=ret` (the twins
 *     return with ret) differs from the kernel on the baseline's absolute
 *     cost at all but at most two of its 12 batches and shapes (a busy
 *     core left one too wide to tell), and agrees at none; the default run
 *     (twins through the same thunk) does not differ at batch 4096;
 *   - the figures' format: no ±0.00 for a CI narrower than a hundredth,
 *     no -0.00, n/a without a figure; hyperfine's ratio;
 *   - the lab's ranking on made-up rows: the cheapest beyond the CIs, and
 *     which are indistinguishable from the placement control;
 *   - a loop state's lines (sb_answer_state_lines): the state's parts by
 *     name, counted without their places where the names do not fit; 5
 *     lines within 100 columns, 4 with room for 4, none for an additive
 *     attribution.
 * usage: test_answer DATA_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "answer/answer.h"
#include "answer/answer.h"
#include "stats/core_states.h"
#include "stats/attribution.h"
#include "answer/kernel_verdict.h"
#include "answer/lab_rank.h"

static struct sb_estimate est(double v, double lo, double hi)
{
	return sb_estimate_of(v, lo, hi);
}

static void made_up_verdicts(void)
{
	struct sb_estimate t = est(100, 99, 101), k = est(100.5, 99.5, 101.5);
	struct sb_verdict_of v = sb_kernel_verdict(&t, &k);
	CHECK(v.verdict == SB_VERDICT_AGREE, "close absolute costs: %s", sb_verdict_name(v.verdict));
	CHECK(fabs(v.margin - 10.05) < 1e-9, "margin 10 %% of the kernel: %g", v.margin);
	CHECK(fabs(v.diff.value + 0.5) < 1e-9 && fabs(v.diff.lo - (-0.5 - hypot(1, 1))) < 1e-9,
	      "difference and its CI: %g [%g, %g]", v.diff.value, v.diff.lo, v.diff.hi);
	t = est(60, 59, 61);
	k = est(100, 98, 102);
	v = sb_kernel_verdict(&t, &k);
	CHECK(v.verdict == SB_VERDICT_DIFFER, "plain ret vs a thunk: %s", sb_verdict_name(v.verdict));
	/* Added costs: the margin is one cycle. */
	t = est(2, 0, 4);
	k = est(1, -2, 4);
	v = sb_kernel_verdict(&t, &k);
	CHECK(v.margin == 1 && v.verdict == SB_VERDICT_INCONCLUSIVE, "wide CIs: %s, margin %g",
	      sb_verdict_name(v.verdict), v.margin);
	t = est(1.2, 1.0, 1.4);
	k = est(1.0, 0.8, 1.2);
	v = sb_kernel_verdict(&t, &k);
	CHECK(v.verdict == SB_VERDICT_AGREE, "narrow added costs: %s", sb_verdict_name(v.verdict));
	t = est(4.0, 3.8, 4.2);
	v = sb_kernel_verdict(&t, &k);
	CHECK(v.verdict == SB_VERDICT_DIFFER, "3 cycles apart, narrow: %s", sb_verdict_name(v.verdict));
	t = sb_estimate_of(4, NAN, NAN);
	v = sb_kernel_verdict(&t, &k);
	CHECK(v.verdict == SB_VERDICT_NONE && !sb_verdict_name(v.verdict), "no CI, no verdict");
}

/* The added cost paired by load (sb_kernel_added_verdict): the same rule
 * on the paired difference where there is one, the two CIs otherwise. */
static void made_up_paired(void)
{
	struct sb_estimate t = est(2, -2, 6), k = est(8, 4, 12), paired = est(-0.2, -0.6, 0.3);
	int was = -1;
	struct sb_verdict_of v = sb_kernel_added_verdict(&t, &k, &paired, &was);
	CHECK(was == 1 && v.verdict == SB_VERDICT_AGREE && v.diff.value == -0.2, "paired: %s",
	      sb_verdict_name(v.verdict));
	paired = est(-6.6, -8.1, -5.0);
	v = sb_kernel_added_verdict(&t, &k, &paired, &was);
	CHECK(v.verdict == SB_VERDICT_DIFFER && v.margin == 1, "paired apart: %s", sb_verdict_name(v.verdict));
	paired = sb_estimate_absent("aligned twin");
	v = sb_kernel_added_verdict(&t, &k, &paired, &was);
	CHECK(was == 0 && v.verdict == SB_VERDICT_INCONCLUSIVE && v.diff.value == -6, "unpaired: %s",
	      sb_verdict_name(v.verdict));
	v = sb_kernel_added_verdict(&t, &k, NULL, NULL);
	CHECK(v.verdict == SB_VERDICT_INCONCLUSIVE, "no paired figure: %s", sb_verdict_name(v.verdict));
}

/* Where a kernel figure's spread comes from (sb_kernel_unresolved_reason):
 * a cause named only where it is twice the other and half the figure's
 * spread; no cause where the run cannot say. */
static void made_up_reasons(void)
{
	struct {
		double half;
		struct sb_estimate between, within;
		const char *want;
	} c[] = {
		{10.3, est(7, -1, 15), est(7, 6.6, 7.4), "the loads differ: ±8.0 cycles, ±0.4 within a load"},
		{45.9, est(100, 99, 101), est(100, 60, 140), "the driver's own spread is ±45.9 cycles"},
		{45.9, sb_estimate_absent("one load"), est(100, 70, 130), "the driver's own spread is ±45.9 cycles"},
		{40, est(12, 11.9, 12.1), est(12, 11.8, 12.2), "±40.0 cycles (±0.1 between loads, ±0.2 within)"},
		{40, est(12, 0, 24), est(12, 6, 18), "±40.0 cycles (±12.0 between loads, ±6.0 within)"},
		{9, est(12, 3, 21), est(12, 7, 17), "±9.0 cycles (±9.0 between loads, ±5.0 within)"},
		{64.5, est(5, -55, 65), sb_estimate_absent("no load of two blocks"),
		 "±64.5 cycles (one block a load: loads and driver not told apart)"},
		{45.9, sb_estimate_absent("an older run"), sb_estimate_absent("an older run"),
		 "±45.9 cycles (this run has no figures by load)"},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[160];
		sb_kernel_unresolved_reason(buf, sizeof(buf), c[i].half, &c[i].between, &c[i].within);
		CHECK(strcmp(buf, c[i].want) == 0, "case %zu: %s, want %s", i, buf, c[i].want);
	}
}

/* The verdict on the baseline's absolute cost, per shape and batch, of a
 * recorded kernel run; how many of them were `want`. */
static void recorded_baseline(const char *path, enum sb_verdict want, int every)
{
	struct sb_run_file rf;
	char err[512];
	if (sb_run_file_load(path, &rf, err, sizeof(err)) != 0) {
		CHECK(0, "%s", err);
		return;
	}
	static const char *const shapes[] = {"per-run", "in-loop"};
	static const uint64_t batches[] = {1, 8, 64, 512, 2048, 4096};
	int n = 0, hits = 0, agreed = 0;
	for (size_t s = 0; s < 2; s++)
		for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
			struct sb_estimate ka, kd, ta, td;
			if (sb_kernel_figures(&rf, SB_SIDE_KERNEL, "baseline", shapes[s], batches[b], &ka, &kd) ||
			    sb_kernel_figures(&rf, SB_SIDE_PLACED_TWIN, "baseline", shapes[s], batches[b], &ta, &td))
				continue;
			struct sb_verdict_of v = sb_kernel_verdict(&ta, &ka);
			n++;
			hits += v.verdict == want;
			agreed += v.verdict == SB_VERDICT_AGREE;
		}
	CHECK(n == 12, "%s: 12 baseline verdicts, got %d", path, n);
	/* A busy core leaves a cell or two too wide to tell: never agree. */
	if (every)
		CHECK(hits >= n - 2 && agreed == 0, "%s: the baseline %s, %d of %d, agree %d", path,
		      sb_verdict_name(want), hits, n, agreed);
	/* At the largest batch, per shape. */
	for (size_t s = 0; s < 2 && !every; s++) {
		struct sb_estimate ka, kd, ta, td;
		int ok = !sb_kernel_figures(&rf, SB_SIDE_KERNEL, "baseline", shapes[s], 4096, &ka, &kd) &&
			 !sb_kernel_figures(&rf, SB_SIDE_PLACED_TWIN, "baseline", shapes[s], 4096, &ta, &td);
		struct sb_verdict_of v = sb_kernel_verdict(&ta, &ka);
		CHECK(ok && v.verdict != want, "%s: baseline %s @4096 not %s", path, shapes[s], sb_verdict_name(want));
	}
	struct sb_verdict_counts c;
	sb_kernel_verdict_count(&rf, &c);
	size_t total = 0;
	for (int i = 0; i < 4; i++)
		total += c.n[0][i];
	/* A figure that is the driver's spread (not resolved) gets none. */
	CHECK(total + c.not_resolved[0] == 36, "%s: 36 absolute figures (3 arms x 2 shapes x 6 batches), got %zu "
	      "verdicts and %zu not resolved", path, total, c.not_resolved[0]);
	sb_run_file_free(&rf);
}

static void formats(void)
{
	char buf[96];
	struct sb_estimate e = est(1.0004, 0.9991, 1.0012);
	sb_answer_estimate(buf, sizeof(buf), &e, 1);
	CHECK(strcmp(buf, "+1.000 [+0.999, +1.001]") == 0, "narrow CI: %s", buf);
	e = est(-0.001, -0.08, 0.03);
	sb_answer_estimate(buf, sizeof(buf), &e, 1);
	CHECK(strcmp(buf, "+0.00 [-0.08, +0.03]") == 0, "no -0.00: %s", buf);
	e = est(-0.82, -2.10, -0.004);
	sb_answer_estimate(buf, sizeof(buf), &e, 1);
	CHECK(strcmp(buf, "-0.82 [-2.10, +0.00]") == 0, "no -0.00 bound: %s", buf);
	e = sb_estimate_absent("x");
	sb_answer_estimate(buf, sizeof(buf), &e, 1);
	CHECK(strcmp(buf, "n/a") == 0, "absent: %s", buf);
	struct sb_run_row r;
	memset(&r, 0, sizeof(r));
	r.figures[SB_FIGURE_CODEGEN] = sb_estimate_absent("no placement and process in both: a longer --time");
	sb_answer_codegen(buf, sizeof(buf), &r);
	CHECK(strcmp(buf, "none (no placement and process in both: a longer --time)") == 0, "no codegen: %s", buf);
	r.figures[SB_FIGURE_CODEGEN] = sb_estimate_absent("not in the file");
	sb_answer_codegen(buf, sizeof(buf), &r);
	CHECK(strcmp(buf, "none") == 0, "no codegen in a file: %s", buf);
	e = est(7, 6, 8);
	sb_answer_ratio(buf, sizeof(buf), &e);
	CHECK(strcmp(buf, "1.07 ± 0.01") == 0, "ratio: %s", buf);
	e = est(7, 6.9, 7.1);
	sb_answer_ratio(buf, sizeof(buf), &e);
	CHECK(strcmp(buf, "1.070 ± 0.001") == 0, "narrow ratio not ± 0.00: %s", buf);
}

static struct sb_run_row lab_row(const char *codegen, double delta, double lo, double hi)
{
	struct sb_run_row r;
	memset(&r, 0, sizeof(r));
	snprintf(r.variant, sizeof(r.variant), "lab-%s", codegen);
	sb_cell_key_set(&r.key, SB_SIDE_LAB, "lab", codegen, "v6.18", "srso-alias", "per-run", r.variant);
	r.batch = 512;
	r.cycles = est(100, 99, 101);
	r.figures[SB_FIGURE_DELTA] = strcmp(codegen, "baseline") ? est(delta, lo, hi) : sb_estimate_absent("baseline");
	return r;
}

static void lab_ranking(void)
{
	/* Costs in % of a 100-cycle baseline: cycles alike. */
	struct sb_run_row rows[] = {
		lab_row("baseline", 0, 0, 0),          lab_row("mainline", 5, 4, 6),
		lab_row("callee-saved", 1, 0.5, 1.5),  lab_row("reload", 3, 2, 4),
		lab_row("placement-control", 0.2, -1, 1.4),
	};
	struct sb_run_file rf;
	memset(&rf, 0, sizeof(rf));
	rf.rows = rows;
	rf.n_rows = sizeof(rows) / sizeof(rows[0]);
	snprintf(rf.thunk, sizeof(rf.thunk), "srso_alias_return_thunk");
	CHECK(strcmp(sb_lab_rank_return_of(rf.thunk), "srso-alias") == 0, "the host's lab return");
	struct sb_lab_rank k;
	CHECK(sb_lab_rank(&rf, "srso-alias", "per-run", &k) == 0, "a ranking");
	CHECK(k.n == 3 && k.control.row && k.batch == 512, "three alternatives and the control");
	CHECK(k.n == 3 && !strcmp(k.alt[0].row->key.codegen, "callee-saved") &&
		      !strcmp(k.alt[1].row->key.codegen, "reload") && !strcmp(k.alt[2].row->key.codegen, "mainline"),
	      "cheapest first");
	CHECK(k.cheapest == 0, "callee-saved is cheapest beyond the CIs");
	CHECK(fabs(k.margin.value - 2) < 1e-9 && fabs(k.margin.lo - (2 - hypot(1, 0.5))) < 1e-9,
	      "margin over reload: %g [%g, %g]", k.margin.value, k.margin.lo, k.margin.hi);
	CHECK(k.alt[0].like_control && !k.alt[1].like_control && !k.alt[2].like_control,
	      "only callee-saved is like the control");
	CHECK(fabs(k.alt[2].vs_mainline.value) < 1e-9, "mainline vs itself: 0");
	/* Reload's CI widened over callee-saved's: no cheapest. */
	rows[3].figures[SB_FIGURE_DELTA] = est(1.5, -1, 4);
	CHECK(sb_lab_rank(&rf, "srso-alias", "per-run", &k) == 0 && k.cheapest == -1, "a tie: none cheapest");
	CHECK(sb_lab_rank(&rf, "ret", "per-run", &k) == -1, "no such group");
}

/* The state lines of t (its verdict computed) with room lines into buf. */
static int state_text(const struct sb_attribution *t, const char *const *names, int room, char *buf, size_t len)
{
	struct sb_attribution_state s;
	sb_attribution_state_of(t, &s);
	memset(buf, 0, len);
	FILE *f = fmemopen(buf, len, "w");
	int n = f ? sb_answer_state_lines(f, t, &s, names, room) : -1;
	if (f)
		fclose(f);
	return n;
}

static void state_lines(void)
{
	/* The whole 3 (total 3, no layout); parts 1, 2, 4 read about 3 each. */
	struct sb_attribution t = {.n_parts = 4, .total = est(3, 2.5, 3.5), .interaction = est(-6, -6.5, -5.5)};
	t.layout = sb_estimate_absent("no layout arm");
	double v[] = {3.1, 0.2, 2.9, 2.8};
	for (size_t k = 0; k < 4; k++)
		t.nop[k] = est(v[k], v[k] - 0.3, v[k] + 0.3), t.sum_parts += v[k];
	const char *shrt[] = {"gs add sub+0x1d", "r9 load main+0x13", "push/pop r9 main+0x3c", "push/pop r9 main+0x45"};
	const char *lng[] = {"gs add sub_with_a_very_long_name_indeed+0x1d", "r9 load main+0x13",
			     "push/pop r9 main_with_a_very_long_name+0x3c", "push/pop r9 main_with_a_very_long_name+0x45"};
	char buf[2048];
	int n = state_text(&t, shrt, 5, buf, sizeof(buf));
	CHECK(n == 5 && strstr(buf, "these 3 parts") &&
	      strstr(buf, "  those parts: gs add sub+0x1d, push/pop r9 main+0x3c, push/pop r9 main+0x45\n") &&
	      strstr(buf, "the 1 other part, each NOPed alone: +0.20 to +0.20"), "%d lines:\n%s", n, buf);
	n = state_text(&t, lng, 4, buf, sizeof(buf));
	CHECK(n == 4 && strstr(buf, "  those parts: gs add, push/pop r9 x2\n") && !strstr(buf, "other part"),
	      "%d lines:\n%s", n, buf);
	int width = 1;
	for (const char *l = buf; *l; l = strchr(l, '\n') + 1)
		width &= strchr(l, '\n') - l <= SB_ANSWER_MAX_COLUMNS;
	CHECK(width, "a line over %d columns:\n%s", SB_ANSWER_MAX_COLUMNS, buf);
	CHECK(state_text(&t, shrt, 3, buf, sizeof(buf)) == 0, "%s", "room for 3 lines");
	t.interaction = est(-1, -3, 1);
	CHECK(state_text(&t, shrt, 5, buf, sizeof(buf)) == 0 && buf[0] == '\0', "additive: %s", buf);
}

/* A variant's two lines stay within 100 columns whatever its figures: the
 * second without the ratio where it would be wider. */
static void wide_figures(void)
{
	struct sb_run_file rf;
	memset(&rf, 0, sizeof(rf));
	struct sb_run_row rows[2];
	memset(rows, 0, sizeof(rows));
	const char *codegens[] = {"baseline", "private"};
	for (int i = 0; i < 2; i++) {
		struct sb_run_row *r = &rows[i];
		snprintf(r->variant, sizeof(r->variant), "host-%s", codegens[i]);
		sb_cell_key_set(&r->key, SB_SIDE_REPLICA, "replica-host", codegens[i], "v6.18", "rethunk", "", r->variant);
		r->batch = 8;
		r->cycles = est(12, 11, 13);
		r->figures[SB_FIGURE_DELTA] = i ? est(-480000, -4900000, 3950000) : sb_estimate_absent("baseline");
		r->figures[SB_FIGURE_CODEGEN] = i ? est(-58123.1, -590977.9, 474731.8) : sb_estimate_absent("baseline");
	}
	rf.rows = rows;
	rf.n_rows = 2;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int n = sb_answer_variants(f, &rf, 8);
	fclose(f);
	CHECK(n == 2, "%d lines: %s", n, buf);
	char *second = buf ? strchr(buf, '\n') : NULL;
	CHECK(second && strcmp(second + 1, "  host-private: total -58123.1 [-590977.9, +474731.8] this run (maybe faster)\n") == 0,
	      "the second line without the ratio: %s", buf);
	for (char *line = buf; line && *line;) {
		char *end = strchr(line, '\n');
		size_t w = end ? (size_t)(end - line) : strlen(line);
		CHECK(w <= SB_ANSWER_MAX_COLUMNS, "a line of %zu columns: %.*s", w, (int)w, line);
		line = end ? end + 1 : NULL;
	}
	free(buf);
}

/* A padded run whose codegen and placed cost have opposite signs (the
 * diff of the user: codegen +0.45, placed -5.96, layout -6.41):
 * the codegen leads, placed beside it, and a third line says the signs
 * differ, with the layout's share; with the same signs, no such line. */
static void signs_differ(void)
{
	int li = sb_figure_index("layout");
	CHECK(li >= 0, "%s", "a layout figure");
	if (li < 0)
		return;
	struct sb_run_file rf;
	memset(&rf, 0, sizeof(rf));
	struct sb_run_row rows[2];
	memset(rows, 0, sizeof(rows));
	const char *codegens[] = {"baseline", "private"};
	for (int same = 0; same < 2; same++) {
		for (int i = 0; i < 2; i++) {
			struct sb_run_row *r = &rows[i];
			snprintf(r->variant, sizeof(r->variant), "host-%s", codegens[i]);
			sb_cell_key_set(&r->key, SB_SIDE_REPLICA, "replica-host", codegens[i], "v6.18", "rethunk", "",
					r->variant);
			r->batch = 512;
			r->cycles = est(100, 99, 101);
			r->figures[SB_FIGURE_DELTA] = i ? (same ? est(5.96, 4.48, 7.33) : est(-5.96, -7.33, -4.48))
							: sb_estimate_absent("baseline");
			r->figures[SB_FIGURE_CODEGEN] = i ? est(0.45, -0.37, 0.96) : sb_estimate_absent("baseline");
			r->figures[li] = i ? (same ? est(5.51, 4.0, 7.0) : est(-6.41, -7.9, -4.9)) : sb_estimate_absent("baseline");
		}
		rf.rows = rows;
		rf.n_rows = 2;
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int n = sb_answer_variants(f, &rf, 8);
		fclose(f);
		const char *want = "host-private   codegen +0.45 [-0.37, +0.96] this run (host, rethunk)\n"
				   "  placed -5.96 [-7.33, -4.48]: host-private took 0.94 ± 0.01 x host-baseline's time (faster)\n"
				   "  signs differ: codegen +0.45, layout -6.41 (108 % of placed): the placement makes it faster\n";
		if (!same)
			CHECK(n == 3 && buf && strcmp(buf, want) == 0, "%d lines:\n%s", n, buf);
		else
			CHECK(n == 2 && buf && !strstr(buf, "signs differ") && strstr(buf, "codegen +0.45"), "%d lines:\n%s",
			      n, buf);
		free(buf);
	}
}

/* The core-state line of a run that saw one cluster and has no quiet
 * level: with a record too short (a first run), it says so and to run
 * again, naming no file; with no record kept, that; by the record, the
 * state and the level. */
static void first_run_state(void)
{
	struct sb_state_figures st;
	memset(&st, 0, sizeof(st));
	st.n_blocks = 200;
	st.split.basis = "none";
	st.split.n[SB_CORE_UNKNOWN] = 200;
	st.split.median[SB_CORE_UNKNOWN] = 3.86;
	struct sb_run_file rf;
	memset(&rf, 0, sizeof(rf));
	rf.states = &st;
	const char *why[] = {SB_CORE_RECORD_SHORT, NULL, SB_CORE_RECORD_OFF};
	const char *want[] = {
		"core state: unknown: the record needs two runs on this machine: run again; canary 3.86 adds/cycle\n",
		"core state: unknown: the record needs two runs on this machine: run again; canary 3.86 adds/cycle\n",
		"core state: unknown: no record of quiet levels kept to name it by; canary 3.86 adds/cycle\n"};
	for (int i = 0; i < 3; i++) {
		st.split.no_level = why[i];
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		int n = sb_answer_core_states(f, &rf, 2);
		fclose(f);
		CHECK(n == 1 && buf && strcmp(buf, want[i]) == 0 && !strstr(buf, "FILE"), "%s: %s",
		      why[i] ? why[i] : "(older file)", buf);
		free(buf);
	}
	st.split.basis = "record";
	st.split.quiet_level = 3.87;
	st.split.n[SB_CORE_UNKNOWN] = 0;
	st.split.n[SB_CORE_QUIET] = 200;
	st.split.median[SB_CORE_QUIET] = 3.86;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sb_answer_core_states(f, &rf, 2);
	fclose(f);
	CHECK(buf && strcmp(buf, "core state: quiet all run (canary 3.86 adds/cycle, quiet 3.87 by the record)\n") == 0,
	      "by the record: %s", buf);
	free(buf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_answer DATA_DIR\n");
		return 2;
	}
	char path[1024];
	made_up_verdicts();
	made_up_paired();
	made_up_reasons();
	snprintf(path, sizeof(path), "%s/answer_kernel_thunk_ret.json", argv[1]);
	recorded_baseline(path, SB_VERDICT_DIFFER, 1);
	snprintf(path, sizeof(path), "%s/answer_kernel.json", argv[1]);
	recorded_baseline(path, SB_VERDICT_DIFFER, 0);
	formats();
	lab_ranking();
	state_lines();
	wide_figures();
	signs_differ();
	first_run_state();
	return check_report("test_answer");
}

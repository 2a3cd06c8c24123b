/* diff_command.c: "stubbench diff OLD NEW": the cost of a change to a JIT
 * image (docs/diff.md). Both sides are read (image_diff.h), their
 * functions paired and mapped old -> new, made into twins (diff_twin.h),
 * measured with OLD as the baseline (each side also in a group of its own
 * at one table of placements, as --padded measures; the parts interleaved
 * at identical layout, as annotate measures them), and
 * reported through the session: the summary gives the cost per run and
 * the changed instructions, --table the full listing, JSON every row. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "cli.h"
#include "stubbench/answer.h"
#include "stubbench/code_variant.h"
#include "stubbench/deprivatize.h"
#include "stubbench/diff_twin.h"
#include "stubbench/image_diff.h"
#include "stubbench/json_writer.h"
#include "stubbench/mitigations.h"
#include "stubbench/percpu.h"
#include "stubbench/run_file.h"
#include "stubbench/session.h"
#include "stubbench/variant_arms.h"

static int measure_identical; /* --measure */
static int total_only;        /* --no-parts */

enum { K_MEASURE, K_NO_PARTS };

static int parse_diff(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli, (void)arg, (void)err, (void)errlen;
	*(key == K_MEASURE ? &measure_identical : &total_only) = 1;
	return 0;
}

static const struct sb_cli_group diff_group = {
	.title = "Diff",
	.options = (const struct sb_cli_option[]){
		{"measure", NULL, K_MEASURE, "measure OLD and NEW even when their code is the same (addresses\n"
					     "masked): the run's own noise floor"},
		{"no-parts", NULL, K_NO_PARTS, "measure OLD and NEW only, not each part of the change by\n"
					       "ablation (annotate): narrower CIs for the total in the same time"},
		{NULL},
	},
	.parse = parse_diff,
};

/* What the report says beyond the results. */
struct diff_ctx {
	const char *old_files, *new_files;
	const struct sb_jit_image *old, *new_img;
	const struct sb_image_diff *d;
	char how[2][300]; /* how each side's calls were placed (image_diff.h), or "" */
	const struct annotate *an; /* the parts' costs (annotate.h), or NULL */
};
static struct diff_ctx ctx;

/* One row's place: "main+0x3c", its function's name shortened to fit. */
static void where(char *buf, size_t len, const struct sb_jit_image *img, size_t fn, const struct sb_listing *l,
		  long i)
{
	if (i < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.14s+%#zx", fn == 0 ? "main" : img->funcs[fn].name, l->insns[i].off);
}

/* A hunk: consecutive rows of f that are not the same, from row *r on, as
 * one summary line; *r moves past it. Returns 0 when no hunk is left. */
static int hunk_line(FILE *out, const struct sb_func_diff *f, size_t *r)
{
	while (*r < f->n_rows && f->rows[*r].kind == SB_INSN_SAME)
		(*r)++;
	if (*r == f->n_rows)
		return 0;
	char line[256], at[48];
	const struct sb_insn_map_row *first = &f->rows[*r];
	if (first->new_i >= 0)
		where(at, sizeof(at), ctx.new_img, f->new_fn, &f->new_l, first->new_i);
	else
		where(at, sizeof(at), ctx.old, f->old_fn, &f->old_l, first->old_i);
	size_t n = (size_t)snprintf(line, sizeof(line), "  %-20s", at);
	for (int k = 0; *r < f->n_rows && f->rows[*r].kind != SB_INSN_SAME; (*r)++, k++) {
		const struct sb_insn_map_row *w = &f->rows[*r];
		const char *mark = w->kind == SB_INSN_ADDED ? "+" : w->kind == SB_INSN_REMOVED ? "-" : "~";
		const char *text = w->new_i >= 0 ? f->new_l.insns[w->new_i].text : f->old_l.insns[w->old_i].text;
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s %s", k ? "; " : "", mark, text);
	}
	if (n > SB_ANSWER_MAX_COLUMNS)
		memcpy(line + SB_ANSWER_MAX_COLUMNS - 3, "...", 4);
	fprintf(out, "%s\n", line);
	return 1;
}

static size_t hunks_of(const struct sb_func_diff *f)
{
	size_t n = 0;
	for (size_t r = 0; r < f->n_rows; r++)
		n += f->rows[r].kind != SB_INSN_SAME && (r == 0 || f->rows[r - 1].kind == SB_INSN_SAME);
	return n;
}

/* The parts of the change by their cost at one batch, highest first, at
 * most room lines. */
static const struct sb_attribution *sorting;

static int by_cost(const void *x, const void *y)
{
	double a = fabs(sorting->nop[*(const size_t *)x].value), b = fabs(sorting->nop[*(const size_t *)y].value);
	return a > b ? -1 : a < b;
}

static int part_lines(FILE *f, const struct sb_attribution *att, int room)
{
	size_t order[SB_ABLATION_MAX_PARTS], n = ctx.an->ab.n_parts;
	for (size_t k = 0; k < n; k++)
		order[k] = k;
	sorting = att;
	qsort(order, n, sizeof(*order), by_cost);
	char lay[64];
	sb_answer_estimate(lay, sizeof(lay), &att->layout, 1);
	fprintf(f, "  by part: layout (every part NOPed) %s, the parts NOPed one by one sum %+.2f:\n", lay,
		att->sum_parts);
	room--;
	int lines = 1, keep = 1 + ((size_t)room < n ? room - 1 : room);
	for (size_t i = 0; i < n && lines < keep; i++, lines++) {
		char c[64], r[64];
		sb_answer_estimate(c, sizeof(c), &att->nop[order[i]], 1);
		sb_answer_estimate(r, sizeof(r), &att->removed[order[i]], 1);
		fprintf(f, "  %-24.24s NOPed %s, removed %s\n", ctx.an->ab.parts[order[i]].name, c, r);
	}
	if ((size_t)lines < n) {
		fprintf(f, "  (%zu more parts: --table)\n", n - (size_t)lines);
		lines++;
	}
	return lines;
}

/* The summary's lines: what changed, what the change costs per run at the
 * largest batch, and the changed instructions as hunks. */
/* Also stubbench report's for a saved diff (a weak reference in
 * report_command.c): without the images (ctx.d NULL) the cost lines alone. */
int sb_diff_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	const struct sb_image_diff *d = ctx.d;
	if (d)
		fprintf(f, "OLD -> NEW: %zu function%s paired, instructions: %zu added, %zu changed, %zu removed\n",
			d->n, d->n == 1 ? "" : "s", sb_image_diff_count(d, SB_INSN_ADDED),
			sb_image_diff_count(d, SB_INSN_CHANGED), sb_image_diff_count(d, SB_INSN_REMOVED));
	else
		fprintf(f, "OLD -> NEW: the changed instructions are in the document's diff member\n");
	uint64_t b = sb_answer_largest_batch(rf);
	const struct sb_run_row *o = sb_answer_find(rf, SB_SIDE_REPLICA, "diff", "old", NULL, b);
	const struct sb_run_row *n = sb_answer_find(rf, SB_SIDE_REPLICA, "diff", "new", NULL, b);
	char cg[64], pct[64], cyc[64];
	struct sb_estimate none = sb_estimate_absent("no row");
	struct sb_estimate vs = n && o ? sb_estimate_pct_to_cycles(&n->figures[SB_FIGURE_DELTA], o->cycles.value) : none;
	sb_answer_estimate(cg, sizeof(cg), n ? &n->figures[SB_FIGURE_CODEGEN] : &none, 1);
	sb_answer_estimate(pct, sizeof(pct), n ? &n->figures[SB_FIGURE_DELTA] : &none, 1);
	sb_answer_estimate(cyc, sizeof(cyc), &vs, 1);
	fprintf(f, "cost of the change per run (a call of the main prog) at batch %" PRIu64 ", 95 %% CI:\n", b);
	char base[48] = "";
	if (o && sb_estimate_known(&o->cycles) && isfinite(o->cycles.value))
		snprintf(base, sizeof(base), " (OLD: %.1f cycles per run)", o->cycles.value);
	/* Against the padded baseline (a layout figure beside it) the codegen
	 * alone; else NEW against OLD at the same placements, whose code after
	 * each added instruction lies elsewhere: layout included. */
	fprintf(f, "  %s %s cycles%s\n",
		n && sb_answer_codegen_apart(n) ? "codegen at identical layout" : "at the same placements, layout in", cg,
		base);
	fprintf(f, "  as a randomly placed load pays it %s cycles, %s %%\n", cyc, pct);
	int lines = 4, room = max_lines - lines - 1;
	if (!d) {
		fprintf(f, "the parts' costs: the document's annotate member; every figure: --format=json\n");
		return lines + 1;
	}
	const struct sb_attribution *att = NULL;
	for (size_t k = 0; ctx.an && k < ctx.an->n_att; k++)
		if (ctx.an->att[k].batch == b)
			att = &ctx.an->att[k];
	if (att) {
		lines += part_lines(f, att, room);
		fprintf(f, "each instruction with its part's cost: --table; every figure and row: --format=json\n");
		return lines + 1;
	}
	size_t total = 0;
	for (size_t k = 0; k < d->n; k++)
		total += hunks_of(&d->f[k]);
	size_t shown = 0;
	for (size_t k = 0; k < d->n; k++)
		for (size_t r = 0; (int)shown < room - (total > (size_t)room) && hunk_line(f, &d->f[k], &r);)
			shown++;
	lines += (int)shown;
	if (shown < total) {
		fprintf(f, "  (%zu more changes: --table)\n", total - shown);
		lines++;
	}
	fprintf(f, "every instruction: --table; every figure and row: --format=json\n");
	return lines + 1;
}

/* --table, --verbose: the full old -> new listing of every pair. */
static void full_listing(FILE *out, enum sb_format fmt, const struct sb_results *all, const void *p)
{
	(void)all, (void)p;
	if (fmt != SB_FORMAT_TABLE)
		return;
	const struct sb_image_diff *d = ctx.d;
	for (int s = 0; s < 2; s++)
		if (ctx.how[s][0])
			fprintf(out, "# %s: %s\n", s ? "new" : "old", ctx.how[s]);
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *f = &d->f[k];
		fprintf(out, "\n# %s -> %s (paired by %s): %zu same, %zu changed, %zu added, %zu removed\n",
			ctx.old->funcs[f->old_fn].name, ctx.new_img->funcs[f->new_fn].name, f->by_name ? "name" : "order",
			f->n[SB_INSN_SAME], f->n[SB_INSN_CHANGED], f->n[SB_INSN_ADDED], f->n[SB_INSN_REMOVED]);
		fprintf(out, "%6s %6s  %-7s  %s\n", "old", "new", "change", "instruction (new; old where removed)");
		for (size_t r = 0; r < f->n_rows; r++) {
			const struct sb_insn_map_row *w = &f->rows[r];
			char a[16] = "-", b[16] = "-";
			if (w->old_i >= 0)
				snprintf(a, sizeof(a), "%zx", f->old_l.insns[w->old_i].off);
			if (w->new_i >= 0)
				snprintf(b, sizeof(b), "%zx", f->new_l.insns[w->new_i].off);
			const char *text = w->new_i >= 0 ? f->new_l.insns[w->new_i].text : f->old_l.insns[w->old_i].text;
			fprintf(out, "%6s %6s  %-7s  %s", a, b, w->kind == SB_INSN_SAME ? "" : sb_insn_change_name(w->kind),
				text);
			if (w->kind == SB_INSN_CHANGED)
				fprintf(out, "   (was %s)", f->old_l.insns[w->old_i].text);
			fputc('\n', out);
		}
	}
	if (ctx.an && ctx.an->n_att) {
		fprintf(out, "\n# the cost of each part of the change (new's parts against old, stubbench annotate)\n");
		annotate_listing(out, ctx.an);
	}
}

static void json_side(FILE *f, const char *key, const char *files, const struct sb_jit_image *img, const char *how)
{
	fprintf(f, "\"%s\": {\"files\": ", key);
	sb_json_string(f, files);
	fprintf(f, ", \"program\": ");
	sb_json_string(f, img->prog_name);
	fprintf(f, ", \"calls_placed\": ");
	if (how[0])
		sb_json_string(f, how);
	else
		fprintf(f, "null");
	fprintf(f, ", \"functions\": [");
	for (size_t i = 0; i < img->n; i++) {
		fprintf(f, "%s{\"name\": ", i ? ", " : "");
		sb_json_string(f, img->funcs[i].name);
		fprintf(f, ", \"bytes\": %zu}", img->funcs[i].len);
	}
	fprintf(f, "]}");
}

static void json_rows(FILE *f, const struct sb_func_diff *p)
{
	for (size_t r = 0; r < p->n_rows; r++) {
		const struct sb_insn_map_row *w = &p->rows[r];
		fprintf(f, "%s\n        {\"change\": \"%s\", \"old_off\": ", r ? "," : "", sb_insn_change_name(w->kind));
		if (w->old_i >= 0)
			fprintf(f, "%zu, \"old\": ", p->old_l.insns[w->old_i].off), sb_json_string(f, p->old_l.insns[w->old_i].text);
		else
			fprintf(f, "null, \"old\": null");
		fprintf(f, ", \"new_off\": ");
		if (w->new_i >= 0)
			fprintf(f, "%zu, \"new\": ", p->new_l.insns[w->new_i].off), sb_json_string(f, p->new_l.insns[w->new_i].text);
		else
			fprintf(f, "null, \"new\": null");
		fputc('}', f);
	}
}

/* JSON: "diff": both sides and every pair's rows. */
static void json_diff(FILE *f, const void *p)
{
	(void)p;
	const struct sb_image_diff *d = ctx.d;
	fprintf(f, ",\n  \"diff\": {");
	json_side(f, "old", ctx.old_files, ctx.old, ctx.how[0]);
	fprintf(f, ",\n    ");
	json_side(f, "new", ctx.new_files, ctx.new_img, ctx.how[1]);
	fprintf(f, ",\n    \"identical\": %s, \"pairs\": [", sb_image_diff_identical(d) ? "true" : "false");
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *q = &d->f[k];
		fprintf(f, "%s\n      {\"old\": ", k ? "," : "");
		sb_json_string(f, ctx.old->funcs[q->old_fn].name);
		fprintf(f, ", \"new\": ");
		sb_json_string(f, ctx.new_img->funcs[q->new_fn].name);
		fprintf(f, ", \"paired_by\": \"%s\", \"same\": %zu, \"changed\": %zu, \"added\": %zu, \"removed\": %zu, "
			"\"rows\": [", q->by_name ? "name" : "order", q->n[SB_INSN_SAME], q->n[SB_INSN_CHANGED],
			q->n[SB_INSN_ADDED], q->n[SB_INSN_REMOVED]);
		json_rows(f, q);
		fprintf(f, "]}");
	}
	fprintf(f, "]}");
	if (ctx.an && ctx.an->n_att)
		annotate_json(f, ctx.an);
}

/* A side read and its calls placed; 0, or EXIT_USAGE said on stderr. */
static int read_side(const char *files, struct sb_jit_image *img, char *how, size_t howlen)
{
	char err[768];
	if (sb_jit_image_read_files(files, img, err, sizeof(err)) ||
	    sb_jit_image_place_calls(img, how, howlen, err, sizeof(err))) {
		fprintf(stderr, "stubbench diff: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* Where the twins return: through the host's thunk (sysfs); without a
 * replica of it, with ret, said in one line. */
static enum sb_thunk twin_thunk(const struct sb_return_thunk *host)
{
	if (host->thunk != SB_THUNK_UNKNOWN && host->thunk != SB_THUNK_X86)
		return host->thunk;
	fprintf(stderr, "stubbench diff: this kernel's return thunk is %s (%s): the twins' thunk returns are ret\n",
		sb_thunk_name(host->thunk), host->how);
	return SB_THUNK_RET;
}

/* NEW's parts against OLD (ablation.h), function i of each twin with
 * function i of the other. Returns 0, or -1 said in one line (the total
 * alone is measured then). */
static int parts_of(struct annotate *an, struct sb_diff_twin *tw)
{
	char err[512];
	if (annotate_parts_of_code(an, &tw[1].t.cv, &tw[0].t.cv, err, sizeof(err))) {
		fprintf(stderr, "stubbench diff: no cost per part (%s): the total alone\n", err);
		return -1;
	}
	return 0;
}

/* The share of --time a diff keeps for its parts' statistics beyond the
 * harness's own (SB_FINISH_RESERVE). */
#define SB_DIFF_PARTS_STATS 0.07

/* The twins: tw[0] OLD, tw[1] NEW for the total; tw[2], tw[3] the same
 * code for the parts' group. Returns 0, or EXIT_USAGE said. */
static int make_twins(struct sb_diff_twin *tw, size_t n, enum sb_thunk th, const struct sb_jit_image *old,
		      const struct sb_jit_image *nw)
{
	static const char *const names[4] = {"old", "new", "parts-old", "parts-new"};
	char err[768];
	for (size_t s = 0; s < n; s++)
		if (sb_diff_twin_make(s % 2 ? nw : old, names[s], th, &tw[s], err, sizeof(err))) {
			fprintf(stderr, "stubbench diff: %s (%s): no twin: %s\n", s % 2 ? "NEW" : "OLD",
				s % 2 ? ctx.new_files : ctx.old_files, err);
			while (s-- > 0)
				sb_diff_twin_free(&tw[s]);
			return EXIT_USAGE;
		}
	for (int s = 0; s < 2; s++)
		if (!tw[s].counted)
			fprintf(stderr, "stubbench diff: %s: no counter the main prog increments: its calls are not "
				"counted\n", s ? "new" : "old");
	return 0;
}

/* Where NEW is OLD with a private stack (NEW de-privatized equals OLD,
 * addresses masked): NEW de-privatized at its own layout
 * (sb_deprivatize_padded) as a twin into *pad, OLD's code at NEW's length.
 * Returns 1 made, 0 not (NEW has no private stack, or is more than OLD
 * with one). */
static int padded_deprivatized(const struct sb_jit_image *old, const struct sb_jit_image *nw, enum sb_thunk th,
			       struct sb_diff_twin *pad)
{
	struct sb_jit_image dep, padded;
	struct sb_image_diff dd;
	char err[300];
	if (sb_deprivatize_image(nw, 0, &dep, err, sizeof(err)) <= 0)
		return 0;
	int same = 0;
	if (sb_image_diff_make(old, &dep, &dd, err, sizeof(err)) == 0) {
		same = sb_image_diff_identical(&dd);
		sb_image_diff_free(&dd);
	}
	sb_jit_image_free(&dep);
	if (!same || sb_deprivatize_image(nw, 1, &padded, err, sizeof(err)) <= 0)
		return 0;
	int made = sb_diff_twin_make(&padded, "new-padded", th, pad, err, sizeof(err)) == 0;
	sb_jit_image_free(&padded);
	return made;
}

/* OLD against NEW alone, then (unless --no-parts) NEW's parts by ablation
 * (annotate), each in half the time: the total's arms run apart from the
 * ablations, whose many arms of similar code at identical layout slow
 * each other down at small batch sizes (results/amd-epyc-zen3-vm.md). */
static int measure(struct sb_cli *cli, const struct sb_jit_image *old, const struct sb_jit_image *nw)
{
	static struct sb_diff_twin tw[4];
	static struct sb_return_thunk host;
	static struct sb_variant_arms arms;
	static struct sb_results res, res_parts;
	static struct annotate an;
	char err[768];
	sb_return_thunk_from_sysfs(&host);
	enum sb_thunk th = twin_thunk(&host);
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench diff: %s\n", err);
		return 1;
	}
	size_t n_twins = total_only ? 2 : 4;
	if (make_twins(tw, n_twins, th, old, nw))
		return EXIT_USAGE;
	int parts = n_twins == 4 && parts_of(&an, tw + 2) == 0;
	struct sb_cli half = *cli;
	if (parts)
		half.cfg.time_s = cli->cfg.time_s / 2;
	/* --padded: OLD, NEW and NEW's padded baseline each in a group of
	 * their own at one table of placements (identical layout, not
	 * interleaved: session.h). The padded baseline is NEW with every part
	 * NOPed (annotate's layout arm, at NEW's length): NEW against it is the
	 * codegen, it against OLD the layout. That is OLD's code only where NEW
	 * adds instructions and changes or removes none (a changed frame access
	 * NOPed is no access at all). Where NEW is OLD with a private stack
	 * whose frame is r9-based, NEW de-privatized at its layout is; else
	 * none. */
	/* NEW's own parts (an's are of the parts' twins, whose bytes address
	 * their own buffers and counter): what its layout arm NOPs. */
	static struct annotate an_total;
	static struct sb_code_variant padded_cv;
	const struct sb_variant *padded[1] = {NULL};
	int only_added = ctx.d && sb_image_diff_count(ctx.d, SB_INSN_CHANGED) == 0 &&
			 sb_image_diff_count(ctx.d, SB_INSN_REMOVED) == 0;
	int layout_parts = parts && only_added &&
			 annotate_parts_of_code(&an_total, &tw[1].t.cv, &tw[0].t.cv, err, sizeof(err)) == 0;
	int have_padded = layout_parts && annotate_make_layout(cli->prog, &tw[1].t.cv.v, &an_total, &padded_cv) == 0;
	if (have_padded)
		padded[0] = &padded_cv.v;
	static struct sb_diff_twin tw_pad;
	int have_pad_twin = !only_added && padded_deprivatized(old, nw, th, &tw_pad);
	if (have_pad_twin)
		padded[0] = &tw_pad.t.cv.v;
	struct sb_config cfg = half.cfg;
	cfg.padded = 1;
	const struct sb_variant *others[1] = {&tw[1].t.cv.v};
	struct sb_group g = {.baseline = &tw[0].t.cv.v, .others = others, .n_others = 1, .padded = padded,
			     .arms = &arms, .res = &res};
	int rc = sb_measure_groups(&cfg, cli->prog, &g, 1);
	/* --time bounds the process's age (wall_clock.h): the parts take the
	 * rest of it, less what their statistics take beyond the share the
	 * harness keeps (an ablation per part, bootstrapped: 7 s after the
	 * last process of a 30 s diff on an Intel Xeon VM, which ran 33.4 s;
	 * 30.4 s and 9.2 s at --time 30 and 10 with this share,
	 * results/intel-xeon-0xa7-vm.md). */
	struct sb_config parts_cfg = cli->cfg;
	parts_cfg.time_s *= 1 - SB_DIFF_PARTS_STATS;
	int prc = rc == 0 && parts ? annotate_measure(&parts_cfg, cli->prog, &an, &tw[3].t.cv.v, &tw[2].t.cv.v,
						      &res_parts)
				   : 0;
	ctx.an = parts && an.n_att ? &an : NULL;
	if (rc != EXIT_USAGE) {
		struct sb_session s;
		sb_session_init(&s, "stubbench diff", &cli->cfg);
		snprintf(s.measurement_extra, sizeof(s.measurement_extra), "diff%s %.360s %.360s",
			 parts ? "" : " --no-parts", ctx.old_files, ctx.new_files);
		s.meta.thunk = &host;
		s.answer = sb_diff_answer;
		s.after_report = full_listing;
		s.meta.json_extra = json_diff;
		sb_session_add(&s, &res, NULL);
		if (rc == 0 && parts)
			sb_session_add(&s, &res_parts, "parts");
		rc = sb_session_finish(&s, rc ? rc : prc == EXIT_USAGE ? 1 : prc);
	}
	if (parts)
		sb_ablation_free(&an.ab);
	if (have_padded)
		sb_code_variant_free(&padded_cv);
	if (layout_parts)
		sb_ablation_free(&an_total.ab);
	if (have_pad_twin)
		sb_diff_twin_free(&tw_pad);
	for (size_t s = n_twins; s-- > 0;)
		sb_diff_twin_free(&tw[s]);
	ctx.an = NULL;
	sb_percpu_thread_fini();
	return rc;
}

static int run_diff(struct sb_cli *cli)
{
	if (cli->n_operands != 2) {
		fprintf(stderr, "stubbench diff: needs OLD and NEW (see --help)\n");
		return EXIT_USAGE;
	}
	static struct sb_jit_image old, nw;
	static struct sb_image_diff d;
	ctx = (struct diff_ctx){.old_files = cli->operands[0], .new_files = cli->operands[1], .old = &old,
				.new_img = &nw, .d = &d};
	char err[768];
	int rc = read_side(ctx.old_files, &old, ctx.how[0], sizeof(ctx.how[0]));
	if (rc == 0)
		rc = read_side(ctx.new_files, &nw, ctx.how[1], sizeof(ctx.how[1]));
	if (rc == 0 && sb_image_diff_make(&old, &nw, &d, err, sizeof(err))) {
		fprintf(stderr, "stubbench diff: %s against %s: %s\n", ctx.old_files, ctx.new_files, err);
		rc = EXIT_USAGE;
	}
	if (rc == 0 && sb_image_diff_identical(&d) && !measure_identical) {
		size_t n = sb_image_diff_count(&d, SB_INSN_SAME);
		printf("stubbench diff: no change: %s and %s hold the same code (%zu function%s, %zu instructions, "
		       "addresses masked); --measure measures them anyway\n", ctx.old_files, ctx.new_files, d.n,
		       d.n == 1 ? "" : "s", n);
	} else if (rc == 0)
		rc = measure(cli, &old, &nw);
	sb_image_diff_free(&d);
	sb_jit_image_free(&old);
	sb_jit_image_free(&nw);
	return rc;
}

const struct sb_subcommand sb_diff_command = {
	.name = "diff",
	.summary = "Measures what a change to a JIT image costs: twins of OLD and NEW, two JIT images of\n"
		   "one program, at identical layout; the cost per run and the changed\n"
		   "instructions. OLD, NEW: FILE[,FILE...] (the main prog first): --dump-jit's .bin or .lst,\n"
		   "a listing like the seeds', or bpftool prog dump jited PROG opcodes. docs/diff.md.",
	.operands = "OLD NEW",
	.groups = {&diff_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sweep_group, &sb_cli_config_group},
	.epilog = "exit status: 0 measured (or no change), 1 a failed run or check, 2 bad option, a file\n"
		  "that cannot be read, images with no function in common, or code no twin can be made of\n",
	.default_states = SB_MAX_STATES,
	/* OLD, NEW and two ablations per part share the run. */
	.default_time_s = 30,
	.run = run_diff,
};

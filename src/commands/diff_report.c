/* diff_report.c: what stubbench diff reports beside its results: with
 * --table every pair's old -> new listing and the parts' listing, in the
 * document the members "diff" (both sides, every pair's rows) and "annotate"; and
 * the summary, which is the saved run's (src/answer/diff_answer.c): the
 * live run reads its own JSON members back as stubbench report reads
 * them, so that both print the same lines. See diff_context.h. */
#include "diff_context.h"

#include <stdint.h>
#include <stdlib.h>

#include "output/text_grid.h"
#include "output/json_doc.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "saved/run_diff.h"
#include "saved/run_file.h"

/* --table, --verbose: how each side's calls were placed, and the full
 * old -> new listing of every pair. */
static void pair_listing(FILE *out, const struct sb_diff_context *c)
{
	const struct sb_image_diff *d = c->d;
	for (int s = 0; s < 2; s++)
		if (c->how[s][0])
			sb_comment(out, "%s: %s", s ? "new" : "old", c->how[s]);
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *f = &d->f[k];
		fputc('\n', out);
		sb_comment(out, "%s -> %s (paired by %s): %zu same, %zu changed, %zu added, %zu removed",
			c->old->funcs[f->old_fn].name, c->new_img->funcs[f->new_fn].name, f->by_name ? "name" : "order",
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
}

/* After the table (the session's after_report): the pairs' listing and
 * the parts' costs. */
static void full_listing(FILE *out, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)all;
	const struct sb_diff_context *c = ctx;
	if (!sb_format_is(format, SB_OUT_TEXT))
		return;
	pair_listing(out, c);
	if (c->an && c->an->n_att) {
		fprintf(out, "\n# the cost of each part of the change (new's parts against old, stubbench annotate)\n");
		sb_annotate_listing(out, c->an);
	}
}

/* A kernel address as JSON can hold it exactly: "0x...". */
static void doc_kaddr(struct sb_doc *o, const char *key, uint64_t kaddr)
{
	char hex[24];
	snprintf(hex, sizeof(hex), "%#llx", (unsigned long long)kaddr);
	sb_doc_string(o, key, hex);
}

/* Side s's "path": its twin's instructions per run and whether they
 * depend on memory the twin zeroes (diff_twin.h), and "globals_set":
 * --global's values in it. */
static void doc_path(struct sb_doc *side, const struct sb_diff_context *c, int s)
{
	const struct sb_diff_zeroed *z = &c->zeroed[s];
	struct sb_doc *p = sb_doc_object(side, "path");
	sb_doc_bool(p, "traced", z->traced);
	if (z->traced) {
		sb_doc_uint(p, "insns_per_run", z->insns);
		sb_doc_bool(p, "reads_zeroed", z->depends);
	} else {
		sb_doc_null(p, "insns_per_run");
		sb_doc_null(p, "reads_zeroed");
	}
	const struct sb_image_global *g = z->kaddr ? sb_image_global_at(&c->globals[s], z->kaddr) : NULL;
	if (z->kaddr)
		doc_kaddr(p, "zeroed_at", z->kaddr);
	else
		sb_doc_null(p, "zeroed_at");
	sb_doc_string_or_null(p, "zeroed_global", g ? g->name : NULL);
	sb_doc_string_or_null(p, "why_untraced", z->traced ? NULL : z->why);
	struct sb_doc *set = sb_doc_array(side, "globals_set");
	for (size_t i = 0; i < c->n_sets; i++) {
		struct sb_doc *o = sb_doc_object(set, NULL);
		sb_doc_string(o, "given", c->sets[s][i].what);
		doc_kaddr(o, "kaddr", c->sets[s][i].kaddr);
		sb_doc_uint(o, "value", c->sets[s][i].value);
		sb_doc_uint(o, "bytes", c->sets[s][i].size);
	}
}

/* diff's member key: one side's files, program, how its calls were
 * placed, functions and its twin's path. */
static void doc_side(struct sb_doc *diff, const char *key, const struct sb_diff_context *c, int s)
{
	const char *files = s ? c->new_files : c->old_files, *how = c->how[s];
	const struct sb_jit_image *img = s ? c->new_img : c->old;
	struct sb_doc *side = sb_doc_object(diff, key);
	sb_doc_string(side, "files", files);
	sb_doc_string(side, "program", img->prog_name);
	sb_doc_string_or_null(side, "calls_placed", how);
	struct sb_doc *funcs = sb_doc_array(side, "functions");
	for (size_t i = 0; i < img->n; i++) {
		struct sb_doc *o = sb_doc_object(funcs, NULL);
		sb_doc_string(o, "name", img->funcs[i].name);
		sb_doc_uint(o, "bytes", img->funcs[i].len);
	}
	doc_path(side, c, s);
}

/* Pair p's rows, one a line: the change, and each side's offset and
 * instruction (null where the side has none). */
static void doc_rows(struct sb_doc *pair, const struct sb_func_diff *p)
{
	struct sb_doc *rows = sb_doc_array(pair, "rows");
	for (size_t r = 0; r < p->n_rows; r++) {
		const struct sb_insn_map_row *w = &p->rows[r];
		sb_doc_break(rows, "\n        ");
		struct sb_doc *o = sb_doc_object(rows, NULL);
		sb_doc_string(o, "change", sb_insn_change_name(w->kind));
		if (w->old_i >= 0) {
			sb_doc_uint(o, "old_off", p->old_l.insns[w->old_i].off);
			sb_doc_string(o, "old", p->old_l.insns[w->old_i].text);
		} else {
			sb_doc_null(o, "old_off");
			sb_doc_null(o, "old");
		}
		if (w->new_i >= 0) {
			sb_doc_uint(o, "new_off", p->new_l.insns[w->new_i].off);
			sb_doc_string(o, "new", p->new_l.insns[w->new_i].text);
		} else {
			sb_doc_null(o, "new_off");
			sb_doc_null(o, "new");
		}
	}
}

/* doc's members "diff": both sides and every pair's rows; "annotate": the
 * parts' costs, where there are any. */
static void members(struct sb_doc *doc, const void *ctx)
{
	const struct sb_diff_context *c = ctx;
	const struct sb_image_diff *d = c->d;
	struct sb_doc *diff = sb_doc_object(doc, "diff");
	doc_side(diff, "old", c, 0);
	sb_doc_break(diff, "\n    ");
	doc_side(diff, "new", c, 1);
	sb_doc_break(diff, "\n    ");
	sb_doc_bool(diff, "identical", sb_image_diff_identical(d));
	struct sb_doc *pairs = sb_doc_array(diff, "pairs");
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *q = &d->f[k];
		sb_doc_break(pairs, "\n      ");
		struct sb_doc *o = sb_doc_object(pairs, NULL);
		sb_doc_string(o, "old", c->old->funcs[q->old_fn].name);
		sb_doc_string(o, "new", c->new_img->funcs[q->new_fn].name);
		sb_doc_string(o, "paired_by", q->by_name ? "name" : "order");
		sb_doc_uint(o, "same", q->n[SB_INSN_SAME]);
		sb_doc_uint(o, "changed", q->n[SB_INSN_CHANGED]);
		sb_doc_uint(o, "added", q->n[SB_INSN_ADDED]);
		sb_doc_uint(o, "removed", q->n[SB_INSN_REMOVED]);
		doc_rows(o, q);
	}
	if (c->an && c->an->n_att)
		sb_annotate_doc(doc, c->an);
}

/* The diff the summary is of (the session's answer takes no context). */
static const struct sb_diff_context *answering;

/* The summary's lines: rf with the run's diff and annotate members, as
 * its JSON document writes them and stubbench report reads them back. */
static int live_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	char *text = NULL, err[128];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct sb_doc *doc = sb_doc_new();
	if (!m || !doc) {
		if (m)
			fclose(m);
		free(text);
		sb_doc_free(doc);
		fprintf(stderr, "%s: out of memory\n", SB_DIFF_TOOL);
		return 0;
	}
	sb_doc_string(doc, "tool", SB_DIFF_TOOL);
	members(doc, answering);
	int failed = sb_reporter_json_doc(m, doc) != 0;
	sb_doc_free(doc);
	struct sb_run_file with = *rf;
	err[0] = '\0';
	if (fclose(m) != 0 || failed)
		snprintf(err, sizeof(err), "out of memory");
	else
		sb_run_diff_parse(text, &with.diff, err, sizeof(err));
	free(text);
	if (err[0])
		fprintf(stderr, "%s: %s: the summary without the changed instructions\n", SB_DIFF_TOOL, err);
	int lines = sb_diff_answer(f, &with, max_lines);
	sb_run_diff_free(with.diff);
	return lines;
}

void sb_diff_report_on(struct sb_session *s, const struct sb_diff_context *c)
{
	answering = c;
	s->answer = live_answer;
	s->after_report = full_listing;
	s->after_ctx = c;
	s->meta.members = members;
	s->meta.members_ctx = c;
}

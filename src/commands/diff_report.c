/* diff_report.c: what stubbench diff reports beside its results: with
 * --table every pair's old -> new listing and the parts' listing, in JSON
 * the members "diff" (both sides, every pair's rows) and "annotate"; and
 * the summary, which is the saved run's (src/report/diff_answer.c): the
 * live run reads its own JSON members back as stubbench report reads
 * them, so that both print the same lines. See diff_context.h. */
#include "diff_context.h"

#include <stdlib.h>

#include "stubbench/json_writer.h"
#include "stubbench/run_diff.h"
#include "stubbench/run_file.h"

/* --table, --verbose: how each side's calls were placed, and the full
 * old -> new listing of every pair. */
static void pair_listing(FILE *out, const struct sb_diff_context *c)
{
	const struct sb_image_diff *d = c->d;
	for (int s = 0; s < 2; s++)
		if (c->how[s][0])
			fprintf(out, "# %s: %s\n", s ? "new" : "old", c->how[s]);
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *f = &d->f[k];
		fprintf(out, "\n# %s -> %s (paired by %s): %zu same, %zu changed, %zu added, %zu removed\n",
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
static void full_listing(FILE *out, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)all;
	const struct sb_diff_context *c = ctx;
	if (fmt != SB_FORMAT_TABLE)
		return;
	pair_listing(out, c);
	if (c->an && c->an->n_att) {
		fprintf(out, "\n# the cost of each part of the change (new's parts against old, stubbench annotate)\n");
		sb_annotate_listing(out, c->an);
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

/* JSON: "diff": both sides and every pair's rows; "annotate": the parts'
 * costs, where there are any. */
static void json_diff(FILE *f, const void *ctx)
{
	const struct sb_diff_context *c = ctx;
	const struct sb_image_diff *d = c->d;
	fprintf(f, ",\n  \"diff\": {");
	json_side(f, "old", c->old_files, c->old, c->how[0]);
	fprintf(f, ",\n    ");
	json_side(f, "new", c->new_files, c->new_img, c->how[1]);
	fprintf(f, ",\n    \"identical\": %s, \"pairs\": [", sb_image_diff_identical(d) ? "true" : "false");
	for (size_t k = 0; k < d->n; k++) {
		const struct sb_func_diff *q = &d->f[k];
		fprintf(f, "%s\n      {\"old\": ", k ? "," : "");
		sb_json_string(f, c->old->funcs[q->old_fn].name);
		fprintf(f, ", \"new\": ");
		sb_json_string(f, c->new_img->funcs[q->new_fn].name);
		fprintf(f, ", \"paired_by\": \"%s\", \"same\": %zu, \"changed\": %zu, \"added\": %zu, \"removed\": %zu, "
			"\"rows\": [", q->by_name ? "name" : "order", q->n[SB_INSN_SAME], q->n[SB_INSN_CHANGED],
			q->n[SB_INSN_ADDED], q->n[SB_INSN_REMOVED]);
		json_rows(f, q);
		fprintf(f, "]}");
	}
	fprintf(f, "]}");
	if (c->an && c->an->n_att)
		sb_annotate_json(f, c->an);
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
	if (!m) {
		fprintf(stderr, "%s: out of memory\n", SB_DIFF_TOOL);
		return 0;
	}
	fprintf(m, "{\"tool\": \"%s\"", SB_DIFF_TOOL);
	json_diff(m, answering);
	fputc('}', m);
	struct sb_run_file with = *rf;
	err[0] = '\0';
	if (fclose(m) != 0)
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
	s->meta.json_extra = json_diff;
	s->meta.json_extra_ctx = c;
}

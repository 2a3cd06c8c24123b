/* lab.c: the codegen lab, measured and reported; see lab_run.h. */
#include "session/lab_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/json_doc.h"
#include "answer/lab_rank.h"
#include "variants/lab_variants.h"
#include "base/mitigations.h"
#include "output/output.h"
#include "variants/percpu.h"
#include "jit/return_thunks.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"
#include "session/command.h"
#include "session/session.h"
#include "harness/variant_arms.h"
#include "output/reporter.h"

#define TOOL "stubbench lab"

#define MAX_GROUPS (2 * SB_LAB_N_RETURNS)

/* The section of the table, and --shape's word, of a group's shape. */
static const char *shape_name(int in_loop)
{
	return in_loop ? "in-loop" : "per-run";
}

/* Extra code bytes of a lab variant against its baseline for the seed
 * program's shape (one function with three call sites, one return). */
static size_t extra_code_bytes(const struct sb_lab_info *li)
{
	return li->prologue_bytes + 3 * li->call_site_bytes;
}

/* Under the ranking: each alternative's code bytes, against its baseline
 * and its return flavour against plain ret. */
static void print_code_sizes(FILE *f)
{
	fprintf(f, "# code size, bytes: the alternative against the baseline of the same return\n"
		   "# flavour (prologue+epilogue, per call site, for the seed program with three\n"
		   "# calls), and the return flavour against plain ret (per return, per call site)\n");
	fprintf(f, "%-40s %9s %9s %8s %11s %11s\n", "variant", "prologue", "per call", "program",
		"flav/ret", "flav/call");
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (li->alt == SB_LAB_BASELINE)
			continue;
		fprintf(f, "%-40s %9u %9u %8zu %11u %11u\n", li->variant->name, li->prologue_bytes,
			li->call_site_bytes, extra_code_bytes(li), li->flavour_return_bytes,
			li->flavour_call_bytes);
	}
}

/* The groups' results, for the JSON document's ranking. */
struct lab_results {
	const struct sb_results *res;
	size_t n;
};

/* The document's ranking of every return flavour and shape (its member
 * "lab_ranking"). */
static void ranking(struct sb_doc *doc, const void *ctx)
{
	const struct lab_results *g = ctx;
	struct sb_results all = {0};
	struct sb_run_file rf = {0};
	int ok = 1;
	for (size_t i = 0; i < g->n && ok; i++)
		ok = sb_results_append(&all, &g->res[i]) == 0;
	if (ok && sb_run_file_from_results(&all, TOOL, &rf) == 0)
		sb_lab_rank_doc(doc, &rf);
	else
		sb_doc_null(doc, "lab_ranking");
	sb_run_file_free(&rf);
	sb_results_free(&all);
}

/* Under the table: the ranking of every return flavour and shape, and the code sizes. */
static void after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)ctx;
	if (!sb_format_is(format, SB_OUT_TEXT))
		return;
	struct sb_run_file rf;
	if (sb_run_file_from_results(all, TOOL, &rf) == 0)
		sb_lab_rank_table(info, &rf);
	sb_run_file_free(&rf);
	print_code_sizes(info);
}

/* A group of the lab: a shape and a return flavour. */
struct lab_group {
	int in_loop;
	enum sb_lab_return ret;
};

/* The groups of shape ("all", "per-run", "in-loop"): shape x return
 * flavour, into groups; returns how many. */
static size_t lab_groups_of(const char *shape, struct lab_group groups[MAX_GROUPS])
{
	size_t n_groups = 0;
	for (int in_loop = 0; in_loop < 2; in_loop++) {
		if (strcmp(shape, "all") && strcmp(shape, shape_name(in_loop)))
			continue;
		for (int r = 0; r < SB_LAB_N_RETURNS; r++)
			groups[n_groups++] = (struct lab_group){in_loop, (enum sb_lab_return)r};
	}
	return n_groups;
}

/* The lab's variants of group lg into g: its baseline, and the others into others. */
static void fill_group(const struct lab_group *lg, struct sb_group *g, const struct sb_variant **others)
{
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (li->in_loop != lg->in_loop || li->ret != lg->ret)
			continue;
		if (li->alt == SB_LAB_BASELINE)
			g->baseline = li->variant;
		else if (g->n_others < SB_MAX_ARMS - 2)
			others[g->n_others++] = li->variant;
	}
}

/* The lab's own state across its steps. */
struct lab_ctx {
	struct lab_group groups[MAX_GROUPS];
	size_t n_groups;
	struct sb_variant_arms arms[MAX_GROUPS];
	const struct sb_variant *others[MAX_GROUPS][SB_MAX_ARMS];
	struct sb_results res[MAX_GROUPS];
	struct lab_results lr;
	struct sb_return_thunk host;
	char ci_scope[512];
};

/* Groups: shape x return flavour, all in one run: their processes take
 * turns, so each group's span the whole run, not a sixth of it. */
static int lab_setup(const struct sb_config *cfg, void *vctx, struct sb_group *gs)
{
	struct lab_ctx *c = vctx;
	c->n_groups = lab_groups_of(cfg->measure.shape, c->groups);
	for (size_t g = 0; g < c->n_groups; g++) {
		gs[g] = (struct sb_group){.others = c->others[g], .arms = &c->arms[g], .res = &c->res[g]};
		fill_group(&c->groups[g], &gs[g], c->others[g]);
	}
	return (int)c->n_groups;
}

/* The lab's report: its ranking (answer, members, under the table), its
 * code sizes and the CIs' scope, a section per shape. */
static void lab_report(struct sb_session *s, struct sb_group *gs, size_t n_groups, void *vctx, int rc)
{
	(void)gs, (void)rc;
	struct lab_ctx *c = vctx;
	s->meta.shape = s->cfg->measure.shape;
	s->after_report = after_report;
	s->answer = sb_lab_answer;
	c->lr = (struct lab_results){.res = c->res, .n = n_groups};
	s->meta.members = ranking;
	s->meta.members_ctx = &c->lr;
	/* The ranking follows the host's return (sb_lab_answer). */
	sb_return_thunk_from_sysfs(&c->host);
	s->meta.thunk = &c->host;
	/* The SRSO groups' code changes state over longer than a run (where
	 * measured): the CIs say so. */
	const char *note = NULL;
	for (size_t g = 0; g < n_groups; g++) {
		if (c->groups[g].ret == SB_LAB_SRSO)
			note = sb_thunk_time_note(SB_THUNK_SRSO);
		for (size_t a = 0; a < c->arms[g].n; a++) {
			const struct sb_lab_info *li = c->arms[g].ctx[a].v ? sb_lab_info_of(c->arms[g].ctx[a].v) : NULL;
			if (li)
				c->arms[g].arms[a].code_bytes = extra_code_bytes(li);
		}
		sb_session_add(s, &c->res[g], shape_name(c->groups[g].in_loop));
	}
	if (note)
		snprintf(c->ci_scope, sizeof(c->ci_scope), "the srso groups': %s", note);
	s->meta.ci_scope = note ? c->ci_scope : NULL;
}

static const struct sb_command lab_command = {
	.tool = TOOL,
	.max_groups = MAX_GROUPS,
	.setup = lab_setup,
	.report_final = lab_report,
};

enum sb_status sb_lab_run(const struct sb_config *cfg)
{
	static struct lab_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	return (enum sb_status)sb_command_run(&lab_command, cfg, &ctx);
}

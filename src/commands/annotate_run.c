/* annotate_run.c: `stubbench annotate`: a variant's listing with what each part
 * it adds to its baseline costs (docs/annotate.md). The variant's parts
 * against its baseline (annotate_baseline.h), measured by ablation
 * (annotate_measure.c) or recomputed from a --blocks log of such a run,
 * reported through the session; see annotate.h. */
#include "annotate.h"

#include <string.h>

#include "twins/annotate_baseline.h"
#include "stats/block_table.h"
#include "jit/code_variant.h"
#include "output/json_doc.h"
#include "base/mitigations.h"
#include "output/out_file.h"
#include "stubbench/registry.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "session/command.h"
#include "session/session.h"
#include "base/error.h"

#define TOOL "stubbench annotate"

/* The variant, its baseline (annotate_baseline.h) and its parts, the PMU
 * probed. Returns
 * SB_STATUS_OK or SB_STATUS_USAGE said on stderr. */
static int parts_of(const char *variant_name, struct sb_annotate *a, const struct sb_variant **v,
		    const struct sb_variant **b)
{
	static struct sb_annotate_baseline base;
	char err[512];
	*v = sb_variant_find(variant_name);
	if (!*v) {
		fprintf(stderr, "%s: --variant: unknown variant '%s' (see stubbench --list)\n", TOOL, variant_name);
		return SB_STATUS_USAGE;
	}
	if (sb_annotate_baseline(*v, &base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --variant: %s\n", TOOL, err);
		return SB_STATUS_USAGE;
	}
	*b = base.v;
	struct sb_code_func vf[SB_CODE_VARIANT_MAX_FUNCS];
	long nv = sb_code_variant_funcs_of(*v, vf, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err));
	if (nv <= 0 || sb_ablation_parts(vf, (size_t)nv, base.funcs, base.n_funcs, &a->ab, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s against %s: %s\n", TOOL, (*v)->name, (*b)->name, err);
		return SB_STATUS_USAGE;
	}
	a->variant = (*v)->name;
	a->baseline = (*b)->name;
	sb_annotate_arm_names(a);
	sb_annotate_probe_pmu(a);
	return SB_STATUS_OK;
}

/* annotate's lines of the summary (the session's answer, which takes no
 * context: the annotation of this run). */
static const struct sb_annotate *summary_of;

static int answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	(void)rf;
	return sb_annotate_summary(f, summary_of, max_lines);
}

static void after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)all;
	if (sb_format_is(format, SB_OUT_TEXT)) {
		fputc('\n', info);
		sb_annotate_listing(info, ctx);
	}
}

static void members(struct sb_doc *doc, const void *ctx)
{
	sb_annotate_doc(doc, ctx);
}

/* The batch sizes when none was given: 512, where a part's cost is the
 * steadiest (results/amd-epyc-zen3-vm.md). */
static void default_batch(struct sb_config *cfg)
{
	struct sb_config d;
	sb_config_defaults(&d);
	if (cfg->measure.n_batches == d.measure.n_batches && memcmp(cfg->measure.batches, d.measure.batches, d.measure.n_batches * sizeof(d.measure.batches[0])) == 0) {
		cfg->measure.batches[0] = 512;
		cfg->measure.n_batches = 1;
	}
}

/* The figures recomputed from the --blocks log path. */
static int run_from_blocks(const struct sb_config *cfg, const char *path, struct sb_annotate *a)
{
	struct sb_block_table t;
	char err[512];
	if (sb_block_table_read(path, &t, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --from-blocks: %s\n", TOOL, err);
		return SB_STATUS_USAGE;
	}
	a->source = path;
	int rc = sb_annotate_compute(a, &t, cfg->measure.seed, TOOL) ? SB_STATUS_USAGE : SB_STATUS_OK;
	sb_block_table_free(&t);
	if (rc)
		return rc;
	/* The report goes where --output says, as a measured one does. */
	struct sb_out out;
	if (sb_out_open(&out, cfg->out.output, TOOL) != 0)
		return SB_STATUS_FAILED;
	FILE *f = out.f;
	if (sb_format_is(cfg->out.format, SB_OUT_JSON)) {
		struct sb_doc *doc = sb_doc_new();
		sb_doc_string(doc, "tool", "stubbench annotate --from-blocks");
		sb_doc_break(doc, "\n  ");
		sb_annotate_doc(doc, a);
		sb_doc_tail(doc, "\n");
		rc = sb_reporter_json_doc(f, doc) ? SB_STATUS_FAILED : SB_STATUS_OK;
		sb_doc_free(doc);
		if (rc)
			fprintf(stderr, "%s: out of memory\n", TOOL);
	} else {
		sb_annotate_summary(f, a, 10);
		if (sb_session_full_report(&cfg->out)) {
			fputc('\n', f);
			sb_annotate_listing(f, a);
		}
	}
	if (sb_out_close(&out) != 0 && rc == SB_STATUS_OK)
		rc = SB_STATUS_FAILED;
	return rc;
}

/* annotate's own state across its steps. */
struct annotate_ctx {
	const char *variant_name;  /* --variant */
	struct sb_annotate *a;
	const struct sb_variant *v, *b;
	const struct sb_return_thunk *thunk;
	struct sb_results res;
};

/* The variant's parts against its baseline; no groups (annotate_measure
 * measures them). */
static int annotate_setup(const struct sb_config *cfg, void *vctx, struct sb_group *g)
{
	(void)cfg, (void)g;
	struct annotate_ctx *c = vctx;
	return parts_of(c->variant_name, c->a, &c->v, &c->b) ? -1 : 0;
}

/* The variant, its baseline and every ablation in one group at identical
 * layout (annotate_measure.c). */
static int annotate_measure(const struct sb_config *cfg, void *vctx, struct sb_group *g, size_t n)
{
	(void)g, (void)n;
	struct annotate_ctx *c = vctx;
	return sb_annotate_measure(cfg, TOOL, c->a, c->v, c->b, &c->res);
}

/* annotate's report: its summary, listing and JSON member where there is
 * an attribution, beside the results. */
static void annotate_report(struct sb_session *s, struct sb_group *g, size_t n, void *vctx, int rc)
{
	(void)g, (void)n, (void)rc;
	struct annotate_ctx *c = vctx;
	struct sb_annotate *a = c->a;
	summary_of = a;
	s->answer = a->n_att ? answer : NULL;
	s->after_report = a->n_att ? after_report : NULL;
	s->after_ctx = a;
	s->meta.members = a->n_att ? members : NULL;
	s->meta.members_ctx = a;
	s->meta.thunk = c->thunk;
	snprintf(s->measurement_extra, sizeof(s->measurement_extra), "annotate %s", c->v->name);
	sb_session_add(s, &c->res, "annotate");
}

static const struct sb_command annotate_command = {
	.tool = TOOL,
	.setup = annotate_setup,
	.measure = annotate_measure,
	.report_final = annotate_report,
};

int sb_annotate_run(const struct sb_config *run_cfg, const struct sb_annotate_options *o)
{
	static struct sb_annotate a;
	static struct sb_config cfg;
	cfg = *run_cfg;
	if (cfg.measure.placements) {
		fprintf(stderr, "%s: --placements: annotate measures every arm at the same placements (--states)\n",
			TOOL);
		return SB_STATUS_USAGE;
	}
	/* A log read back keeps no blocks: --blocks would be ignored. */
	if (o->from_blocks && cfg.records.blocks) {
		fprintf(stderr, "%s: --blocks does not apply with --from-blocks (nothing is measured)\n", TOOL);
		return SB_STATUS_USAGE;
	}
	if (o->from_blocks) {
		const struct sb_variant *v, *b;
		int rc = parts_of(o->variant, &a, &v, &b);
		return rc ? rc : run_from_blocks(&cfg, o->from_blocks, &a);
	}
	/* Where this kernel's returns go; the host flavour and the twins
	 * return there (before any code is copied from them). */
	static struct sb_return_thunk thunk;
	const struct sb_variant *named = sb_variant_find(o->variant);
	const char *family = named ? sb_variant_family(named) : "";
	sb_return_thunk_from_sysfs(&thunk);
	if (strncmp(family, "replica-host", strlen("replica-host")) == 0)
		sb_session_aim_host_returns(&cfg, TOOL, &thunk);
	if (strcmp(family, "twin") == 0)
		sb_session_aim_twin_returns(&cfg, TOOL, &thunk, NULL);
	/* Measured: batch 512 when none was given. */
	default_batch(&cfg);
	static struct annotate_ctx ctx;
	ctx = (struct annotate_ctx){.variant_name = o->variant, .a = &a, .thunk = &thunk};
	return sb_command_run(&annotate_command, &cfg, &ctx);
}

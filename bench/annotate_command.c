/* annotate_command.c: "stubbench annotate --variant=NAME": the variant's
 * listing with what each part it adds to its baseline costs, measured by
 * ablation at identical layout (docs/annotate.md): the variant, its
 * baseline and every ablation (each part NOPed, each removed) run as arms
 * of one group whose copy j all lie at the same page offsets (the session's
 * identical layout, --padded), and the kept blocks, collected in memory,
 * give the paired figures (attribution.h). --from-blocks=FILE recomputes
 * them from a --blocks log of such a run. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "annotate.h"
#include "cli.h"
#include "stubbench/blocks_log.h"
#include "stubbench/code_variant.h"
#include "stubbench/annotate_baseline.h"
#include "stubbench/percpu.h"
#include "stubbench/registry.h"
#include "stubbench/mitigations.h"
#include "stubbench/session.h"

static const char *variant_name = "private"; /* --variant=NAME */
static const char *from_blocks;              /* --from-blocks=FILE */

enum { K_VARIANT, K_FROM };

static int parse_annotate(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (!*arg) {
		snprintf(err, errlen, "--%s: empty", key == K_VARIANT ? "variant" : "from-blocks");
		return -1;
	}
	*(key == K_VARIANT ? &variant_name : &from_blocks) = arg;
	return 0;
}

static const struct sb_cli_group annotate_group = {
	.title = "Annotate",
	.options = (const struct sb_cli_option[]){
		{"variant", "NAME", K_VARIANT, "the variant to annotate against its baseline (default private;\n"
					       "host-private for the host flavour)"},
		{"from-blocks", "FILE", K_FROM, "measure nothing: the figures from FILE, the --blocks log of an\n"
						"annotate run of the same variant (-: standard input)"},
		{NULL},
	},
	.parse = parse_annotate,
};

void annotate_probe_pmu(struct annotate *a)
{
	struct perf_event_attr e = {.type = PERF_TYPE_HARDWARE, .size = sizeof(e), .config = PERF_COUNT_HW_CPU_CYCLES,
				    .disabled = 1, .exclude_kernel = 1};
	int fd = (int)syscall(SYS_perf_event_open, &e, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(a->pmu, sizeof(a->pmu), "no PMU (perf_event_open cycles: %s): no perf record sample shares",
			 strerror(errno));
		return;
	}
	close(fd);
	snprintf(a->pmu, sizeof(a->pmu), "a PMU is there: perf record -e cycles with the perf map gives sample "
					 "shares (not printed here)");
}

/* The variant, its baseline (annotate_baseline.h) and its parts. Returns 0
 * or EXIT_USAGE. */
static int parts_of(const char *tool, struct annotate *a, const struct sb_variant **v, const struct sb_variant **b)
{
	static struct sb_annotate_baseline base;
	char err[512];
	*v = sb_variant_find(variant_name);
	if (!*v) {
		fprintf(stderr, "%s: --variant: unknown variant '%s' (see stubbench --list)\n", tool, variant_name);
		return EXIT_USAGE;
	}
	if (sb_annotate_baseline(*v, &base, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --variant: %s\n", tool, err);
		return EXIT_USAGE;
	}
	*b = base.v;
	struct sb_code_func vf[SB_CODE_VARIANT_MAX_FUNCS];
	long nv = sb_code_variant_funcs_of(*v, vf, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err));
	if (nv <= 0 || sb_ablation_parts(vf, (size_t)nv, base.funcs, base.n_funcs, &a->ab, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s against %s: %s\n", tool, (*v)->name, (*b)->name, err);
		return EXIT_USAGE;
	}
	a->variant = (*v)->name;
	a->baseline = (*b)->name;
	annotate_arm_names(a);
	return 0;
}

/* Calls of function f per call of the main prog: 1 for main, else the
 * main prog's direct calls (the seeds' shape: main calls every subprog). */
static size_t calls_of(const struct sb_ablation *ab, size_t f)
{
	size_t n = 0;
	for (size_t i = 0; f && i < ab->n_rows && ab->rows[i].func == 0; i++)
		n += strncmp(ab->rows[i].text, "call ", 5) == 0;
	return f ? n : 1;
}

int annotate_make_layout(const char *tool, const struct sb_variant *v, struct annotate *a,
			 struct sb_code_variant *out)
{
	char err[512];
	struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS];
	uint8_t *code[SB_CODE_VARIANT_MAX_FUNCS] = {0};
	int rc = 0;
	for (size_t f = 0; f < a->ab.n_funcs && rc == 0; f++) {
		funcs[f] = a->ab.funcs[f];
		funcs[f].name = NULL;
		rc = sb_ablation_all_nops(&a->ab, f, &code[f], &funcs[f].len, err, sizeof(err));
		funcs[f].code = code[f];
	}
	if (rc == 0)
		rc = sb_code_variant_make(v, a->layout_name, NULL, funcs, a->ab.n_funcs, out, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s: %s\n", tool, a->layout_name, err);
	for (size_t f = 0; f < a->ab.n_funcs; f++)
		free(code[f]);
	return rc;
}

/* Every ablation made runnable: out[2k] the NOP form of part k, out[2k+1]
 * the removed one, out[2n] every part NOPed. Returns how many, or -1 said
 * on stderr. */
static long make_ablations(const char *tool, const struct sb_variant *v, struct annotate *a,
			   struct sb_code_variant *out)
{
	char err[512];
	for (size_t k = 0; k < a->ab.n_parts; k++)
		for (int how = 0; how < 2; how++) {
			struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS];
			memcpy(funcs, a->ab.funcs, sizeof(funcs));
			for (size_t f = 0; f < a->ab.n_funcs; f++)
				funcs[f].name = NULL;
			size_t pf = a->ab.parts[k].func, removed;
			uint8_t *code;
			if (sb_ablation_code(&a->ab, k, how ? SB_ABLATE_REMOVE : SB_ABLATE_NOP, &code, &funcs[pf].len,
					     &removed, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s: part %zu (%s): %s\n", tool, k + 1, a->ab.parts[k].name, err);
				return -1;
			}
			funcs[pf].code = code;
			const char *name = how ? a->removed_name[k] : a->nop_name[k];
			struct sb_code_variant *cv = &out[2 * k + (size_t)how];
			int rc = sb_code_variant_make(v, name, NULL, funcs, a->ab.n_funcs, cv, err, sizeof(err));
			free(code);
			if (rc != 0) {
				fprintf(stderr, "%s: %s\n", tool, err);
				return -1;
			}
			/* A twin made from a JIT image knows no count (0). */
			unsigned lost = (unsigned)(removed * calls_of(&a->ab, pf));
			cv->v.insns_per_call -= cv->v.insns_per_call >= lost ? lost : cv->v.insns_per_call;
		}
	return annotate_make_layout(tool, v, a, &out[2 * a->ab.n_parts]) ? -1 : (long)(2 * a->ab.n_parts + 1);
}

/* annotate's lines of the summary (the session's answer: no context). */
static const struct annotate *summary_of;

static int answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	(void)rf;
	return annotate_summary(f, summary_of, max_lines);
}

static void after_report(FILE *info, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)all;
	if (fmt == SB_FORMAT_TABLE) {
		fputc('\n', info);
		annotate_listing(info, ctx);
	}
}

static void json_extra(FILE *f, const void *ctx)
{
	annotate_json(f, ctx);
}

/* The batch sizes when none was given: 512, where a part's cost is the
 * steadiest (results/amd-epyc-zen3-vm.md). */
static void default_batch(struct sb_config *cfg)
{
	struct sb_config d;
	sb_config_defaults(&d);
	if (cfg->n_batches == d.n_batches && memcmp(cfg->batches, d.batches, d.n_batches * sizeof(d.batches[0])) == 0) {
		cfg->batches[0] = 512;
		cfg->n_batches = 1;
	}
}

/* The figures recomputed from a --blocks log. */
static int run_from_blocks(struct sb_cli *cli, struct annotate *a)
{
	const char *tool = "stubbench annotate";
	struct sb_block_table t;
	char err[512];
	if (sb_block_table_read(from_blocks, &t, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: --from-blocks: %s\n", tool, err);
		return EXIT_USAGE;
	}
	a->source = from_blocks;
	int rc = annotate_compute(a, &t, cli->cfg.seed, tool) ? EXIT_USAGE : 0;
	sb_block_table_free(&t);
	if (rc)
		return rc;
	if (cli->cfg.format == SB_FORMAT_JSON) {
		printf("{\"tool\": \"stubbench annotate --from-blocks\"");
		annotate_json(stdout, a);
		printf("\n}\n");
	} else {
		annotate_summary(stdout, a, 10);
		if (sb_session_full_report(&cli->cfg)) {
			fputc('\n', stdout);
			annotate_listing(stdout, a);
		}
	}
	return 0;
}

int annotate_parts_of_code(struct annotate *a, const struct sb_code_variant *v, const struct sb_code_variant *b,
			   char *err, size_t errlen)
{
	struct sb_code_func vf[SB_CODE_VARIANT_MAX_FUNCS], bf[SB_CODE_VARIANT_MAX_FUNCS];
	size_t nv = sb_code_variant_funcs(v, vf), nb = sb_code_variant_funcs(b, bf);
	if (sb_ablation_parts(vf, nv, bf, nb, &a->ab, err, errlen))
		return -1;
	if (2 * a->ab.n_parts + 4 > SB_MAX_ARMS - 1) {
		snprintf(err, errlen, "%zu parts are more ablations than a run holds", a->ab.n_parts);
		sb_ablation_free(&a->ab);
		return -1;
	}
	annotate_probe_pmu(a);
	a->variant = v->v.name;
	a->baseline = b->v.name;
	annotate_arm_names(a);
	return 0;
}

int annotate_measure(const struct sb_config *run_cfg, const char *tool, struct annotate *a,
		     const struct sb_variant *v, const struct sb_variant *b, struct sb_results *res)
{
	static struct sb_code_variant cvs[2 * SB_ABLATION_MAX_PARTS + 1];
	static struct sb_variant_arms arms;
	const struct sb_variant *others[SB_MAX_ARMS];
	if (2 * a->ab.n_parts + 4 > SB_MAX_ARMS - 1) {
		fprintf(stderr, "%s: %s has %zu parts: %zu ablations are more arms than a run holds (%d)\n", tool,
			v->name, a->ab.n_parts, 2 * a->ab.n_parts + 1, SB_MAX_ARMS - 1);
		return EXIT_USAGE;
	}
	sb_session_progress(tool, "making the ablations");
	long n = make_ablations(tool, v, a, cvs);
	if (n < 0)
		return 1;
	size_t m = 0;
	others[m++] = v;
	for (long i = 0; i < n; i++)
		others[m++] = &cvs[i].v;
	/* Identical layout: copy j of every arm at the same page offsets,
	 * interleaved in one group, so that each block pairs them. */
	struct sb_config cfg = *run_cfg;
	cfg.padded = 0;
	struct sb_group g = {.baseline = b, .others = others, .n_others = m, .arms = &arms, .res = res,
			     .same_offsets = 1};
	static struct sb_block_table blocks;
	sb_blocks_log_collect(&blocks);
	int rc = sb_measure_groups(&cfg, tool, &g, 1);
	sb_blocks_log_collect(NULL);
	if (sb_blocks_log_collect_failed()) {
		fprintf(stderr, "%s: out of memory collecting the blocks\n", tool);
		rc = rc ? rc : 1;
	}
	a->source = "live";
	if (rc == 0 && annotate_compute(a, &blocks, cfg.seed, tool) != 0)
		rc = 1;
	sb_block_table_free(&blocks);
	return rc;
}

static int run_annotate(struct sb_cli *cli)
{
	const char *tool = "stubbench annotate";
	static struct annotate a;
	const struct sb_variant *v, *b;
	if (cli->cfg.placements) {
		fprintf(stderr, "%s: --placements: annotate measures every arm at the same placements (--states)\n",
			tool);
		return EXIT_USAGE;
	}
	/* Where this kernel's returns go; the host flavour and the twins
	 * return there (before any code is copied from them). */
	static struct sb_return_thunk thunk;
	const struct sb_variant *named = sb_variant_find(variant_name);
	const char *family = named ? sb_variant_family(named) : "";
	if (!from_blocks)
		sb_return_thunk_from_sysfs(&thunk);
	if (!from_blocks && strncmp(family, "replica-host", strlen("replica-host")) == 0)
		sb_session_aim_host_returns(&cli->cfg, tool, &thunk);
	if (!from_blocks && strcmp(family, "twin") == 0)
		sb_session_aim_twin_returns(&cli->cfg, tool, &thunk, NULL);
	int rc = parts_of(tool, &a, &v, &b);
	if (rc)
		return rc;
	annotate_probe_pmu(&a);
	if (from_blocks)
		return run_from_blocks(cli, &a);
	default_batch(&cli->cfg);
	static struct sb_results res;
	rc = annotate_measure(&cli->cfg, cli->prog, &a, v, b, &res);
	if (rc == EXIT_USAGE)
		return rc;
	struct sb_session s;
	sb_session_init(&s, tool, &cli->cfg);
	summary_of = &a;
	s.answer = a.n_att ? answer : NULL;
	s.after_report = a.n_att ? after_report : NULL;
	s.after_ctx = &a;
	s.meta.json_extra = a.n_att ? json_extra : NULL;
	s.meta.json_extra_ctx = &a;
	s.meta.thunk = &thunk;
	snprintf(s.measurement_extra, sizeof(s.measurement_extra), "annotate %s", v->name);
	sb_session_add(&s, &res, "annotate");
	rc = sb_session_finish(&s, rc);
	sb_percpu_thread_fini();
	return rc;
}

const struct sb_subcommand sb_annotate_command = {
	.name = "annotate",
	.summary = "A variant's listing with what each instruction it adds to its baseline costs, as\n"
		   "perf annotate would print it, without a PMU: each part (r9 load, gs add, each\n"
		   "push/pop r9 pair, the r9 frame accesses, any other added instruction) NOPed and\n"
		   "removed, every arm at the same placements; docs/annotate.md.",
	.groups = {&annotate_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sweep_group,
		   &sb_cli_config_group, &sb_cli_placements_group},
	.default_processes = 4,
	.default_time_s = 60,
	.run = run_annotate,
};

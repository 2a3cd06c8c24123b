/* annotate_measure.c: a variant's parts measured by ablation at identical
 * layout (docs/annotate.md): the variant, its baseline and every ablation
 * (each part NOPed, each removed, every part NOPed) run as arms of one
 * group whose copy j all lie at the same page offsets (the session's
 * identical layout, --padded), and the kept blocks, collected in memory,
 * give the paired figures (attribution.h). stubbench annotate, diff and
 * kernel --obj measure their parts so; see annotate.h. */
#include "annotate.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "stats/blocks_log.h"
#include "jit/code_variant.h"
#include "session/session.h"
#include "base/error.h"
#include "harness/variant_arms.h"

void sb_annotate_probe_pmu(struct sb_annotate *a)
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

/* Calls of function f per call of the main prog: 1 for main, else the
 * main prog's direct calls (the seeds' shape: main calls every subprog). */
static size_t calls_of(const struct sb_ablation *ab, size_t f)
{
	size_t n = 0;
	for (size_t i = 0; f && i < ab->n_rows && ab->rows[i].func == 0; i++)
		n += strncmp(ab->rows[i].text, "call ", 5) == 0;
	return f ? n : 1;
}

int sb_annotate_make_layout(const char *tool, const struct sb_variant *v, struct sb_annotate *a,
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
static long make_ablations(const char *tool, const struct sb_variant *v, struct sb_annotate *a,
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
	return sb_annotate_make_layout(tool, v, a, &out[2 * a->ab.n_parts]) ? -1 : (long)(2 * a->ab.n_parts + 1);
}

int sb_annotate_parts_of_code(struct sb_annotate *a, const struct sb_code_variant *v, const struct sb_code_variant *b,
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
	sb_annotate_probe_pmu(a);
	a->variant = v->v.name;
	a->baseline = b->v.name;
	sb_annotate_arm_names(a);
	return 0;
}

int sb_annotate_measure(const struct sb_config *run_cfg, const char *tool, struct sb_annotate *a,
			const struct sb_variant *v, const struct sb_variant *b, struct sb_results *res)
{
	static struct sb_code_variant cvs[2 * SB_ABLATION_MAX_PARTS + 1];
	static struct sb_variant_arms arms;
	const struct sb_variant *others[SB_MAX_ARMS];
	if (2 * a->ab.n_parts + 4 > SB_MAX_ARMS - 1) {
		fprintf(stderr, "%s: %s has %zu parts: %zu ablations are more arms than a run holds (%d)\n", tool,
			v->name, a->ab.n_parts, 2 * a->ab.n_parts + 1, SB_MAX_ARMS - 1);
		return SB_STATUS_USAGE;
	}
	sb_session_progress(tool, "making the ablations");
	long n = make_ablations(tool, v, a, cvs);
	if (n < 0)
		return SB_STATUS_FAILED;
	size_t m = 0;
	others[m++] = v;
	for (long i = 0; i < n; i++)
		others[m++] = &cvs[i].v;
	/* Identical layout: copy j of every arm at the same page offsets,
	 * interleaved in one group, so that each block pairs them. */
	struct sb_config cfg = *run_cfg;
	cfg.measure.padded = 0;
	cfg.measure.contain = 1; /* ablations of listings, of images read from files too */
	struct sb_group g = {.baseline = b, .others = others, .n_others = m, .arms = &arms, .res = res,
			     .same_offsets = 1};
	static struct sb_block_table blocks;
	sb_blocks_log_collect(&blocks);
	int rc = sb_measure_groups(&cfg, tool, &g, 1);
	sb_blocks_log_collect(NULL);
	if (sb_blocks_log_collect_failed()) {
		fprintf(stderr, "%s: out of memory collecting the blocks\n", tool);
		rc = rc ? rc : SB_STATUS_FAILED;
	}
	a->source = "live";
	if (rc == 0 && sb_annotate_compute(a, &blocks, cfg.measure.seed, tool) != 0)
		rc = SB_STATUS_FAILED;
	sb_block_table_free(&blocks);
	return rc;
}

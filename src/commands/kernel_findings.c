/* kernel_findings.c: the ending of a run of `stubbench kernel`'s built-in
 * shapes (kernel_run_state.h): the results of every part to the session
 * (session.h), the side-by-side verdicts of kernel and twins after the
 * results, and what the run found besides timings in the JSON document's
 * "kernel_run" object (the programs' ids, the JIT check and flavour, the
 * verdicts, the driver, the private stack). */
#include "kernel_run_state.h"

#include <string.h>

#include "stubbench/figure_checks.h"
#include "stubbench/json_writer.h"
#include "stubbench/kernel_report.h"
#include "stubbench/kernel_verdict.h"
#include "stubbench/mitigations.h"
#include "stubbench/private_stack_reason.h"
#include "stubbench/session.h"

/* What the kernel run's CIs cover: the loads (its re-rolled states) and
 * the fresh processes of this one run. What moves whole runs is not in
 * them, so the run says so in every format and points to the next-run
 * interval drawn from several runs (measured:
 * results/intel-xeon-icelake-vm.md, results/amd-epyc-zen5-vm.md). */
#define SB_KERNEL_CI_SCOPE \
	"they resample the loads (and the --processes) of this one run; separate runs can differ by more: " \
	"before trusting a sign, quote the next-run interval of bench/reproducibility.py --kernel"

/* `,\n    "key": [...]`: text's non-empty lines as JSON strings, but those
 * that start with skip_prefix (NULL: none skipped). */
static void json_lines(FILE *f, const char *key, const char *text, const char *skip_prefix)
{
	fprintf(f, ",\n    \"%s\": [", key);
	int first = 1;
	for (const char *p = text ? text : ""; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && !(skip_prefix && strncmp(p, skip_prefix, strlen(skip_prefix)) == 0)) {
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			fputs(first ? "\n      " : ",\n      ", f);
			sb_json_string(f, line);
			first = 0;
		}
		p += len + (nl ? 1 : 0);
	}
	fputs("]", f);
}

/* Every program measured, per load and batch: its shape, variant, name
 * and the kernel's id of it. */
static void json_programs(FILE *f, const struct kernel_run *r)
{
	fputs(",\n    \"programs\": [", f);
	int first = 1;
	for (int c = 0; c < (int)r->cfg.loads; c++)
		for (size_t b = 0; b < r->n_objs[c]; b++)
			for (int s = 0; s < SB_N_SHAPES; s++)
				for (int v = 0; v < SB_N_KVARIANTS; v++) {
					if (!r->plan.shapes[s] || (v != SB_KV_BASELINE && !r->plan.want[v]))
						continue;
					fprintf(f, "%s{\"load\": %d, \"batch\": %llu, \"shape\": \"%s\", "
						   "\"variant\": \"%s\", \"prog\": \"%s\", \"id\": %u}",
						first ? "\n      " : ",\n      ", c + 1,
						(unsigned long long)r->cfg.batches[b], sb_kernel_shape_name(s),
						sb_kernel_variant_name(v), sb_kernel_prog_name(s, v),
						sb_kernel_prog_id(sb_kernel_prog_fd(r->objs[c][b], s, v)));
					first = 0;
				}
	fputs("]", f);
}

/* The "kernel_run" object of the JSON document (ctx: the kernel_run). */
static void json_findings(FILE *f, const void *ctx)
{
	const struct kernel_run *r = ctx;
	static const char flavour_prefix[] = "jit flavour of this kernel: ";
	fputs(",\n  \"kernel_run\": {\"jit_flavour\": ", f);
	const char *fl = r->jit_check ? strstr(r->jit_check, flavour_prefix) : NULL;
	if (fl) {
		char buf[512];
		fl += strlen(flavour_prefix);
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(fl, "\n"), fl);
		sb_json_string(f, buf);
	} else {
		fputs("null", f);
	}
	json_lines(f, "jit_check", r->jit_check, flavour_prefix);
	json_programs(f, r);
	fputs(",\n    \"verdicts\": [", f);
	int first = 1;
	for (int s = 0; s < SB_N_SHAPES; s++)
		if (r->plan.shapes[s])
			sb_kernel_report_json(f, s, &r->kres[s], &r->tres[s], &r->pres[s], &first);
	fputs("]", f);
	json_lines(f, "side_by_side", r->verdicts, NULL);
	fprintf(f, ",\n    \"driver\": \"%s\"", sb_kernel_driver_name(r->driver));
	fputs(",\n    \"private_stack\": ", f);
	sb_kernel_private_stack_json(f, r->no_priv, r->plan.shapes, r->probed ? &r->probe : NULL);
	fputs("}", f);
}

/* The side-by-side report, printed after the results (ctx: the kernel_run). */
static void after_report(FILE *info, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)fmt;
	(void)all;
	const struct kernel_run *r = ctx;
	if (r->verdicts)
		fputs(r->verdicts, info);
}

/* The side-by-side report of every shape into r->verdicts, for the JSON
 * document and to be printed after the results. */
static void write_verdicts(struct kernel_run *r)
{
	size_t text_len;
	FILE *verdicts = open_memstream(&r->verdicts, &text_len);
	for (int sh = 0; sh < SB_N_SHAPES && verdicts; sh++)
		if (r->plan.shapes[sh]) {
			const struct sb_results *k = &r->kres[sh], *p = &r->pres[sh];
			sb_kernel_report_side_by_side(verdicts, sh, &k, 1, &r->tres[sh], &p);
		}
	if (verdicts)
		fclose(verdicts);
}

int kernel_run_finish(struct kernel_run *r, const struct sb_return_thunk *thunk, int rc)
{
	struct sb_session s;
	sb_session_init(&s, "stubbench kernel", &r->cfg);
	const int *shapes = r->plan.shapes;
	/* Per shape: the kernel's programs, the twins, the placed twins; their
	 * figures checked now, since the verdicts below are made before the
	 * session's ending checks them (figure_checks.h). */
	for (int sh = 0; sh < SB_N_SHAPES; sh++)
		if (shapes[sh]) {
			sb_figure_checks(&r->kres[sh]);
			sb_figure_checks(&r->tres[sh]);
			sb_figure_checks(&r->pres[sh]);
			sb_session_add(&s, &r->kres[sh], NULL);
			sb_session_add(&s, &r->tres[sh], NULL);
			sb_session_add(&s, &r->pres[sh], NULL);
		}
	write_verdicts(r);
	/* The scope of the CIs, and what the kernel's return thunk adds to it. */
	char ci_scope[768];
	const char *note = sb_thunk_time_note(thunk->thunk);
	snprintf(ci_scope, sizeof(ci_scope), "%s%s%s", SB_KERNEL_CI_SCOPE, note ? "; " : "", note ? note : "");
	s.meta.shape = shapes[0] + shapes[1] > 1 ? "per-run, in-loop" : sb_kernel_shape_name(shapes[0] ? 0 : 1);
	s.meta.json_extra = json_findings;
	s.meta.json_extra_ctx = r;
	s.meta.thunk = thunk;
	s.meta.ci_scope = ci_scope;
	s.meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	s.meta.kernel_driver = r->driver == SB_DRIVER_PERF_EVENT ? (r->driver_note[0] ? r->driver_note
								   : "perf_event programs, run by page faults")
								 : NULL;
	s.after_report = after_report;
	s.after_ctx = r;
	s.answer = sb_kernel_answer;
	return kernel_run_session_finish(&s, rc);
}

/* kernel_findings.c: the report of a run of `stubbench kernel`'s built-in
 * shapes (kernel_run_state.h), set on the session before its one ending
 * (session.h): the results of every part, the side-by-side verdicts of
 * kernel and twins after the results, and what the run found besides
 * timings as the document's "kernel_run" member (the programs' ids, the
 * JIT check and flavour, the verdicts, the driver, the private stack). */
#include "kernel_run_state.h"

#include <string.h>

#include "output/figure_checks.h"
#include "output/json_doc.h"
#include "kernel/kernel_report.h"
#include "answer/kernel_verdict.h"
#include "base/mitigations.h"
#include "kernel/private_stack_reason.h"
#include "session/session.h"

/* What the kernel run's CIs cover: the loads (its re-rolled states) and
 * the fresh processes of this one run. What moves whole runs is not in
 * them, so the run says so in every format and points to the next-run
 * interval drawn from several runs (measured:
 * results/intel-xeon-icelake-vm.md, results/amd-epyc-zen5-vm.md). */
#define SB_KERNEL_CI_SCOPE \
	"they resample the loads (and the --processes) of this one run; separate runs can differ by more: " \
	"before trusting a sign, quote the next-run interval of bench/reproducibility.py --kernel"

/* kr's member key, on a line of its own: text's non-empty lines, one a
 * line, but those that start with skip_prefix (NULL: none skipped). */
static void doc_lines(struct sb_doc *kr, const char *key, const char *text, const char *skip_prefix)
{
	sb_doc_break(kr, "\n    ");
	sb_doc_lines(kr, key, text, skip_prefix, "\n      ");
}

/* Every program measured, per load and batch: its shape, variant, name
 * and the kernel's id of it. */
static void doc_programs(struct sb_doc *kr, const struct kernel_run *r)
{
	sb_doc_break(kr, "\n    ");
	struct sb_doc *a = sb_doc_array(kr, "programs");
	for (int c = 0; c < (int)r->cfg.kernel.loads; c++)
		for (size_t b = 0; b < r->n_objs[c]; b++)
			for (int s = 0; s < SB_N_SHAPES; s++)
				for (int v = 0; v < SB_N_KVARIANTS; v++) {
					if (!r->plan.shapes[s] || (v != SB_KV_BASELINE && !r->plan.want[v]))
						continue;
					sb_doc_break(a, "\n      ");
					struct sb_doc *o = sb_doc_object(a, NULL);
					sb_doc_int(o, "load", c + 1);
					sb_doc_uint(o, "batch", r->cfg.measure.batches[b]);
					sb_doc_string(o, "shape", sb_kernel_shape_name(s));
					sb_doc_string(o, "variant", sb_kernel_variant_name(v));
					sb_doc_string(o, "prog", sb_kernel_prog_name(s, v));
					sb_doc_uint(o, "id", sb_kernel_prog_id(sb_kernel_prog_fd(r->objs[c][b], s, v)));
				}
}

/* The "kernel_run" member of the run's document (ctx: the kernel_run). */
static void findings(struct sb_doc *doc, const void *ctx)
{
	const struct kernel_run *r = ctx;
	static const char flavour_prefix[] = "jit flavour of this kernel: ";
	struct sb_doc *kr = sb_doc_object(doc, "kernel_run");
	const char *fl = r->jit_check ? strstr(r->jit_check, flavour_prefix) : NULL;
	if (fl) {
		char buf[512];
		fl += strlen(flavour_prefix);
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(fl, "\n"), fl);
		sb_doc_string(kr, "jit_flavour", buf);
	} else {
		sb_doc_null(kr, "jit_flavour");
	}
	doc_lines(kr, "jit_check", r->jit_check, flavour_prefix);
	doc_programs(kr, r);
	sb_doc_break(kr, "\n    ");
	struct sb_doc *verdicts = sb_doc_array(kr, "verdicts");
	for (int s = 0; s < SB_N_SHAPES; s++)
		if (r->plan.shapes[s])
			sb_kernel_report_doc(verdicts, s, &r->kres[s], &r->tres[s], &r->pres[s]);
	doc_lines(kr, "side_by_side", r->verdicts, NULL);
	sb_doc_break(kr, "\n    ");
	sb_doc_string(kr, "driver", sb_kernel_driver_name(r->driver));
	/* The page offset of a program's rbp frame on the kernel's stack (null:
	 * not read, or not the same in every run; the line says why). */
	sb_doc_break(kr, "\n    ");
	if (r->stack_probed && r->stack_probe.page_offset >= 0)
		sb_doc_int(kr, "kernel_stack_page_offset", r->stack_probe.page_offset);
	else
		sb_doc_null(kr, "kernel_stack_page_offset");
	/* The placed twins' rbp frame page offset, per shape measured (null:
	 * a random pad per block). */
	struct sb_doc *pf = sb_doc_object(kr, "placed_twin_stack_page_offset");
	for (int s = 0; s < SB_N_SHAPES; s++)
		if (r->plan.shapes[s]) {
			if (r->placed_frame[s] >= 0)
				sb_doc_int(pf, sb_kernel_shape_name(s), r->placed_frame[s]);
			else
				sb_doc_null(pf, sb_kernel_shape_name(s));
		}
	if (r->stack_probed) {
		char line[400];
		sb_stack_probe_line(&r->stack_probe, line, sizeof(line));
		sb_doc_string(kr, "kernel_stack_probe", line);
	} else {
		sb_doc_null(kr, "kernel_stack_probe");
	}
	sb_doc_break(kr, "\n    ");
	sb_kernel_private_stack_doc(kr, "private_stack", r->no_priv, r->plan.shapes, r->probed ? &r->probe : NULL);
}

/* The side-by-side report, printed after the results (ctx: the kernel_run). */
static void after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)format;
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

void kernel_run_report(struct sb_session *s, struct kernel_run *r)
{
	const int *shapes = r->plan.shapes;
	kernel_run_load_figures(r);
	/* Per shape: the kernel's programs, the twins, the placed twins; their
	 * figures checked now, since the verdicts below are made before the
	 * session's ending checks them (figure_checks.h). */
	for (int sh = 0; sh < SB_N_SHAPES; sh++)
		if (shapes[sh]) {
			sb_figure_checks(&r->kres[sh]);
			sb_figure_checks(&r->tres[sh]);
			sb_figure_checks(&r->pres[sh]);
			sb_session_add(s, &r->kres[sh], NULL);
			sb_session_add(s, &r->tres[sh], NULL);
			sb_session_add(s, &r->pres[sh], NULL);
		}
	write_verdicts(r);
	/* The scope of the CIs, and what the kernel's return thunk adds to it. */
	const char *note = sb_thunk_time_note(r->thunk.thunk);
	snprintf(r->ci_scope, sizeof(r->ci_scope), "%s%s%s", SB_KERNEL_CI_SCOPE, note ? "; " : "", note ? note : "");
	s->meta.shape = shapes[0] + shapes[1] > 1 ? "per-run, in-loop" : sb_kernel_shape_name(shapes[0] ? 0 : 1);
	s->meta.members = findings;
	s->meta.members_ctx = r;
	s->meta.thunk = &r->thunk;
	s->meta.ci_scope = r->ci_scope;
	s->meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	s->meta.kernel_driver = r->driver == SB_DRIVER_PERF_EVENT ? (r->driver_note[0] ? r->driver_note
								    : "perf_event programs, run by page faults")
								  : NULL;
	s->after_report = after_report;
	s->after_ctx = r;
	s->answer = sb_kernel_answer;
}

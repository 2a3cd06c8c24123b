/* kernel_htab_run.c: `stubbench kernel --shape=htab` (kernel_run.h):
 * seed 003's v1 map-helper program with and without a private stack (see
 * bench/bpf/htab_shape.bpf.c for how the baseline is made), a command the
 * session drives (command.h). Its measure step loads the programs once per
 * batch size, checks (and with --dump-jit writes) their JIT and measures
 * them interleaved with BPF_PROG_TEST_RUN on one CPU; its report has the
 * results and the private - baseline delta per batch. */
#include "base/error.h"
#include "kernel_run_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "kernel/htab.h"
#include "harness/pin.h"
#include "kernel/private_stack_probe.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "saved/run_file.h"
#include "session/command.h"
#include "session/session.h"
#include "kernel/signals.h"
#include "answer/kernel_verdict.h"
#include "stubbench/timer.h"

struct htab_run {
	struct sb_htab_obj *objs[SB_MAX_BATCHES];
	size_t n_objs;
	struct sb_htab_arms arms;
	struct sb_results res, res2; /* res2: the perf_event programs' part, where there is one */
	char not_measured[256];
	int driver_option;             /* --driver: an enum sb_kernel_driver, or SB_KERNEL_DRIVER_AUTO */
	enum sb_kernel_driver driver;  /* how the private programs are loaded and run */
	char driver_note[200];         /* why perf_event, for the summary and JSON */
	int cpu;                       /* the core the run measured on */
	FILE *quiet;                   /* the findings' stream to close (kernel_run_findings_stream) */
	int has_results;               /* measured to the end: the run has a report */
};

/* The htab shape's own report, after the results. */
static void after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)format;
	const struct htab_run *r = ctx;
	sb_htab_report(info, all, r->driver);
}

/* a - b, each side of the CI from the two sides that move it that way in
 * quadrature (independent figures). */
static struct sb_estimate minus(const struct sb_estimate *a, const struct sb_estimate *b)
{
	struct sb_estimate d = *a;
	d.value = a->value - b->value;
	double al = a->value - a->lo, ah = a->hi - a->value, bl = b->value - b->lo, bh = b->hi - b->value;
	d.lo = d.value - sqrt(al * al + bh * bh);
	d.hi = d.value + sqrt(ah * ah + bl * bl);
	return d;
}

/* The summary where the private programs ran by page faults and the
 * baseline by a syscall program's test run: each measured in a part of
 * its own with its own driver's path taken out, and what private adds
 * from those two (independent: CIs in quadrature). */
static int htab_answer_two_paths(FILE *f, const struct sb_run_file *rf, uint64_t b)
{
	const struct sb_run_row *base = sb_answer_find(rf, SB_SIDE_KERNEL, "htab", "baseline", NULL, b),
				*priv = sb_answer_find(rf, SB_SIDE_KERNEL, "htab", "private", NULL, b);
	if (!base || !priv || !sb_estimate_has_ci(&base->cycles) || !sb_estimate_has_ci(&priv->cycles)) {
		fprintf(f, "htab at batch %llu: no figure of %s\n", (unsigned long long)b,
			!base || !sb_estimate_has_ci(&base->cycles) ? "the baseline" : "the private program");
		return 1;
	}
	struct sb_estimate own = base->cycles, d = minus(&priv->cycles, &own);
	char bs[64], ps[64], ds[64];
	sb_answer_estimate(bs, sizeof(bs), &own, 0);
	sb_answer_estimate(ps, sizeof(ps), &priv->cycles, 0);
	fprintf(f, "htab at batch %llu, cycles per iteration (95 %% CI), each driver's own path taken out:\n",
		(unsigned long long)b);
	fprintf(f, "  baseline (syscall program) %s\n  private (perf_event program) %s\n", bs, ps);
	double half = 0.5 * (d.hi - d.lo);
	if (half > sb_kernel_resolved_bound(own.value)) {
		fprintf(f, "  private adds: not resolved at batch %llu: the drivers' own spread is ±%.1f cycles\n",
			(unsigned long long)b, half);
	} else {
		sb_answer_estimate(ds, sizeof(ds), &d, 1);
		fprintf(f, "  private adds %s cycles per iteration\n", ds);
	}
	fprintf(f, "the helpers' share: --table\n");
	return 5;
}

/* The summary's lines: private against baseline; the helpers' share and
 * the syscall path compare other things, and are in the htab table. */
static int htab_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	/* Without the private program (no private stack in this kernel): the
	 * baseline's own cost per iteration. */
	uint64_t b = sb_answer_largest_batch(rf);
	if (!sb_answer_find(rf, SB_SIDE_KERNEL, "htab", "private", NULL, b)) {
		const struct sb_run_row *base = sb_answer_find(rf, SB_SIDE_KERNEL, "htab", "baseline", NULL, b);
		char buf[64];
		if (!base)
			return 0;
		sb_answer_estimate(buf, sizeof(buf), &base->cycles, 0);
		fprintf(f, "baseline in the kernel at batch %llu: %s cycles per iteration (95 %% CI)\n",
			(unsigned long long)b, buf);
		fprintf(f, "the syscall path: --table\n");
		return 2;
	}
	if (rf->kernel_driver[0])
		return htab_answer_two_paths(f, rf, b);
	struct sb_run_file mine = *rf;
	struct sb_run_row rows[64];
	mine.rows = rows;
	mine.n_rows = 0;
	for (size_t i = 0; i < rf->n_rows && mine.n_rows < 64; i++)
		if (!strcmp(rf->rows[i].key.codegen, "baseline") || !strcmp(rf->rows[i].key.codegen, "private"))
			rows[mine.n_rows++] = rf->rows[i];
	int n = sb_answer_costs(f, &mine, max_lines - 1);
	fprintf(f, "the helpers' share and the syscall path: --table\n");
	return n + 1;
}

/* The programs, once per batch size, and one test run of each empty
 * driver (syscall, raw_tp) to see the kernel runs them. */
static enum sb_kernel_status load_programs(struct htab_run *r, const struct sb_measure_config *cfg)
{
	char why[512];
	for (size_t i = 0; i < cfg->n_batches; i++) {
		enum sb_kernel_status st;
		r->objs[i] = sb_htab_load_as((uint32_t)cfg->batches[i], r->driver, &st, why, sizeof(why));
		if (!r->objs[i]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->n_objs++;
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
	}
	int trc = sb_kernel_test_run(sb_htab_prog_fd(r->objs[0], SB_HTAB_EMPTY_SYSCALL), -1);
	if (trc == 0)
		trc = sb_htab_run_once(r->objs[0], SB_HTAB_EMPTY_RAW_TP);
	if (trc != 0) {
		fprintf(stderr, "stubbench kernel: %s of a %s or syscall program refused: %s\n",
			r->driver == SB_DRIVER_PERF_EVENT ? "a run (a page fault, or BPF_PROG_TEST_RUN)"
							  : "BPF_PROG_TEST_RUN",
			sb_kernel_driver_name(r->driver), sb_errno_cause(-trc));
		return SB_KERNEL_NO_TEST_RUN;
	}
	return SB_KERNEL_OK;
}

static void unload_programs(struct htab_run *r)
{
	for (size_t i = 0; i < r->n_objs; i++)
		sb_htab_unload(r->objs[i]);
	r->n_objs = 0;
}

/* The JIT check (its lines on info). Returns its status; *with_private:
 * the kernel gave the private programs a private stack, so they are
 * measured. No JIT measures nothing; the rest measure anyway and the run
 * exits with the status. */
static enum sb_kernel_status check_jit(struct htab_run *r, const struct sb_config *cfg, FILE *info,
				       int *with_private)
{
	char why[512];
	enum sb_kernel_status st = sb_htab_check_jit(r->objs[0], cfg->kernel.dump_dir, cfg->out.verbose ? info : sb_session_nowhere(), why,
				       sizeof(why));
	/* --driver=auto: the raw_tp programs again as perf_event programs
	 * where the probe says that type gets a private stack. */
	if (kernel_run_perf_event_instead(st, r->driver_option, r->driver, NULL)) {
		fprintf(stderr, "stubbench kernel: loading the raw_tp programs as perf_event programs "
			"instead, each run by a page fault (--driver=perf_event): this kernel gives raw_tp "
			"programs no private stack\n");
		unload_programs(r);
		r->driver = SB_DRIVER_PERF_EVENT;
		snprintf(r->driver_note, sizeof(r->driver_note), "%s", KERNEL_PERF_EVENT_NOTE);
		enum sb_kernel_status lst = load_programs(r, &cfg->measure);
		if (lst != SB_KERNEL_OK)
			return lst;
		st = sb_htab_check_jit(r->objs[0], cfg->kernel.dump_dir, cfg->out.verbose ? info : sb_session_nowhere(), why,
				       sizeof(why));
	}
	*with_private = st != SB_KERNEL_NO_PRIV_STACK;
	if (st == SB_KERNEL_NO_JIT) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
	} else if (!*with_private) {
		/* The private programs are the baseline's code: left out, the
		 * rest measured, and the exit status says so. */
		struct sb_private_stack_probe probe;
		int probed = sb_kernel_say_no_private_stack(why, info, sb_session_notes(cfg), &probe);
		sb_kernel_not_measured_as("private in the kernel", probed ? &probe : NULL, r->not_measured,
					  sizeof(r->not_measured));
		fprintf(sb_session_notes(cfg), "stubbench kernel: measuring the rest: the baseline and the syscall path "
			"(exit status 6: measured in part)\n");
	} else if (st != SB_KERNEL_OK) {
		/* Unreadable JIT bytes or a variant that is not what it should
		 * be. */
		fprintf(stderr, "stubbench kernel: %s\n", why);
	}
	/* Said only when every dump was written (a failed one fails the check). */
	if (st != SB_KERNEL_NO_JIT && st != SB_KERNEL_FAILED && cfg->kernel.dump_dir)
		fprintf(info, "jit: dumps written to %s\n", cfg->kernel.dump_dir);
	return st;
}

/* The programs measured interleaved (the private ones where with_private),
 * then their counters checked. Returns SB_KERNEL_OK or the status it
 * failed with, said on stderr. */
static enum sb_kernel_status measure_programs(struct htab_run *r, const struct sb_config *cfg, int with_private,
					       FILE *info)
{
	char why[512];
	const struct sb_timer_info *ti = sb_timer_probe();
	if (cfg->out.verbose)
		fprintf(stderr, "stubbench kernel: timer %s: %s\n", sb_timer_kind_name(ti->kind), ti->reason);
	sb_htab_arms_build(&r->arms, r->objs, cfg->measure.batches, cfg->measure.n_batches, with_private);
	/* With each driver's path removed from its own programs: two parts,
	 * sharing the time. */
	struct sb_config hcfg = *cfg;
	hcfg.measure.share_ways = r->arms.n_first ? 2 : 1;
	struct sb_run_opts ro;
	sb_session_run_opts(&hcfg, &ro);
	ro.stop = sb_kernel_interrupted;
	uint64_t before[2 * SB_MAX_BATCHES];
	sb_htab_read_counters(&r->arms, before);
	int mrc;
	if (r->arms.n_first) {
		struct sb_arm_set parts[2] = {
			{.arms = r->arms.arms, .n_arms = r->arms.n_first, .opts = &ro, .out = &r->res},
			{.arms = r->arms.arms + r->arms.n_first, .n_arms = r->arms.n - r->arms.n_first, .opts = &ro,
			 .out = &r->res2},
		};
		mrc = sb_run_arm_sets(parts, 2, why, sizeof(why));
	} else {
		mrc = sb_run_interleaved(r->arms.arms, r->arms.n, &ro, &r->res, why, sizeof(why));
	}
	if (mrc != 0) {
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
		for (size_t i = 0; i < r->arms.n; i++)
			if (r->arms.ctx[i].last_error)
				snprintf(why, sizeof(why), "BPF_PROG_TEST_RUN failed: %s",
					 sb_errno_cause(-r->arms.ctx[i].last_error));
		fprintf(stderr, "stubbench kernel: htab shape: measurement failed: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	if (sb_htab_check_counters(&r->arms, before, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	fprintf(info, "counters: htab_body ran once per test run, its helper-less twin batch_iters times\n");
	return SB_KERNEL_OK;
}

/* The command's report (command.h): the results, the htab shape's own
 * lines after them and its summary. */
static void report(struct sb_session *s, struct sb_group *g, size_t n, void *ctx, int rc)
{
	(void)g, (void)n, (void)rc;
	struct htab_run *r = ctx;
	r->res.cpu = r->cpu;
	sb_machine_description(r->res.cpu_desc, sizeof(r->res.cpu_desc));
	s->meta.shape = "htab";
	s->meta.name_suffix = "-htab";
	s->after_report = after_report;
	s->answer = htab_answer;
	s->meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	s->after_ctx = r;
	if (r->driver == SB_DRIVER_PERF_EVENT)
		s->meta.kernel_driver = r->driver_note[0] ? r->driver_note : "perf_event programs, run by page faults "
											   "(--driver=perf_event)";
	sb_session_add(s, &r->res, NULL);
	if (r->arms.n_first)
		sb_session_add(s, &r->res2, NULL);
}

/* The programs loaded, checked and measured on the run's core; the JIT
 * check's status, or the status the run failed with. */
static int run(struct htab_run *r, const struct sb_config *cfg, FILE *info)
{
	enum sb_kernel_status st = load_programs(r, &cfg->measure);
	if (st != SB_KERNEL_OK)
		return st;
	int with_private;
	enum sb_kernel_status jit_st = check_jit(r, cfg, info, &with_private);
	if (jit_st == SB_KERNEL_NO_JIT || jit_st == SB_KERNEL_NO_CAP || jit_st == SB_KERNEL_NO_TEST_RUN)
		return jit_st;
	if ((st = measure_programs(r, cfg, with_private, info)) != SB_KERNEL_OK)
		return st;
	if (sb_kernel_interrupted()) /* after the last block: still no results */
		return SB_KERNEL_INTERRUPTED;
	r->has_results = 1;
	return jit_st;
}

/* The command's measure step (command.h): the run started on --cpu's
 * core, then run. */
static int measure(const struct sb_config *cfg, void *ctx, struct sb_group *g, size_t n)
{
	(void)g, (void)n;
	struct htab_run *r = ctx;
	enum sb_kernel_status st = kernel_run_start(&cfg->measure, &r->cpu);
	if (st != SB_KERNEL_OK)
		return st;
	/* The JIT check and counters lines: above the full table (--table,
	 * --verbose), dropped with the summary alone, on stderr otherwise. */
	FILE *info = kernel_run_findings_stream(cfg, &r->quiet);
	return run(r, cfg, info);
}

static int ending_status(int measured, void *ctx)
{
	const struct htab_run *r = ctx;
	return sb_kernel_ending_status(r->has_results, measured);
}

static void cleanup(void *ctx)
{
	struct htab_run *r = ctx;
	if (r->quiet)
		fclose(r->quiet);
	r->quiet = NULL;
	unload_programs(r);
	sb_results_free(&r->res);
	sb_results_free(&r->res2);
}

static const struct sb_command htab_command = {
	.tool = "stubbench kernel",
	.measure = measure,
	.ending_status = ending_status,
	.report_final = report,
	.finish_status = sb_kernel_finish_status,
	.cleanup = cleanup,
};

enum sb_kernel_status sb_kernel_htab_run(const struct sb_config *cfg, const struct sb_kernel_run_options *opts)
{
	struct htab_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	r->driver_option = opts ? opts->driver : SB_KERNEL_DRIVER_AUTO;
	r->driver = r->driver_option == SB_DRIVER_PERF_EVENT ? SB_DRIVER_PERF_EVENT : SB_DRIVER_RAW_TP;
	int rc = sb_command_run(&htab_command, cfg, r);
	free(r);
	return (enum sb_kernel_status)rc;
}

/* kernel_run.c: `stubbench kernel`'s built-in shapes (kernel_run.h), the
 * kernel-side confirmation run, a command the session drives (command.h).
 * Its measure step loads the programs of
 * bench/bpf/private_stack_shapes.bpf.c once per batch size and load,
 * checks their JITed code against the twins (always), then for each shape
 * measures the kernel arms (BPF_PROG_TEST_RUN on one CPU, the empty driver
 * removed) and the twins (replica harness), interleaved like the replica
 * runs; its report (kernel_findings.c) has both and the side-by-side
 * deltas. Every program is unloaded on every way out; nothing is pinned. */
#include "kernel_run_state.h"

#include <stdlib.h>
#include <string.h>

#include "jit/dump.h"
#include "kernel/jit_check.h"
#include "variants/percpu.h"
#include "jit/placement.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "jit/return_thunks.h"
#include "session/command.h"
#include "session/session.h"
#include "kernel/signals.h"
#include "stubbench/timer.h"

static void release(struct kernel_run *r)
{
	kernel_run_unload(r);
	for (int c = 0; c < SB_MAX_COPIES; c++)
		for (int s = 0; s < SB_N_SHAPES; s++)
			for (int b = 0; b < SB_MAX_BATCHES; b++)
				sb_twin_placement_free(&r->placed[s][c][b]);
	for (int s = 0; s < SB_N_SHAPES; s++) {
		sb_results_free(&r->kres[s]);
		sb_results_free(&r->pres[s]);
		sb_results_free(&r->tres[s]);
	}
	free(r->verdicts);
	sb_block_table_free(&r->blocks);
	if (r->quiet_info)
		fclose(r->quiet_info);
	r->quiet_info = NULL;
	r->verdicts = NULL;
}

/* The dump's directory ready, the kernel part started on *cpu, and the
 * programs loaded with --driver's type (auto: raw_tp first). */
static enum sb_kernel_status start_and_load(struct kernel_run *r, int *cpu)
{
	char why[512];
	if (r->cfg.kernel.dump_dir && sb_jit_dump_prepare(r->cfg.kernel.dump_dir, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_USAGE;
	}
	enum sb_kernel_status st = kernel_run_start(&r->cfg.measure, cpu);
	if (st != SB_KERNEL_OK)
		return st;
	r->driver = r->driver_option != SB_KERNEL_DRIVER_AUTO ? (enum sb_kernel_driver)r->driver_option
							      : SB_DRIVER_RAW_TP;
	sb_session_progress("stubbench kernel", "loading the programs");
	return kernel_run_load(r, *cpu);
}

/* --driver=auto on a kernel that gives raw_tp programs no private stack
 * (the JIT check's status st) but perf_event programs one. */
static int perf_event_instead(const struct kernel_run *r, enum sb_kernel_status st)
{
	return r->probed && kernel_run_perf_event_instead(st, r->driver_option, r->driver, &r->probe);
}

/* The programs again, as perf_event programs; where those are not to be
 * had (perf_event_open refused, say), back to raw_tp, measured in part.
 * Returns SB_KERNEL_OK or the status loading failed with. */
static enum sb_kernel_status reload_as_perf_event(struct kernel_run *r, int cpu)
{
	fprintf(sb_session_notes(&r->cfg), "stubbench kernel: loading the programs as perf_event programs instead, each run "
		"by a page fault (--driver=perf_event)\n");
	kernel_run_unload(r);
	r->driver = SB_DRIVER_PERF_EVENT;
	snprintf(r->driver_note, sizeof(r->driver_note), "%s", KERNEL_PERF_EVENT_NOTE);
	enum sb_kernel_status st = kernel_run_load(r, cpu);
	if (st == SB_KERNEL_OK)
		return st;
	fprintf(stderr, "stubbench kernel: back to raw_tp programs\n");
	kernel_run_unload(r);
	r->driver = SB_DRIVER_RAW_TP;
	r->driver_note[0] = 0;
	return kernel_run_load(r, cpu);
}

/* The JIT check of the loaded programs, made again on perf_event programs
 * where --driver=auto calls for them. Returns its status; *stop: nothing
 * can be measured (no JIT, or the programs could not be loaded again),
 * the run ends with the status. */
static enum sb_kernel_status check_programs(struct kernel_run *r, int cpu, FILE *info, int *stop)
{
	enum sb_kernel_status st = kernel_run_check_jit(r, info, stop);
	if (*stop || !perf_event_instead(r, st))
		return st;
	if ((st = reload_as_perf_event(r, cpu)) != SB_KERNEL_OK) {
		*stop = 1;
		return st;
	}
	return kernel_run_check_jit(r, info, stop);
}

/* Everything measured, after the JIT check ended with st: a mismatch, JIT
 * bytes we may not read, or no private stack still measure what can be
 * (the numbers still mean something), and the run exits with the status.
 * Sets r->has_results where the run has a report. */
static int measure_all(struct kernel_run *r, int cpu, enum sb_kernel_status st, FILE *info)
{
	const struct sb_config *cfg = &r->cfg;
	char why[512];
	int rc = st;
	kernel_run_aim_returns(r, info, &r->thunk);
	/* Placing the twins like the kernel needs the JIT's addresses and names. */
	int can_place = st != SB_KERNEL_NO_CAP;
	if (!can_place)
		fprintf(info, "placed twins: not measured (the JIT of this kernel cannot be read)\n");
	sb_kernel_fentry_available(why, sizeof(why));
	fprintf(info, "%s\n", why);
	if (sb_percpu_thread_init(why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	const struct sb_timer_info *ti = sb_timer_probe();
	if (cfg->out.verbose)
		fprintf(stderr, "stubbench kernel: timer %s: %s\n", sb_timer_kind_name(ti->kind), ti->reason);
	/* The page offset of a program's frame on the kernel's stack, as the
	 * driver of the measured programs runs it. */
	sb_stack_offset_probe_run(r->driver, cpu, &r->stack_probe);
	r->stack_probed = 1;
	sb_stack_probe_line(&r->stack_probe, why, sizeof(why));
	fprintf(info, "%s\n", why);
	sb_session_progress("stubbench kernel", "placing the twins");
	/* The shapes' three arm sets each (the kernel's, the aligned and the
	 * placed twins') share the time. */
	struct sb_config kcfg = *cfg;
	kcfg.measure.share_ways = 3 * (size_t)(r->plan.shapes[0] + r->plan.shapes[1]);
	struct sb_run_opts ro;
	sb_session_run_opts(&kcfg, &ro);
	ro.stop = sb_kernel_interrupted;
	ro.between_processes = sb_new_frames_between; /* the placed twins' frames */
	int mrc = kernel_run_measure(r, cpu, can_place, &ro, info);
	if (mrc != SB_KERNEL_OK)
		return mrc;
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench kernel: private stack guard words of the twins were overwritten\n");
		rc = SB_KERNEL_FAILED;
	}
	/* Interrupted after the last measurement: still no results. */
	if (sb_kernel_interrupted())
		return SB_KERNEL_INTERRUPTED;
	r->has_results = 1;
	return rc;
}

/* The command's measure step (command.h): the programs loaded, checked
 * and measured with the session's configuration cfg. */
static int measure(const struct sb_config *cfg, void *ctx, struct sb_group *g, size_t n)
{
	(void)g, (void)n;
	struct kernel_run *r = ctx;
	r->cfg = *cfg;
	int cpu;
	enum sb_kernel_status st = start_and_load(r, &cpu);
	if (st != SB_KERNEL_OK)
		return st;
	/* What the run finds before it measures: above the table with --table
	 * or --verbose; with the summary alone, kept for JSON only (a mismatch
	 * still says so on stderr); on stderr in the other formats. */
	FILE *info = kernel_run_findings_stream(&r->cfg, &r->quiet_info);
	int stop;
	st = check_programs(r, cpu, info, &stop);
	if (stop)
		return st;
	if (st == SB_KERNEL_NO_PRIV_STACK)
		fprintf(sb_session_notes(&r->cfg), "stubbench kernel: measuring the rest: the baseline programs against their twins, "
			"and every twin (exit status 6: measured in part)\n");
	return measure_all(r, cpu, st, info);
}

static int ending_status(int measured, void *ctx)
{
	const struct kernel_run *r = ctx;
	return sb_kernel_ending_status(r->has_results, measured);
}

static void report(struct sb_session *s, struct sb_group *g, size_t n, void *ctx, int rc)
{
	(void)g, (void)n, (void)rc;
	kernel_run_report(s, ctx);
}

static void cleanup(void *ctx)
{
	release(ctx);
}

static const struct sb_command shapes_command = {
	.tool = "stubbench kernel",
	.measure = measure,
	.ending_status = ending_status,
	.report_final = report,
	.finish_status = sb_kernel_finish_status,
	.cleanup = cleanup,
};

/* The built-in shapes of plan. */
static enum sb_kernel_status run_shapes(const struct sb_config *cfg, const struct sb_kernel_plan *plan,
					const struct sb_kernel_run_options *opts)
{
	struct kernel_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	r->plan = *plan;
	for (int s = 0; s < SB_N_SHAPES; s++)
		r->placed_frame[s] = -1;
	r->driver_option = opts ? opts->driver : SB_KERNEL_DRIVER_AUTO;
	int rc = sb_command_run(&shapes_command, cfg, r);
	free(r);
	return sb_kernel_interrupted_or(rc);
}

enum sb_kernel_status sb_kernel_run(const struct sb_config *cfg, const struct sb_kernel_run_options *opts)
{
	struct sb_kernel_plan plan;
	char err[256];
	if (sb_kernel_plan_shape(&plan, cfg->measure.shape, err, sizeof(err)) != 0 ||
	    sb_kernel_plan_variants(&plan, cfg->measure.variants, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", err);
		return SB_KERNEL_USAGE;
	}
	if (plan.htab)
		return sb_kernel_interrupted_or(sb_kernel_htab_run(cfg, opts));
	return run_shapes(cfg, &plan, opts);
}

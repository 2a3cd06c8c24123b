/* kernel_obj_run.c: `stubbench kernel --obj=FILE --prog=NAME,...`: a
 * user's BPF object measured like the project's own programs, a command
 * the session drives (command.h). Its measure step loads the object
 * --loads times per batch size (batch_iters set before load when the
 * object has it), runs its programs with BPF_PROG_TEST_RUN, interleaved,
 * the test-run cost of an empty raw_tp program removed, with the JIT of
 * each program read back (kernel_obj_jit.c), the kernel's own A/B
 * (kernel_obj_syscall.c) and the auto-twins (kernel_obj_private.c) beside
 * them, then the twins' private stacks; see kernel_obj_run.h. */
#include "kernel_commands/kernel_obj_run.h"
#include "base/error.h"
#include "kernel_commands/kernel_obj_run.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel_obj.h"

#include "output/json_doc.h"
#include "answer/kernel_obj_answer.h"
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "output/json_doc.h"
#include "answer/kernel_obj_answer.h"
#include "kernel/private_stack_probe.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "output/text_grid.h"
#include "session/budget.h"
#include "session/command.h"
#include "kernel/signals.h"
#include "kernel_commands/kernel_run.h"
#include "stubbench/timer.h"
#include "output/reporter.h"

/* The loads of --prog's programs, their empty drivers and spacers
 * unloaded, and what their JIT check found forgotten. */
static void unload_copies(struct sb_obj_run *r)
{
	for (size_t i = 0; i < r->n_objs; i++)
		sb_user_obj_unload(r->objs[i]);
	r->n_objs = 0;
	for (size_t i = 0; i < SB_KERNEL_MAX_LOADS; i++) {
		sb_kernel_unload(r->empty[i]);
		r->empty[i] = NULL;
	}
	for (size_t i = 0; i < r->n_spacers; i++)
		close(r->spacers[i]);
	r->n_spacers = 0;
	sb_doc_free(r->jit_doc);
	r->jit_doc = NULL;
	r->n_private_progs = 0;
	r->no_priv_what[0] = r->not_measured[0] = 0;
}

static void release(struct sb_obj_run *r)
{
	unload_copies(r);
	for (size_t i = 0; i < r->n_sys; i++)
		sb_user_obj_unload(r->sys[i]);
	for (size_t i = 0; i < SB_KERNEL_MAX_LOADS; i++)
		if (r->empty_sys_fds[i] > 0)
			close(r->empty_sys_fds[i]);
	for (size_t i = 0; i < SB_KERNEL_MAX_LOADS; i++)
		if (r->sc_empty_fds[i] > 0)
			close(r->sc_empty_fds[i]);
	sb_results_free(&r->res);
	sb_results_free(&r->sres);
	sb_results_free(&r->scres);
	sb_obj_private_free(r);
}

/* The run's batch sizes: the command's where the object has batch_iters,
 * else one "batch" of one run (a run's work is fixed). */
static void take_batches(struct sb_obj_run *r)
{
	const struct sb_config *cfg = r->cfg;
	if (r->has_batch_iters) {
		memcpy(r->batches, cfg->measure.batches, cfg->measure.n_batches * sizeof(*cfg->measure.batches));
		r->n_batches = cfg->measure.n_batches;
	} else {
		r->batches[0] = 1;
		r->n_batches = 1;
	}
}

/* The object loaded --loads times per batch size, each after a spacer, and
 * the empty driver once per load. Returns SB_KERNEL_OK, or a status said
 * on stderr. */
static enum sb_kernel_status load_copies(struct sb_obj_run *r, FILE *info)
{
	const struct sb_config *cfg = r->cfg;
	char why[1024];
	enum sb_kernel_status st;
	r->n_loads = cfg->kernel.loads ? (size_t)cfg->kernel.loads : 1;
	sb_rng_seed(&r->spacer_rng, sb_seed_stream(cfg->measure.seed, SB_SEED_SPACER, 0));
	for (size_t b = 0; b < r->n_loads * r->n_batches; b++) {
		if (sb_obj_spacer(r, why, sizeof(why)) != 0) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return SB_KERNEL_FAILED;
		}
		uint32_t batch = (uint32_t)r->batches[b % r->n_batches];
		r->objs[b] = r->driver == SB_DRIVER_PERF_EVENT
				     ? sb_user_obj_load_as_perf_event(cfg->kernel.obj, batch, (const char *const *)cfg->kernel.progs,
								      cfg->kernel.n_progs, &st, why, sizeof(why))
				     : sb_user_obj_load(cfg->kernel.obj, batch, &st, why, sizeof(why));
		if (!r->objs[b]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->n_objs++;
	}
	fprintf(info, "loads: %s %zu time%s per batch size, each after a spacer, a block running one (--loads)\n",
		cfg->kernel.obj, r->n_loads, r->n_loads == 1 ? "" : "s");
	for (size_t l = 0; l < r->n_loads; l++) {
		r->empty[l] = sb_kernel_load_as(1, 0, r->driver, &st, why, sizeof(why));
		if (!r->empty[l]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->empty_fds[l] = sb_kernel_empty_fd(r->empty[l]);
	}
	return SB_KERNEL_OK;
}

/* One run of the empty driver: 0, or -errno. */
static int try_empty(const struct sb_obj_run *r, int cpu)
{
	uint64_t runs = 0;
	int rc;
	if (r->driver == SB_DRIVER_RAW_TP)
		return sb_kernel_test_run(r->empty_fds[0], cpu);
	sb_bpf_run_timed(r->driver, r->empty_fds[0], cpu, NULL, NULL, &runs, &rc);
	return rc;
}

/* load_copies, then one run of the empty driver to see the kernel runs
 * it on cpu. Returns SB_KERNEL_OK, or a status said on stderr. */
static enum sb_kernel_status load_copies_and_try(struct sb_obj_run *r, int cpu, FILE *info)
{
	enum sb_kernel_status st = load_copies(r, info);
	if (st != SB_KERNEL_OK)
		return st;
	int trc = try_empty(r, cpu);
	if (trc != 0) {
		fprintf(stderr, "stubbench kernel: %s of an empty %s program refused on CPU %d: %s\n",
			r->driver == SB_DRIVER_RAW_TP ? "BPF_PROG_TEST_RUN" : "a run by a page fault",
			sb_kernel_driver_name(r->driver), cpu, sb_errno_cause(-trc));
		return SB_KERNEL_NO_TEST_RUN;
	}
	return SB_KERNEL_OK;
}

/* The object (checked already) loaded --loads times per batch size
 * (batch_iters set), each load at code addresses of its own, the empty
 * driver loaded and test-run on the CPU (*cpu_out). Returns SB_KERNEL_OK,
 * or a status said on stderr. */
static enum sb_kernel_status load_all(struct sb_obj_run *r, int *cpu_out, FILE *info)
{
	const struct sb_config *cfg = r->cfg;
	char why[1024];
	int cpu;
	enum sb_kernel_status st = sb_kernel_start(cfg->measure.cpu, &cpu, why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return st;
	}
	*cpu_out = cpu;
	if (!r->has_batch_iters)
		fprintf(info, "%s has no batch_iters global: one batch, a run is an iteration\n", cfg->kernel.obj);
	return load_copies_and_try(r, cpu, info);
}

/* The JIT first, into r->jit_doc: its dumps are written even for
 * programs that BPF_PROG_TEST_RUN then refuses. *rc: SB_KERNEL_OK,
 * SB_KERNEL_FAILED (a JIT not read) or SB_KERNEL_NO_PRIV_STACK (a function
 * with the stack for a private stack, and none in any program: why said in
 * one line, the rest measured). Returns 0, or -1 out of memory (said). */
static int check_jit(struct sb_obj_run *r, FILE *info, enum sb_kernel_status *rc)
{
	r->jit_doc = sb_doc_new();
	*rc = sb_obj_check_jit(r, info, r->jit_doc) == 0 ? SB_KERNEL_OK : SB_KERNEL_FAILED;
	if (sb_doc_failed(r->jit_doc)) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return -1;
	}
	return 0;
}

/* The type of --prog's first program as loaded ("raw_tp", "xdp"). */
static const char *first_type(const struct sb_obj_run *r)
{
	struct bpf_prog_info pi;
	__u32 len = sizeof(pi);
	memset(&pi, 0, sizeof(pi));
	int fd = sb_user_obj_prog_fd(r->objs[0], r->cfg->kernel.progs[0]);
	const char *t = fd >= 0 && bpf_obj_get_info_by_fd(fd, &pi, &len) == 0 ? libbpf_bpf_prog_type_str(pi.type) : NULL;
	return t ? t : "their type of";
}

/* --driver=auto where no program got a private stack though a function
 * has the stack for one: the probe says whether perf_event programs get
 * one, and there the programs are loaded again as perf_event programs,
 * said in one line (back to their own type, said too, where the verifier
 * refuses them as such). Returns 0, or -1 (said on stderr): no copies
 * loaded, the run ends with *st. */
static int perf_event_instead(struct sb_obj_run *r, int cpu, FILE *info, enum sb_kernel_status *rc,
			      enum sb_kernel_status *st)
{
	struct sb_private_stack_probe probe;
	char err[256];
	if (r->driver_option != SB_KERNEL_DRIVER_AUTO || r->driver != SB_DRIVER_RAW_TP || r->n_private_progs ||
	    !r->no_priv_what[0] || sb_private_stack_probe_run(&probe, err, sizeof(err)) != 0 ||
	    sb_private_stack_probe_type_gets(&probe, SB_PROBE_PERF_EVENT) != 1)
		return 0;
	char type[64];
	snprintf(type, sizeof(type), "%s", first_type(r));
	fprintf(stderr, "stubbench kernel: loading --prog's programs as perf_event programs instead, each run by a "
		"page fault (--driver=perf_event): this kernel gives %s programs no private stack\n", type);
	snprintf(r->driver_note, sizeof(r->driver_note), "perf_event programs, run by page faults: this kernel "
		 "gives %s programs no private stack", type);
	unload_copies(r);
	r->driver = SB_DRIVER_PERF_EVENT;
	*st = load_copies_and_try(r, cpu, info);
	if (*st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: back to %s programs\n", type);
		unload_copies(r);
		r->driver = SB_DRIVER_RAW_TP;
		r->driver_note[0] = 0;
		if ((*st = load_copies_and_try(r, cpu, info)) != SB_KERNEL_OK)
			return -1;
	}
	*st = SB_KERNEL_OK;
	return check_jit(r, info, rc);
}

static int read_jit(struct sb_obj_run *r, int cpu, FILE *info, enum sb_kernel_status *rc, enum sb_kernel_status *st)
{
	if (check_jit(r, info, rc) != 0 || perf_event_instead(r, cpu, info, rc, st) != 0)
		return -1;
	if (!r->n_private_progs && r->no_priv_what[0]) {
		struct sb_private_stack_probe probe;
		int probed = sb_kernel_say_no_private_stack(r->no_priv_what, info, sb_session_notes(r->cfg), &probe);
		sb_kernel_not_measured_as("the private stack's cost", probed ? &probe : NULL, r->not_measured,
					  sizeof(r->not_measured));
		if (*rc == SB_KERNEL_OK)
			*rc = SB_KERNEL_NO_PRIV_STACK;
	}
	/* Said only when every dump was written. */
	if (r->cfg->kernel.dump_dir && !r->dump_failed)
		fprintf(info, "jit: dumps written to %s\n", r->cfg->kernel.dump_dir);
	return 0;
}

/* With perf_event: --prog's programs split by how they run (a syscall
 * program stays one, run with BPF_PROG_TEST_RUN in a part of its own with
 * an empty syscall program per load as its overhead). SB_KERNEL_OK, or a
 * status said on stderr. */
static enum sb_kernel_status split_programs(struct sb_obj_run *r)
{
	const struct sb_config *cfg = r->cfg;
	if (r->driver != SB_DRIVER_PERF_EVENT)
		return SB_KERNEL_OK;
	for (size_t i = 0; i < cfg->kernel.n_progs; i++) {
		struct bpf_prog_info pi;
		__u32 len = sizeof(pi);
		memset(&pi, 0, sizeof(pi));
		int fd = sb_user_obj_prog_fd(r->objs[0], cfg->kernel.progs[i]);
		int sc = fd >= 0 && bpf_obj_get_info_by_fd(fd, &pi, &len) == 0 && pi.type == BPF_PROG_TYPE_SYSCALL;
		if (sc)
			r->sc_progs[r->n_sc_progs++] = cfg->kernel.progs[i];
		else
			r->pf_progs[r->n_pf_progs++] = cfg->kernel.progs[i];
	}
	char why[512];
	for (size_t l = 0; r->n_sc_progs && l < r->n_loads; l++)
		if ((r->sc_empty_fds[l] = sb_user_obj_empty_syscall(why, sizeof(why))) < 0) {
			r->sc_empty_fds[l] = 0;
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return SB_KERNEL_FAILED;
		}
	if (r->n_sc_progs)
		fprintf(stderr, "stubbench kernel: %s%s: syscall program%s, run with BPF_PROG_TEST_RUN in a part of "
			"%s own\n", r->sc_progs[0], r->n_sc_progs > 1 ? " and the other syscall programs" : "",
			r->n_sc_progs > 1 ? "s" : "", r->n_sc_progs > 1 ? "their" : "its");
	return SB_KERNEL_OK;
}

/* At the largest batch, one run each: a program whose run would hold the
 * measurement far past --time is refused before it starts. Returns
 * SB_KERNEL_OK, or a status said on stderr. */
static enum sb_kernel_status check_runs(const struct sb_obj_run *r, int cpu)
{
	const struct sb_config *cfg = r->cfg;
	char why[1024];
	size_t big = 0;
	for (size_t b = 1; b < r->n_batches; b++)
		if (r->batches[b] > r->batches[big])
			big = b;
	double max_run_s = sb_budget_longest_run_seconds(&cfg->measure);
	enum sb_kernel_status st;
	if (r->driver == SB_DRIVER_PERF_EVENT) {
		st = sb_user_obj_check_runs_as(r->objs[big], r->pf_progs, r->n_pf_progs, r->driver, cpu, max_run_s, why,
					       sizeof(why));
		if (st == SB_KERNEL_OK)
			st = sb_user_obj_check_runs(r->objs[big], r->sc_progs, r->n_sc_progs, cpu, max_run_s, why,
						    sizeof(why));
	} else {
		st = sb_user_obj_check_runs(r->objs[big], (const char *const *)cfg->kernel.progs, cfg->kernel.n_progs, cpu, max_run_s,
					    why, sizeof(why));
	}
	if (st != SB_KERNEL_OK)
		fprintf(stderr, "stubbench kernel: %s: %s\n", cfg->kernel.obj, why);
	return st;
}

/* r->run_cfg: the command's configuration with the run's batch sizes and
 * the programs measured as its variants, not the built-in ones. */
static void make_run_config(struct sb_obj_run *r)
{
	const struct sb_config *cfg = r->cfg;
	r->run_cfg = *cfg;
	memcpy(r->run_cfg.measure.batches, r->batches, r->n_batches * sizeof(*r->batches));
	r->run_cfg.measure.n_batches = r->n_batches;
	r->progs[0] = '\0';
	for (size_t i = 0; i < cfg->kernel.n_progs; i++)
		snprintf(r->progs + strlen(r->progs), sizeof(r->progs) - strlen(r->progs), "%s%s", i ? "," : "",
			 cfg->kernel.progs[i]);
	r->run_cfg.measure.variants = r->progs;
}

/* The kernel's runs of the programs, their syscall copies and the placed
 * twins, interleaved; with twins of a private stack (n_private) in half
 * of --time (--time bounds the process's age: wall_clock.h), the twins
 * against their de-privatized selves taking the rest. Returns
 * SB_KERNEL_OK, or a status said on stderr. */
static enum sb_kernel_status measure_kernel(struct sb_obj_run *r, size_t n_private)
{
	char why[1024];
	struct sb_config kcfg = r->run_cfg;
	kcfg.measure.share = n_private ? SB_SHARE_OBJ_KERNEL : SB_SHARE_ALL;
	struct sb_run_opts ro = {0};
	/* The twins run code read from the object: contained (a child of
	 * their own); the kernel's runs, which call bpf(), stay here. */
	struct sb_run_opts tro = {0};
	struct sb_arm_set parts[4] = {{.arms = r->arms.arms, .n_arms = r->arms.n, .opts = &ro, .out = &r->res}};
	size_t n_parts = 1;
	if (r->sc_arms.n)
		parts[n_parts++] = (struct sb_arm_set){.arms = r->sc_arms.arms, .n_arms = r->sc_arms.n, .opts = &ro,
							.out = &r->scres};
	if (r->has_ab)
		parts[n_parts++] = (struct sb_arm_set){.arms = r->sys_arms.arms, .n_arms = r->sys_arms.n, .opts = &ro,
							.out = &r->sres};
	sb_obj_private_add_part(r, parts, &n_parts, &tro);
	/* The parts share the time: a part's time_s is its share (schedule.c). */
	kcfg.measure.share_ways = n_parts;
	sb_session_run_opts(&kcfg, &ro);
	ro.processes = 1; /* the programs' counters are read in this process */
	tro = ro;
	tro.contain = 1;
	if (sb_run_arm_sets(parts, n_parts, why, sizeof(why)) == 0)
		return SB_KERNEL_OK;
	if (sb_kernel_interrupted())
		return SB_KERNEL_INTERRUPTED;
	for (size_t i = 0; i < r->arms.n; i++)
		if (r->arms.ctx[i].last_error)
			snprintf(why, sizeof(why), "BPF_PROG_TEST_RUN of %s failed: %s",
				 r->arms.ctx[i].prog ? r->arms.ctx[i].prog : "the empty driver",
				 sb_errno_cause(-r->arms.ctx[i].last_error));
	fprintf(stderr, "stubbench kernel: %s: measurement failed: %s\n", r->cfg->kernel.obj, why);
	return SB_KERNEL_FAILED;
}

/* The programs' arms, the kernel's own A/B and the auto-twins, then the
 * measurement: the kernel's runs, then the twins' private stacks (a
 * failure there sets *twins_failed: the run still reports). Returns
 * SB_KERNEL_OK, or a status said on stderr. */
static enum sb_kernel_status measure_programs(struct sb_obj_run *r, int cpu, FILE *info, int *twins_failed)
{
	const struct sb_config *cfg = r->cfg;
	if (r->driver == SB_DRIVER_PERF_EVENT) {
		sb_user_arms_build(&r->arms, r->objs, r->n_loads, r->batches, r->n_batches, r->pf_progs, r->n_pf_progs,
				   r->empty_fds, cpu);
		sb_user_arms_set_driver(&r->arms, r->driver);
		if (r->n_sc_progs)
			sb_user_arms_build(&r->sc_arms, r->objs, r->n_loads, r->batches, r->n_batches, r->sc_progs,
					   r->n_sc_progs, r->sc_empty_fds, cpu);
	} else {
		sb_user_arms_build(&r->arms, r->objs, r->n_loads, r->batches, r->n_batches,
				   (const char *const *)cfg->kernel.progs, cfg->kernel.n_progs, r->empty_fds, cpu);
	}
	r->has_ab = sb_obj_load_syscall_copies(r, cpu, info);
	if (r->has_ab)
		sb_user_arms_build_syscall(&r->sys_arms, r->sys, r->n_loads, r->batches, r->n_batches,
					   r->private_progs, r->n_private_progs, r->empty_sys_fds, cpu);
	sb_timer_probe();
	size_t n_private = sb_obj_private_make(r, info);
	enum sb_kernel_status st = measure_kernel(r, n_private);
	if (st != SB_KERNEL_OK)
		return st;
	*twins_failed = sb_obj_private_measure(r, &r->run_cfg, info) != 0;
	return SB_KERNEL_OK;
}

/* The command's report (command.h): the programs' results, the syscall
 * copies, the twins' sections, the JSON member "user_object" and the
 * summary (kernel_obj_answer.h). */
static void report(struct sb_session *s, struct sb_group *g, size_t n, void *ctx, int rc)
{
	(void)g, (void)n, (void)rc;
	struct sb_obj_run *r = ctx;
	sb_return_thunk_from_sysfs(&r->host);
	s->meta.thunk = &r->host;
	s->meta.tool = "stubbench kernel --obj";
	s->answer = sb_kernel_obj_answer;
	s->meta.members = sb_obj_members;
	s->meta.members_ctx = r;
	s->meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	if (r->driver == SB_DRIVER_PERF_EVENT)
		s->meta.kernel_driver = r->driver_note[0] ? r->driver_note
							  : "perf_event programs, run by page faults (--driver=perf_event)";
	s->after_report = sb_obj_after_report;
	s->after_ctx = r;
	sb_session_add(s, &r->res, NULL);
	if (r->sc_arms.n)
		sb_session_add(s, &r->scres, NULL);
	if (r->has_ab)
		sb_session_add_section(s, &r->sres, "syscall", "the programs with a private stack loaded as syscall "
				       "programs (none): the kernel's own A/B");
	sb_obj_private_sections(r, s);
}

/* The command's measure step (command.h), with the run's configuration
 * (r->run_cfg, the session's): the object loaded, its JIT read, its
 * programs measured, then its twins. The JIT check's status (a run
 * measured in part, or a JIT not read), or the status the run failed
 * with. */
static int measure(const struct sb_config *cfg, void *ctx, struct sb_group *g, size_t n)
{
	(void)cfg, (void)g, (void)n;
	struct sb_obj_run *r = ctx;
	int cpu = -1;
	/* What the run finds before it measures: above the full table
	 * (--table, --verbose); on stderr otherwise, so that the summary is
	 * the first thing on stdout. */
	FILE *info = sb_session_notes(r->cfg), *quiet = NULL;
	if (sb_format_is(r->cfg->out.format, SB_OUT_TEXT) && sb_session_full_report(&r->cfg->out)) {
		/* Within the table's width but with --verbose (text_grid.h). */
		quiet = r->cfg->out.verbose ? NULL : sb_fold_stream(stdout, SB_TABLE_MAX_COLUMNS);
		info = quiet ? quiet : stdout;
	}
	enum sb_kernel_status st = load_all(r, &cpu, info), rc = SB_KERNEL_OK;
	if (st == SB_KERNEL_OK && read_jit(r, cpu, info, &rc, &st) != 0 && st == SB_KERNEL_OK)
		st = SB_KERNEL_FAILED;
	if (st == SB_KERNEL_OK)
		st = split_programs(r);
	if (st == SB_KERNEL_OK)
		st = check_runs(r, cpu);
	if (st == SB_KERNEL_OK)
		st = measure_programs(r, cpu, info, &r->twins_failed);
	if (quiet) /* the folded lines written before the report */
		fclose(quiet);
	r->has_results = st == SB_KERNEL_OK;
	return st == SB_KERNEL_OK ? rc : st;
}

/* A failed measurement of the twins is reported, as a failure, where the
 * run had no error and was not measured in part. */
static int ending_status(int measured, void *ctx)
{
	const struct sb_obj_run *r = ctx;
	int ending = sb_kernel_ending_status(r->has_results, measured);
	return ending == 0 ? r->twins_failed : ending;
}

static void cleanup(void *ctx)
{
	release(ctx);
}

static const struct sb_command obj_command = {
	.tool = "stubbench kernel",
	.measure = measure,
	.ending_status = ending_status,
	.report_final = report,
	.finish_status = sb_kernel_finish_status,
	.cleanup = cleanup,
};

enum sb_kernel_status sb_kernel_obj_run(const struct sb_config *cfg, int driver)
{
	struct sb_obj_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	r->cfg = cfg;
	r->driver_option = driver;
	r->driver = driver == SB_DRIVER_PERF_EVENT ? SB_DRIVER_PERF_EVENT : SB_DRIVER_RAW_TP;
	/* The object and its programs checked before the run, which measures
	 * with the object's batch sizes and its programs as its variants. */
	char why[1024];
	int rc = SB_KERNEL_USAGE;
	if (sb_user_obj_check(cfg->kernel.obj, (const char *const *)cfg->kernel.progs, cfg->kernel.n_progs, &r->has_batch_iters, why,
			      sizeof(why)) == 0) {
		take_batches(r);
		make_run_config(r);
		rc = sb_command_run(&obj_command, &r->run_cfg, r);
	} else {
		fprintf(stderr, "stubbench kernel: %s\n", why);
	}
	free(r);
	return (enum sb_kernel_status)rc;
}

/* gbench_variants.c: every variant x batch under Google Benchmark; see
 * gbench_variants.h. */
#include "gbench/gbench_variants.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gbench_out.h"
#include "gbench/gbench_shim.h"
#include "harness/harness.h"
#include "variants/percpu.h"
#include "counters/perf_counters.h"
#include "harness/pin.h"
#include "stubbench/registry.h"
#include "base/safe_file.h"
#include "stubbench/timer.h"

#define TOOL "stubbench-gbench"

/* The core clock calibration: the fastest of CALIBRATION_RUNS runs of
 * CALIBRATION_BLOCKS x 64 dependent adds (an interruption only adds ticks,
 * so the most cycles per tick is the least disturbed run). */
#define CALIBRATION_BLOCKS 4096
#define CALIBRATION_RUNS 7

/* One benchmark: a variant at a batch. */
struct bench_case {
	const struct sb_variant *variant;
	uint64_t batch;
};

static double tsc_hz;
static struct sb_counter_set *counter_set; /* NULL without --counters */

/* One undisturbed sample if it can be had: its ticks, or UINT64_MAX. */
static uint64_t sample(const struct bench_case *c, uint64_t *calls, uint64_t *reruns, uint64_t *kept)
{
	for (int attempt = 0;; attempt++) {
		long csw = sb_context_switches();
		if (counter_set)
			sb_counters_before_sample(counter_set, 0, 0);
		uint64_t t = sb_time_variant(c->variant, c->batch);
		if (counter_set)
			sb_counters_after_sample(counter_set, 0, 0);
		*calls += c->batch;
		if (t == UINT64_MAX || sb_context_switches() == csw)
			return t;
		if (attempt == SB_GBENCH_MAX_RERUNS) {
			(*kept)++;
			return t;
		}
		(*reruns)++;
	}
}

/* Core cycles per TSC tick: the calibration's least disturbed run. */
static double core_per_tick(void)
{
	return sb_core_cycles_per_tick_best(CALIBRATION_RUNS, CALIBRATION_BLOCKS);
}

/* The counters of a benchmark that took ticks over its kept samples. */
static void set_counters(struct sb_gbench_state *st, const struct bench_case *c, double ticks, uint64_t reruns,
			 uint64_t kept)
{
	double per_tick = core_per_tick();
	/* The calls of the kept samples: one batch per benchmark iteration. */
	uint64_t kept_calls = sb_gbench_iterations(st) * c->batch;
	double tsc_per_call = kept_calls ? ticks / (double)kept_calls : 0;
	sb_gbench_set_counter(st, "tsc_cycles_per_call", tsc_per_call, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_cycles_per_call", tsc_per_call * per_tick, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_ghz", per_tick * tsc_hz / 1e9, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "disturbed_reruns", (double)reruns, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "disturbed_kept", (double)kept, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_items_processed(st, (int64_t)kept_calls);
	double per_call[SB_MAX_COUNTERS];
	size_t n = counter_set ? sb_counters_cell(counter_set, 0, 0, per_call, SB_MAX_COUNTERS) : 0;
	for (size_t i = 0; i < n && i < SB_MAX_COUNTERS; i++) {
		char name[SB_COUNTER_NAME_MAX + 16];
		snprintf(name, sizeof(name), "%s_per_call", sb_counters_name(counter_set, i));
		sb_gbench_set_counter(st, name, per_call[i], SB_GBENCH_COUNTER_DEFAULT);
	}
}

/* The benchmark function of every case (ctx): the samples, the check of
 * the variant's counter, the counters. */
static void bench_variant(struct sb_gbench_state *st, void *ctx)
{
	const struct bench_case *c = ctx;
	uint64_t hits_before = *c->variant->counter, calls = 0, reruns = 0, kept = 0;
	double ticks = 0;
	char err[160];
	/* One cell (arm 0, batch 0) per run: binding again starts it empty. */
	struct sb_arm arm = {.name = c->variant->name, .seed_name = c->variant->seed_name};
	if (counter_set && sb_counters_bind(counter_set, &arm, 1, &c->batch, 1, err, sizeof(err))) {
		sb_gbench_skip_with_error(st, err);
		return;
	}
	while (sb_gbench_keep_running(st)) {
		uint64_t t = sample(c, &calls, &reruns, &kept);
		if (t == UINT64_MAX) {
			sb_gbench_skip_with_error(st, "the timed loop failed");
			return;
		}
		ticks += (double)t;
		sb_gbench_set_iteration_time(st, (double)t / tsc_hz);
	}
	uint64_t hits = *c->variant->counter - hits_before;
	if (hits != calls) {
		char msg[160];
		snprintf(msg, sizeof(msg), "%s: the stub counted %llu calls, the loop made %llu",
			 c->variant->name, (unsigned long long)hits, (unsigned long long)calls);
		sb_gbench_skip_with_error(st, msg);
		return;
	}
	set_counters(st, c, ticks, reruns, kept);
}

/* The library's flags checked and handed to it (gbench_out.h). Returns 0,
 * or a status after one line. */
static int start_library(int n_flags, char **flags)
{
	char err[SB_SAFE_FILE_PATH_MAX + 300];
	int argc;
	char **argv = sb_gbench_out_argv(n_flags, flags, &argc, err, sizeof(err));
	if (!argv) {
		fprintf(stderr, TOOL ": %s\n", err);
		return strstr(err, "out of memory") ? SB_STATUS_FAILED : SB_STATUS_USAGE;
	}
	int rc = sb_gbench_init(&argc, argv, err, sizeof(err)) ? SB_STATUS_USAGE : SB_STATUS_OK;
	if (rc)
		fprintf(stderr, TOOL ": %s\n", err);
	free(argv);
	return rc;
}

/* The thread pinned to cfg->measure.cpu (named in the library's context), its
 * private stacks, the TSC's frequency, cfg->measure.counters opened. Returns 0, or
 * a status after one line. */
static int set_up(const struct sb_measure_config *cfg)
{
	char err[SB_SAFE_FILE_PATH_MAX + 300];
	int cpu;
	/* libbenchmark runs a single-threaded benchmark on the calling thread. */
	if (sb_pin_thread(cfg->cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	char cpu_text[16];
	snprintf(cpu_text, sizeof(cpu_text), "%d", cpu);
	sb_gbench_add_context("stubbench_cpu", cpu_text);
	if (sb_percpu_thread_init(err, sizeof(err))) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_FAILED;
	}
	tsc_hz = sb_timer_probe()->facts.tsc_hz;
	if (!(tsc_hz > 0)) {
		fprintf(stderr, TOOL ": the TSC frequency could not be measured\n");
		return SB_STATUS_FAILED;
	}
	if (cfg->counters) {
		counter_set = sb_counters_open(cfg->counters, err, sizeof(err));
		if (!counter_set) {
			fprintf(stderr, TOOL ": %s\n", err);
			return SB_STATUS_USAGE;
		}
		if (sb_counters_note(counter_set))
			fprintf(stderr, TOOL ": %s\n", sb_counters_note(counter_set));
	}
	return 0;
}

/* A benchmark for every variant at every batch of cfg, registered with the
 * library. Returns the cases (free them after the run), or NULL after one
 * line. */
static struct bench_case *register_cases(const struct sb_measure_config *cfg)
{
	size_t n_variants = sb_variant_count();
	struct bench_case *cases = calloc(n_variants * cfg->n_batches, sizeof(*cases));
	if (!cases) {
		fprintf(stderr, TOOL ": out of memory\n");
		return NULL;
	}
	for (size_t i = 0; i < n_variants; i++) {
		for (size_t b = 0; b < cfg->n_batches; b++) {
			struct bench_case *c = &cases[i * cfg->n_batches + b];
			c->variant = sb_variant_at(i);
			c->batch = cfg->batches[b];
			struct sb_gbench_opts o = {
				.arg = (int64_t)cfg->batches[b],
				.has_arg = 1,
				.arg_name = "batch",
				.manual_time = 1,
			};
			if (sb_gbench_register(c->variant->name, bench_variant, c, &o)) {
				fprintf(stderr, TOOL ": cannot register %s\n", c->variant->name);
				free(cases);
				return NULL;
			}
		}
	}
	return cases;
}

/* The benchmarks set up, run and checked. */
static int measure(const struct sb_config *cfg, int n_flags, char **flags)
{
	int rc = start_library(n_flags, flags);
	if (rc == 0)
		rc = set_up(&cfg->measure);
	if (rc)
		return rc;
	struct bench_case *cases = register_cases(&cfg->measure);
	if (!cases)
		return SB_STATUS_FAILED;
	if (sb_gbench_run() == 0) { /* the library said which filter matched nothing */
		fprintf(stderr, TOOL ": no benchmark ran\n");
		rc = SB_STATUS_USAGE;
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, TOOL ": private stack guard words were overwritten\n");
		rc = SB_STATUS_FAILED;
	}
	sb_percpu_thread_fini();
	sb_counters_close(counter_set);
	free(cases);
	return rc;
}

char **sb_gbench_default_flags(int n_flags, char **flags, int *n_out)
{
	int filtered = 0, timed = 0;
	for (int i = 0; i < n_flags; i++) {
		filtered |= strncmp(flags[i], "--benchmark_filter=", 19) == 0;
		timed |= strncmp(flags[i], "--benchmark_min_time=", 21) == 0;
	}
	char **with = calloc((size_t)n_flags + 3, sizeof(*with));
	if (!with)
		return NULL;
	static char default_filter[] = "--benchmark_filter=" SB_GBENCH_DEFAULT_FILTER;
	static char default_min_time[] = "--benchmark_min_time=" SB_GBENCH_DEFAULT_MIN_TIME;
	int n = 0;
	for (int i = 0; i < n_flags; i++)
		with[n++] = flags[i];
	if (!filtered)
		with[n++] = default_filter;
	if (!timed)
		with[n++] = default_min_time;
	*n_out = n;
	return with;
}

enum sb_status sb_gbench_measure_variants(const struct sb_config *cfg, int n_flags, char **flags)
{
	int n;
	char **with = sb_gbench_default_flags(n_flags, flags, &n);
	if (!with) {
		fprintf(stderr, TOOL ": out of memory\n");
		return SB_STATUS_FAILED;
	}
	enum sb_status rc = sb_gbench_out_finish(measure(cfg, n, with));
	free(with);
	return rc;
}

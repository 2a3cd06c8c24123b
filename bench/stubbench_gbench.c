/* stubbench-gbench: every variant x batch under Google Benchmark's harness.
 *
 * One benchmark per variant and batch, named "<variant>/batch:<batch>", to
 * which the library adds "/manual_time" (baseline/batch:64/manual_time). Each benchmark iteration is one sample of the
 * stubbench timed loop (sb_time_variant: batch main-prog calls between two
 * TSC reads); the library's time is that TSC time (manual time), and the
 * counters are per main-prog call:
 *   tsc_cycles_per_call   TSC ticks per call
 *   core_cycles_per_call  the same in core cycles, converted with the
 *                         dependent-add calibration run after the samples
 *                         (the fastest of 7 short runs)
 *   core_ghz              that calibration's core clock
 *   items_per_second      main-prog calls per second
 * The figures are raw: they include the timed loop's call/dec/jnz and, at
 * small batches, the timer reads; stubbench itself subtracts those.
 *
 * Every --benchmark_* flag works; --batches=LIST replaces the default
 * batches 1,8,64,512,2048,4096. --counters=LIST (perf_counters.h) adds
 * "<event>_per_call" counters read with perf_event_open around every sample
 * (libbenchmark's own perf counters do nothing in Debian's build).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/gbench_shim.h"
#include "stubbench/interrupt.h"
#include "stubbench/output.h"
#include "stubbench/parse.h"
#include "stubbench/percpu.h"
#include "stubbench/perf_counters.h"
#include "stubbench/timer.h"
#include "stubbench/variants.h"

#define EXIT_USAGE 2
#define MAX_BATCHES SB_MAX_BATCHES
/* The core clock calibration: the fastest of CALIBRATION_RUNS runs of
 * CALIBRATION_BLOCKS x 64 dependent adds (an interruption only adds ticks,
 * so the most cycles per tick is the least disturbed run). */
#define CALIBRATION_BLOCKS 4096
#define CALIBRATION_RUNS 7

struct bench_case {
	const struct sb_variant *variant;
	uint64_t batch;
};

static double tsc_hz;
static struct sb_counter_set *counter_set; /* NULL without --counters */

static void bench_variant(struct sb_gbench_state *st, void *ctx)
{
	const struct bench_case *c = ctx;
	uint64_t hits_before = *c->variant->counter;
	double ticks = 0;
	char err[160];
	/* One cell (arm 0, batch 0) per run: binding again starts it empty. */
	struct sb_arm arm = {.name = c->variant->name, .seed_name = c->variant->seed_name};
	if (counter_set && sb_counters_bind(counter_set, &arm, 1, &c->batch, 1, err, sizeof(err))) {
		sb_gbench_skip_with_error(st, err);
		return;
	}
	while (sb_gbench_keep_running(st)) {
		if (counter_set)
			sb_counters_before_sample(counter_set, 0, 0);
		uint64_t t = sb_time_variant(c->variant, c->batch);
		if (counter_set)
			sb_counters_after_sample(counter_set, 0, 0);
		if (t == UINT64_MAX) {
			sb_gbench_skip_with_error(st, "the timed loop failed");
			return;
		}
		ticks += (double)t;
		sb_gbench_set_iteration_time(st, (double)t / tsc_hz);
	}
	uint64_t calls = sb_gbench_iterations(st) * c->batch;
	uint64_t hits = *c->variant->counter - hits_before;
	if (hits != calls) {
		char msg[160];
		snprintf(msg, sizeof(msg), "%s: the stub counted %llu calls, the loop made %llu",
			 c->variant->name, (unsigned long long)hits, (unsigned long long)calls);
		sb_gbench_skip_with_error(st, msg);
		return;
	}
	double core_per_tick = 0;
	for (int i = 0; i < CALIBRATION_RUNS; i++) {
		double r = sb_core_cycles_per_tick(CALIBRATION_BLOCKS);
		if (r > core_per_tick)
			core_per_tick = r;
	}
	double tsc_per_call = calls ? ticks / (double)calls : 0;
	sb_gbench_set_counter(st, "tsc_cycles_per_call", tsc_per_call, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_cycles_per_call", tsc_per_call * core_per_tick,
			      SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_ghz", core_per_tick * tsc_hz / 1e9,
			      SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_items_processed(st, (int64_t)calls);
	double per_call[SB_MAX_COUNTERS];
	size_t n = counter_set ? sb_counters_cell(counter_set, 0, 0, per_call, SB_MAX_COUNTERS) : 0;
	for (size_t i = 0; i < n && i < SB_MAX_COUNTERS; i++) {
		char name[SB_COUNTER_NAME_MAX + 16];
		snprintf(name, sizeof(name), "%s_per_call", sb_counters_name(counter_set, i));
		sb_gbench_set_counter(st, name, per_call[i], SB_GBENCH_COUNTER_DEFAULT);
	}
}

/* Parses "1,8,64" into batches (the shared parser: the same bounds as
 * stubbench's --batch); returns the count, or -1 with a message. */
static int parse_batches(const char *s, uint64_t *out)
{
	char err[512];
	size_t n;
	if (sb_parse_batches("--batches", s, out, &n, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return -1;
	}
	return (int)n;
}

/* Takes --batches=LIST and --counters=LIST out of argv; returns 0, or -1
 * on a bad list. */
static int take_own_flags(int *argc, char **argv, uint64_t *batches, size_t *n_batches,
			  const char **counters)
{
	int kept = 1;
	for (int i = 1; i < *argc; i++) {
		if (strncmp(argv[i], "--counters=", 11) == 0) {
			char names[SB_MAX_COUNTERS][SB_COUNTER_NAME_MAX], err[512];
			int n = sb_counters_parse(argv[i] + 11, names, SB_MAX_COUNTERS, err, sizeof(err));
			if (n <= 0) {
				if (n == 0)
					snprintf(err, sizeof(err), "--counters: '%s' names no event", argv[i] + 11);
				fprintf(stderr, "stubbench-gbench: %s\n", err);
				return -1;
			}
			*counters = argv[i] + 11;
			continue;
		}
		if (strncmp(argv[i], "--batches=", 10) == 0) {
			int n = parse_batches(argv[i] + 10, batches);
			if (n < 0)
				return -1;
			*n_batches = (size_t)n;
			continue;
		}
		argv[kept++] = argv[i];
	}
	argv[kept] = NULL;
	*argc = kept;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t batches[MAX_BATCHES] = {1, 8, 64, 512, 2048, 4096};
	size_t n_batches = 6;
	const char *counters = NULL;
	char err[512];

	sb_check_stdout_at_exit("stubbench-gbench");
	sb_exit_on_signals("stubbench-gbench");
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: stubbench-gbench [--batches=LIST] [--benchmark_* flags]\n"
			       "  one benchmark per variant x batch, \"<variant>/batch:<batch>\";\n"
			       "  counters per main-prog call: tsc_cycles_per_call, core_cycles_per_call\n"
			       "  --batches=LIST  batches (default 1,8,64,512,2048,4096)\n"
			       "  --counters=LIST perf events per call (cycles,instructions,branches,\n"
			       "                  task-clock,context-switches,cpu-migrations,...)\n"
			       "Google Benchmark's own flags follow.\n\n");
			break;
		}
	}
	if (take_own_flags(&argc, argv, batches, &n_batches, &counters))
		return EXIT_USAGE;
	if (sb_gbench_init(&argc, argv, err, sizeof(err))) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return EXIT_USAGE;
	}

	if (sb_percpu_thread_init(err, sizeof(err))) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return 1;
	}
	tsc_hz = sb_timer_probe()->facts.tsc_hz;
	if (!(tsc_hz > 0)) {
		fprintf(stderr, "stubbench-gbench: the TSC frequency could not be measured\n");
		return 1;
	}

	if (counters) {
		counter_set = sb_counters_open(counters, err, sizeof(err));
		if (!counter_set) {
			fprintf(stderr, "stubbench-gbench: %s\n", err);
			return EXIT_USAGE;
		}
		if (sb_counters_note(counter_set))
			fprintf(stderr, "stubbench-gbench: %s\n", sb_counters_note(counter_set));
	}

	size_t n_variants = sb_variant_count();
	struct bench_case *cases = calloc(n_variants * n_batches, sizeof(*cases));
	if (!cases) {
		fprintf(stderr, "stubbench-gbench: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < n_variants; i++) {
		for (size_t b = 0; b < n_batches; b++) {
			struct bench_case *c = &cases[i * n_batches + b];
			c->variant = sb_variant_at(i);
			c->batch = batches[b];
			struct sb_gbench_opts o = {
				.arg = (int64_t)batches[b],
				.has_arg = 1,
				.arg_name = "batch",
				.manual_time = 1,
			};
			if (sb_gbench_register(c->variant->name, bench_variant, c, &o)) {
				fprintf(stderr, "stubbench-gbench: cannot register %s\n", c->variant->name);
				return 1;
			}
		}
	}
	int rc = 0;
	if (sb_gbench_run() == 0) { /* the library said which filter matched nothing */
		fprintf(stderr, "stubbench-gbench: no benchmark ran\n");
		rc = EXIT_USAGE;
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench-gbench: private stack guard words were overwritten\n");
		rc = 1;
	}
	sb_percpu_thread_fini();
	sb_counters_close(counter_set);
	free(cases);
	return rc;
}

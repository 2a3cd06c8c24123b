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
 * batches 1,8,64,512,2048,4096.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/gbench_shim.h"
#include "stubbench/percpu.h"
#include "stubbench/timer.h"
#include "stubbench/variants.h"

#define EXIT_USAGE 2
#define MAX_BATCHES 32
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

static void bench_variant(struct sb_gbench_state *st, void *ctx)
{
	const struct bench_case *c = ctx;
	uint64_t hits_before = *c->variant->counter;
	double ticks = 0;
	while (sb_gbench_keep_running(st)) {
		uint64_t t = sb_time_variant(c->variant, c->batch);
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
}

/* Parses "1,8,64" into batches; returns the count, or -1 with a message. */
static int parse_batches(const char *s, uint64_t *out, size_t max)
{
	size_t n = 0;
	const char *p = s;
	while (*p) {
		char *end;
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		unsigned long long v = strtoull(p, &end, 10);
		if (errno || v == 0 || end == p || (*end && *end != ',') || n == max)
			goto bad;
		out[n++] = v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			goto bad;
	}
	if (n == 0)
		goto bad;
	return (int)n;
bad:
	fprintf(stderr,
		"stubbench-gbench: --batches: '%s' is not a list of up to %zu positive whole numbers "
		"(e.g. 1,8,64)\n",
		s, max);
	return -1;
}

/* Takes --batches=LIST out of argv; returns 0, or -1 on a bad list. */
static int take_own_flags(int *argc, char **argv, uint64_t *batches, size_t *n_batches)
{
	int kept = 1;
	for (int i = 1; i < *argc; i++) {
		if (strncmp(argv[i], "--batches=", 10) == 0) {
			int n = parse_batches(argv[i] + 10, batches, MAX_BATCHES);
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
	char err[256];

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			printf("usage: stubbench-gbench [--batches=LIST] [--benchmark_* flags]\n"
			       "  one benchmark per variant x batch, \"<variant>/batch:<batch>\";\n"
			       "  counters per main-prog call: tsc_cycles_per_call, core_cycles_per_call\n"
			       "  --batches=LIST  batches (default 1,8,64,512,2048,4096)\n"
			       "Google Benchmark's own flags follow.\n\n");
			break;
		}
	}
	if (take_own_flags(&argc, argv, batches, &n_batches))
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
	sb_gbench_run();

	int rc = 0;
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench-gbench: private stack guard words were overwritten\n");
		rc = 1;
	}
	sb_percpu_thread_fini();
	free(cases);
	return rc;
}

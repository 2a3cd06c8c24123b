/* stubbench-gbench: every variant x batch under Google Benchmark's harness.
 *
 * One benchmark per variant and batch, named "<variant>/batch:<batch>", to
 * which the library adds "/manual_time" (baseline/batch:64/manual_time).
 * Each benchmark iteration is one sample of the stubbench timed loop
 * (sb_time_variant: batch main-prog calls between two TSC reads); the
 * library's time is that TSC time (manual time), and the counters are per
 * main-prog call:
 *   tsc_cycles_per_call   TSC ticks per call
 *   core_cycles_per_call  the same in core cycles, converted with the
 *                         dependent-add calibration run after the samples
 *                         (the fastest of 7 short runs)
 *   core_ghz              that calibration's core clock
 *   items_per_second      main-prog calls per second
 *   disturbed_reruns      samples during which the thread was switched out
 *                         (getrusage, as the harness checks its blocks),
 *                         thrown away and taken again
 *   disturbed_kept        samples kept although switched out (still
 *                         disturbed after MAX_RERUNS tries)
 * The figures are raw: they include the timed loop's call/dec/jnz and, at
 * small batches, the timer reads; stubbench itself subtracts those.
 *
 * The command line is stubbench's (bench/cli.c): --batch, --cpu (pinned
 * with hwloc, as stubbench is), --counters=LIST (perf_counters.h:
 * "<event>_per_call" counters read around every sample). Every
 * --benchmark_* flag goes to the library; random interleaving
 * (--benchmark_enable_random_interleaving) is on unless that flag says
 * false.
 */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stubbench/gbench_shim.h"
#include "stubbench/percpu.h"
#include "stubbench/perf_counters.h"
#include "stubbench/pin.h"
#include "stubbench/timer.h"
#include "stubbench/read_file.h"
#include "stubbench/registry.h"
#include "stubbench/safe_file.h"

/* The core clock calibration: the fastest of CALIBRATION_RUNS runs of
 * CALIBRATION_BLOCKS x 64 dependent adds (an interruption only adds ticks,
 * so the most cycles per tick is the least disturbed run). */
#define CALIBRATION_BLOCKS 4096
#define CALIBRATION_RUNS 7
/* A sample during which the thread was switched out is taken again, at
 * most this many times; the last try is kept and counted. */
#define MAX_RERUNS 8

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
		if (attempt == MAX_RERUNS) {
			(*kept)++;
			return t;
		}
		(*reruns)++;
	}
}

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
	double core_per_tick = 0;
	for (int i = 0; i < CALIBRATION_RUNS; i++) {
		double r = sb_core_cycles_per_tick(CALIBRATION_BLOCKS);
		if (r > core_per_tick)
			core_per_tick = r;
	}
	/* The calls of the kept samples: one batch per benchmark iteration. */
	uint64_t kept_calls = sb_gbench_iterations(st) * c->batch;
	double tsc_per_call = kept_calls ? ticks / (double)kept_calls : 0;
	sb_gbench_set_counter(st, "tsc_cycles_per_call", tsc_per_call, SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_cycles_per_call", tsc_per_call * core_per_tick,
			      SB_GBENCH_COUNTER_DEFAULT);
	sb_gbench_set_counter(st, "core_ghz", core_per_tick * tsc_hz / 1e9, SB_GBENCH_COUNTER_DEFAULT);
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

/* --benchmark_out=FILE: the library writes a temporary beside FILE (made
 * by safe_file.c), renamed over FILE once the run ended well and the
 * temporary is whole; out_arg is the flag the library gets instead. */
static struct sb_safe_file out_file;
static int out_active, out_json = 1;
static char out_arg[SB_SAFE_FILE_PATH_MAX + 32];

/* The value of --NAME=VALUE in arg, or NULL. */
static const char *flag_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, n) == 0 && arg[2 + n] == '=' ? arg + 3 + n
												   : NULL;
}

/* The library's argv: random interleaving first, so that a flag of the
 * user's (later in argv) can turn it off; the last --benchmark_out (the one
 * the library takes) becomes a temporary. NULL with err. */
static char **library_argv(const struct sb_cli *cli, int *argc, char *err, size_t errlen)
{
	static char interleave[] = "--benchmark_enable_random_interleaving=true";
	char **av = calloc((size_t)cli->n_passthrough + 2, sizeof(*av));
	if (!av) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	int n = 0, out = -1, last_out = -1;
	for (int i = 1; i < cli->n_passthrough; i++)
		if (flag_value(cli->passthrough[i], "benchmark_out"))
			last_out = i;
	av[n++] = cli->passthrough[0];
	av[n++] = interleave;
	for (int i = 1; i < cli->n_passthrough; i++) {
		const char *v;
		if (flag_value(cli->passthrough[i], "benchmark_out")) {
			if (i != last_out)
				continue; /* the library takes the last one only */
			out = n;
		}
		if ((v = flag_value(cli->passthrough[i], "benchmark_out_format")))
			out_json = strcmp(v, "json") == 0;
		av[n++] = cli->passthrough[i];
	}
	av[n] = NULL;
	*argc = n;
	const char *path = out >= 0 ? flag_value(av[out], "benchmark_out") : NULL;
	if (path && *path) {
		char why[SB_SAFE_FILE_PATH_MAX + 200];
		if (sb_safe_file_open(&out_file, path, 0, why, sizeof(why)) != 0 ||
		    sb_safe_file_detach(&out_file, why, sizeof(why)) != 0) {
			if (out_file.tmp[0])
				sb_safe_file_abort(&out_file);
			snprintf(err, errlen, "--benchmark_out: %s", why);
			free(av);
			return NULL;
		}
		out_active = 1;
		snprintf(out_arg, sizeof(out_arg), "--benchmark_out=%s", out_file.tmp);
		av[out] = out_arg;
	}
	return av;
}

/* The library's output file whole? JSON: one object and nothing after it;
 * CSV or console: ends with a newline. */
static int out_complete(const char *path, char *why, size_t whylen)
{
	size_t len;
	char *text = sb_read_file(path, (size_t)1 << 30, &len, why, whylen);
	if (!text)
		return 0;
	int ok = len > 0 && text[len - 1] == '\n';
	if (ok && out_json) {
		struct json_tokener *tok = json_tokener_new();
		struct json_object *doc = tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
		size_t end = tok ? json_tokener_get_parse_end(tok) : 0;
		while (end < len && isspace((unsigned char)text[end]))
			end++;
		ok = doc && json_object_is_type(doc, json_type_object) && end == len;
		json_object_put(doc);
		if (tok)
			json_tokener_free(tok);
	}
	if (!ok)
		snprintf(why, whylen, "%s", len ? "cut short (a full disk?)" : "empty");
	free(text);
	return ok;
}

/* Ends --benchmark_out: the file replaced when rc is 0 and the output is
 * whole, else the temporary removed. The status, 1 when it was not. */
static int finish_out(int rc)
{
	if (!out_active)
		return rc;
	out_active = 0;
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	if (rc != 0) {
		sb_safe_file_abort(&out_file);
		return rc;
	}
	if (!out_complete(out_file.tmp, why, sizeof(why))) {
		sb_safe_file_abort(&out_file);
		fprintf(stderr, "stubbench-gbench: --benchmark_out: '%s' not written: Google Benchmark's output was %s\n",
			out_file.path, why);
		return 1;
	}
	if (sb_safe_file_commit(&out_file, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench-gbench: --benchmark_out: %s\n", why);
		return 1;
	}
	return 0;
}

static int measure(struct sb_cli *cli);

static int run_gbench(struct sb_cli *cli)
{
	return finish_out(measure(cli));
}

static int measure(struct sb_cli *cli)
{
	const struct sb_config *cfg = &cli->cfg;
	char err[SB_SAFE_FILE_PATH_MAX + 300];
	int argc, cpu, rc = 0;
	char **argv = library_argv(cli, &argc, err, sizeof(err));
	if (!argv) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return strstr(err, "out of memory") ? 1 : EXIT_USAGE;
	}
	if (sb_gbench_init(&argc, argv, err, sizeof(err))) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		free(argv);
		return EXIT_USAGE;
	}
	free(argv);
	/* libbenchmark runs a single-threaded benchmark on the calling thread. */
	if (sb_pin_thread(cfg->cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return EXIT_USAGE;
	}
	char cpu_text[16];
	snprintf(cpu_text, sizeof(cpu_text), "%d", cpu);
	sb_gbench_add_context("stubbench_cpu", cpu_text);
	if (sb_percpu_thread_init(err, sizeof(err))) {
		fprintf(stderr, "stubbench-gbench: %s\n", err);
		return 1;
	}
	tsc_hz = sb_timer_probe()->facts.tsc_hz;
	if (!(tsc_hz > 0)) {
		fprintf(stderr, "stubbench-gbench: the TSC frequency could not be measured\n");
		return 1;
	}
	if (cli->cfg.counters) {
		counter_set = sb_counters_open(cli->cfg.counters, err, sizeof(err));
		if (!counter_set) {
			fprintf(stderr, "stubbench-gbench: %s\n", err);
			return EXIT_USAGE;
		}
		if (sb_counters_note(counter_set))
			fprintf(stderr, "stubbench-gbench: %s\n", sb_counters_note(counter_set));
	}

	size_t n_variants = sb_variant_count();
	struct bench_case *cases = calloc(n_variants * cfg->n_batches, sizeof(*cases));
	if (!cases) {
		fprintf(stderr, "stubbench-gbench: out of memory\n");
		return 1;
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
				fprintf(stderr, "stubbench-gbench: cannot register %s\n", c->variant->name);
				free(cases);
				return 1;
			}
		}
	}
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

static const struct sb_subcommand gbench_command = {
	.summary = "Every variant x batch under Google Benchmark, \"<variant>/batch:<batch>\", with\n"
		   "counters per main-prog call (tsc_cycles_per_call, core_cycles_per_call, ...).",
	.groups = {&sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_counters_group},
	.epilog = "Every --benchmark_* flag goes to Google Benchmark (--benchmark_filter,\n"
		  "--benchmark_repetitions, --benchmark_format, --benchmark_out, ...). Random\n"
		  "interleaving is on; --benchmark_enable_random_interleaving=false turns it off.\n"
		  "A sample during which the thread was switched out is taken again (counter\n"
		  "disturbed_reruns), at most 8 times (then kept: counter disturbed_kept).\n",
	.passthrough_prefix = "--benchmark_",
	.run = run_gbench,
};

int main(int argc, char **argv)
{
	static const struct sb_program gbench = {"stubbench-gbench", &gbench_command, NULL};
	return sb_cli_main(&gbench, argc, argv);
}

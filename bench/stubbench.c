/* stubbench: measures byte-exact replicas of the BPF JIT's private-stack
 * codegen, interleaved, pinned and calibrated (see README.md). */
#define _GNU_SOURCE
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/config.h"
#include "stubbench/harness.h"
#include "stubbench/markers.h"
#include "stubbench/output.h"
#include "stubbench/parse.h"
#include "stubbench/percpu.h"
#include "stubbench/perf_counters.h"
#include "stubbench/pin.h"
#include "stubbench/timer.h"
#include "stubbench/variant_arms.h"
#include "stubbench/variants.h"

#ifndef SB_VERSION
#define SB_VERSION "unknown"
#endif

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"usage: stubbench [OPTIONS]\n"
		"Measures the replicas of the BPF JIT's private-stack codegen, interleaved.\n"
		"\n"
		"  --variant=LIST   baseline, private, hybrid or all (default); comma-separated;\n"
		"                   the seeds' no-private-stack and private-stack work too\n"
		"  --batch=LIST     main-prog calls per sample (default 1,8,64,512,2048,4096)\n"
		"  --cpu=N          pin to CPU N (default: the last core of the allowed set)\n"
		"  --time=SECONDS   time for the whole sweep (default 8)\n"
		"  --samples=N      rounds per batch size instead of --time\n"
		"  --seed=N         seed of the random delays and the bootstrap (default 1)\n"
		"  --format=FMT     table (default), seed, json or csv\n"
		"  --config=FILE    read a sweep file (configs/*.ini); flags override it\n"
		"  --counters=LIST  perf_event counters per variant and batch, e.g.\n"
		"                   cycles,instructions,branches,context-switches (libpfm4 names)\n"
		"  --verbose        say what the timer probe chose and why, per-batch details\n"
		"  --list           print the variants and the listings they reproduce\n"
		"  --calls=N        no measurement: call each main prog N times, check its counter\n"
		"  --help, --version\n");
}

static void list_variants(void)
{
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		printf("%-22s %-18s [%s] %s\n", v->name, v->seed_name ? v->seed_name : "-",
		       sb_variant_family(v), v->description);
		printf("%-22s %-18s listing: %s\n", "", "", v->listing);
		printf("%-22s %-18s kernel:  %s; %s shape, %u instructions per iteration\n", "", "",
		       v->flavour, v->shape, v->insns_per_call);
	}
}

static int in_family(const struct sb_variant *v, const char *family)
{
	const char *f = sb_variant_family(v);
	return f && strcmp(f, family) == 0;
}

/* "all" or a comma list of names -> variants (of any family). */
static int select_variants(const char *list, const struct sb_variant **out, size_t *n, char *err,
			   size_t errlen)
{
	*n = 0;
	if (strcmp(list, "all") == 0) {
		for (size_t i = 0; i < sb_variant_count() && *n < SB_MAX_ARMS; i++)
			if (in_family(sb_variant_at(i), "replica"))
				out[(*n)++] = sb_variant_at(i);
		return 0;
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", list);
	char *save = NULL;
	for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		const struct sb_variant *v = sb_variant_find(tok);
		if (!v) {
			snprintf(err, errlen, "--variant: unknown variant '%s' (see --list)", tok);
			return -1;
		}
		int dup = 0;
		for (size_t k = 0; k < *n; k++)
			dup |= out[k] == v;
		if (!dup && *n < SB_MAX_ARMS - 1)
			out[(*n)++] = v;
	}
	if (*n == 0) {
		snprintf(err, errlen, "--variant: '%s' names no variant", list);
		return -1;
	}
	return 0;
}

static int smoke_calls(const struct sb_variant *const *vs, size_t n, uint64_t calls)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sb_variant *v = vs[i];
		uint64_t before = *v->counter;
		if (v->batch_iters) {
			*v->batch_iters = calls;
			v->main();
		} else {
			for (uint64_t k = 0; k < calls; k++)
				v->main();
		}
		uint64_t got = *v->counter - before;
		printf("%-12s iterations=%" PRIu64 " counter+=%" PRIu64 "%s\n", v->name, calls, got,
		       got == calls ? "" : "  MISMATCH");
		rc |= got != calls;
	}
	return rc;
}

/* likwid marker regions and perf_event counters share the sample hooks:
 * marker start, counters read, sample, counters read, marker stop. */
struct sample_hooks {
	struct sb_markers *markers;
	struct sb_counter_set *counters;
};

static void hooks_before(void *p, size_t arm, size_t bi)
{
	struct sample_hooks *h = p;
	if (h->markers)
		sb_markers_before_sample(h->markers, arm, bi);
	if (h->counters)
		sb_counters_before_sample(h->counters, arm, bi);
}

static void hooks_after(void *p, size_t arm, size_t bi)
{
	struct sample_hooks *h = p;
	if (h->counters)
		sb_counters_after_sample(h->counters, arm, bi);
	if (h->markers)
		sb_markers_after_sample(h->markers, arm, bi);
}

enum { OPT_VARIANT = 256, OPT_BATCH, OPT_CPU, OPT_TIME, OPT_SAMPLES, OPT_SEED, OPT_FORMAT,
       OPT_CONFIG, OPT_VERBOSE, OPT_LIST, OPT_CALLS, OPT_HELP, OPT_VERSION, OPT_COUNTERS };

static const struct option long_opts[] = {
	{"variant", required_argument, NULL, OPT_VARIANT},
	{"batch", required_argument, NULL, OPT_BATCH},
	{"cpu", required_argument, NULL, OPT_CPU},
	{"time", required_argument, NULL, OPT_TIME},
	{"samples", required_argument, NULL, OPT_SAMPLES},
	{"seed", required_argument, NULL, OPT_SEED},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"config", required_argument, NULL, OPT_CONFIG},
	{"verbose", no_argument, NULL, OPT_VERBOSE},
	{"list", no_argument, NULL, OPT_LIST},
	{"calls", required_argument, NULL, OPT_CALLS},
	{"counters", required_argument, NULL, OPT_COUNTERS},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

int main(int argc, char **argv)
{
	struct sb_config cfg;
	char err[768];
	int c, verbose = 0, do_list = 0, time_given = 0, samples_given = 0;
	uint64_t calls = 0;
	const char *counter_list = NULL;

	sb_config_defaults(&cfg);
	opterr = 0;
	/* Pass 1: the config file, so that flags override it whatever their order. */
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		if (c == OPT_CONFIG && sb_config_load(optarg, &cfg, err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench: %s\n", err);
			return EXIT_USAGE;
		}
	}
	optind = 0;
	while ((c = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		int rc = 0;
		switch (c) {
		case OPT_VARIANT:
			snprintf(cfg.variants, sizeof(cfg.variants), "%s", optarg);
			break;
		case OPT_BATCH:
			rc = sb_parse_batches("--batch", optarg, cfg.batches, &cfg.n_batches, err, sizeof(err));
			break;
		case OPT_CPU:
			rc = sb_parse_cpu("--cpu", optarg, &cfg.cpu, err, sizeof(err));
			break;
		case OPT_TIME:
			rc = sb_parse_seconds("--time", optarg, &cfg.time_s, err, sizeof(err));
			time_given = 1;
			break;
		case OPT_SAMPLES:
			rc = sb_parse_u64("--samples", optarg, 1, &cfg.samples, err, sizeof(err));
			samples_given = 1;
			break;
		case OPT_SEED:
			rc = sb_parse_u64("--seed", optarg, 0, &cfg.seed, err, sizeof(err));
			break;
		case OPT_FORMAT:
			if (sb_format_parse(optarg, &cfg.format) != 0) {
				snprintf(err, sizeof(err), "--format: unknown format '%s' (table, seed, json, csv)", optarg);
				rc = -1;
			}
			break;
		case OPT_CONFIG:
			break;
		case OPT_VERBOSE:
			verbose = 1;
			break;
		case OPT_LIST:
			do_list = 1;
			break;
		case OPT_COUNTERS:
			counter_list = optarg;
			break;
		case OPT_CALLS:
			rc = sb_parse_u64("--calls", optarg, 1, &calls, err, sizeof(err));
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("stubbench %s\n", SB_VERSION);
			return 0;
		default:
			if (optopt && optopt >= OPT_VARIANT)
				snprintf(err, sizeof(err), "option '%s' needs a value", argv[optind - 1]);
			else
				snprintf(err, sizeof(err), "unknown option '%s'", argv[optind - 1]);
			rc = -1;
		}
		if (rc != 0) {
			fprintf(stderr, "stubbench: %s (see --help)\n", err);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "stubbench: unexpected argument '%s' (see --help)\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (time_given && samples_given) {
		fprintf(stderr, "stubbench: --time and --samples exclude each other\n");
		return EXIT_USAGE;
	}
	if (time_given)
		cfg.samples = 0;
	if (do_list) {
		list_variants();
		return 0;
	}

	const struct sb_variant *vs[SB_MAX_ARMS];
	size_t n_vs;
	if (select_variants(cfg.variants, vs, &n_vs, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return EXIT_USAGE;
	}

	/* Counters open on this thread before the run; a bad list exits 2,
	 * events the machine cannot count are one line and the run goes on. */
	struct sample_hooks hooks = {NULL, NULL};
	if (counter_list) {
		char names[SB_MAX_COUNTERS][SB_COUNTER_NAME_MAX];
		if (sb_counters_parse(counter_list, names, SB_MAX_COUNTERS, err, sizeof(err)) < 0) {
			fprintf(stderr, "stubbench: %s\n", err);
			return EXIT_USAGE;
		}
	}

	struct sb_results res;
	memset(&res, 0, sizeof(res));
	if (sb_pin_thread(cfg.cpu, &res.cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return 1;
	}
	if (calls) {
		int rc = smoke_calls(vs, n_vs, calls);
		if (sb_percpu_check_guards() != 0) {
			fprintf(stderr, "stubbench: private stack guard words were overwritten\n");
			rc = 1;
		}
		sb_percpu_thread_fini();
		return rc;
	}

	const struct sb_timer_info *ti = sb_timer_probe();
	if (verbose)
		fprintf(stderr, "stubbench: timer %s: %s; TSC %.4f GHz, granularity %llu ticks, read cost %.0f ticks\n",
			sb_timer_kind_name(ti->kind), ti->reason, ti->facts.tsc_hz / 1e9,
			(unsigned long long)ti->facts.granularity, ti->read_cost_ticks);

	/* The baseline of the variants' family is always measured, as reference. */
	const struct sb_variant *baseline = NULL;
	for (size_t i = 0; i < n_vs && !baseline; i++)
		if (strcmp(vs[i]->name, "baseline") == 0)
			baseline = vs[i];
	if (!baseline && in_family(vs[0], "replica"))
		baseline = sb_variant_find("baseline");

	struct sb_variant_arms arms;
	if (sb_variant_arms_build(&arms, baseline, vs, n_vs, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (counter_list) {
		hooks.counters = sb_counters_open(counter_list, err, sizeof(err));
		if (!hooks.counters ||
		    sb_counters_bind(hooks.counters, arms.arms, arms.n, cfg.batches, cfg.n_batches, err,
				     sizeof(err)) != 0) {
			fprintf(stderr, "stubbench: --counters: %s\n", err);
			return EXIT_USAGE;
		}
		if (sb_counters_note(hooks.counters))
			fprintf(stderr, "stubbench: %s\n", sb_counters_note(hooks.counters));
	}
	hooks.markers = sb_markers_open(arms.arms, arms.n, cfg.batches, cfg.n_batches, err, sizeof(err));
	if (!hooks.markers)
		fprintf(stderr, "stubbench: likwid markers off: %s\n", err);
	else if (sb_markers_note(hooks.markers))
		fprintf(stderr, "stubbench: %s\n", sb_markers_note(hooks.markers));
	else if (verbose)
		fprintf(stderr, "stubbench: %s\n", sb_markers_status(hooks.markers));

	struct sb_run_opts ro = {
		.batches = cfg.batches,
		.n_batches = cfg.n_batches,
		.time_s = cfg.time_s,
		.samples = cfg.samples,
		.seed = cfg.seed,
		.progress = isatty(STDERR_FILENO),
		.verbose = verbose,
		.before_sample = hooks_before,
		.after_sample = hooks_after,
		.hook_ctx = &hooks,
	};
	int cpu = res.cpu;
	if (sb_run_interleaved(arms.arms, arms.n, &ro, &res, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: measurement failed: %s\n", err);
		return 1;
	}
	res.cpu = cpu;
	sb_machine_description(res.cpu_desc, sizeof(res.cpu_desc));
	if (hooks.counters) {
		sb_counters_fill(hooks.counters, &res);
		sb_counters_close(hooks.counters);
	}
	if (hooks.markers) {
		if (verbose)
			fprintf(stderr, "stubbench: likwid regions: divide a region's counts by its calls x batch "
					"for per-call figures\n");
		sb_markers_close(hooks.markers);
	}
	int rc = 0;
	if (sb_variant_arms_check_counters(&arms, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		rc = 1;
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench: private stack guard words were overwritten\n");
		rc = 1;
	}
	struct sb_output_meta meta = {.tool = "stubbench", .version = SB_VERSION, .seed = cfg.seed};
	sb_output_write(stdout, cfg.format, &res, &meta);
	sb_results_free(&res);
	sb_percpu_thread_fini();
	return rc;
}

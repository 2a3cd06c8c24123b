/* reporter_gbench.c: the Google Benchmark reporter (reporter.h): results in Google Benchmark's JSON schema (version 1,
 * as its JSONReporter writes it), so that its tools/compare.py reads
 * stubbench runs: one benchmark per variant x batch, named as
 * stubbench-gbench names them ("private/batch:64/manual_time"), with the
 * run's repetitions (slices of its undisturbed blocks) as "iteration" runs
 * followed by the mean, median, stddev and cv aggregates. Times are
 * nanoseconds per iteration, the harness's overhead removed; the counters
 * core_cycles_per_call and tsc_cycles_per_call go with every entry. */
#define _GNU_SOURCE
#include "harness/harness.h"
#include "output/reporter.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "output/json_writer.h"
#include "base/run_info.h"

static void kv_num(FILE *f, const char *key, double v)
{
	/* As JSONReporter: %.17g-ish precision; NaN would not parse, never written. */
	fprintf(f, ",\n      \"%s\": %.10g", key, v);
}

static void context(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	char buf[512];
	int argc;
	char *const *argv;
	sb_run_info_argv(&argc, &argv);
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	/* JSONReporter writes the offset as +hh:mm. */
	size_t n = strlen(buf);
	if (n > 4) {
		memmove(buf + n - 1, buf + n - 2, 3);
		buf[n - 2] = ':';
	}
	fputs("{\n  \"context\": {\n    \"date\": ", f);
	sb_json_string(f, buf);
	gethostname(buf, sizeof(buf));
	buf[sizeof(buf) - 1] = '\0';
	fputs(",\n    \"host_name\": ", f);
	sb_json_string(f, buf);
	fputs(",\n    \"executable\": ", f);
	sb_json_string(f, argc ? argv[0] : m->tool);
	fprintf(f, ",\n    \"num_cpus\": %ld,\n    \"mhz_per_cpu\": %.0f,\n    \"cpu_scaling_enabled\": false,\n"
		   "    \"caches\": [\n    ],\n    \"load_avg\": [],\n    \"library_version\": ",
		sysconf(_SC_NPROCESSORS_ONLN), r->timer.facts.tsc_hz / 1e6);
	sb_json_string(f, m->version);
	fputs(",\n    \"library_build_type\": \"release\",\n    \"json_schema_version\": 1", f);
	/* stubbench's own: what made the run. */
	fputs(",\n    \"stubbench_tool\": ", f);
	sb_json_string(f, m->tool);
	fputs(",\n    \"machine\": ", f);
	sb_json_string(f, r->cpu_desc);
	fputs(",\n    \"kernel\": ", f);
	sb_run_info_kernel(buf, sizeof(buf));
	sb_json_string(f, buf);
	fputs(",\n    \"git\": ", f);
	sb_json_string(f, sb_run_info_git());
	fprintf(f, ",\n    \"cpu\": %d,\n    \"core_ghz_median\": %.6g,\n    \"timer\": \"%s\"\n  },\n", r->cpu,
		isfinite(r->core_ghz_median) ? r->core_ghz_median : 0, sb_timer_kind_name(r->timer.kind));
}

struct entry {
	const char *run_name;
	int family, instance;
	size_t reps;
	const char *run_type;       /* "iteration" or "aggregate" */
	long rep_index;             /* -1 for aggregates */
	const char *aggregate;      /* "mean" ... or NULL */
	int percentage;             /* cv: a fraction, not a time */
	uint64_t iterations;
	double ns, cycles, tsc;
};

static void write_entry(FILE *f, int *first, const struct entry *e, const struct sb_cell *c,
			const struct sb_results *r)
{
	fputs(*first ? "    {\n" : ",\n    {\n", f);
	*first = 0;
	fputs("      \"name\": ", f);
	if (e->aggregate) {
		char name[256];
		snprintf(name, sizeof(name), "%s_%s", e->run_name, e->aggregate);
		sb_json_string(f, name);
	} else {
		sb_json_string(f, e->run_name);
	}
	fprintf(f, ",\n      \"family_index\": %d,\n      \"per_family_instance_index\": %d,\n      \"run_name\": ",
		e->family, e->instance);
	sb_json_string(f, e->run_name);
	fprintf(f, ",\n      \"run_type\": \"%s\",\n      \"repetitions\": %zu", e->run_type, e->reps);
	if (e->rep_index >= 0)
		fprintf(f, ",\n      \"repetition_index\": %ld", e->rep_index);
	fputs(",\n      \"threads\": 1", f);
	if (e->aggregate)
		fprintf(f, ",\n      \"aggregate_name\": \"%s\",\n      \"aggregate_unit\": \"%s\"", e->aggregate,
			e->percentage ? "percentage" : "time");
	fprintf(f, ",\n      \"iterations\": %llu", (unsigned long long)e->iterations);
	kv_num(f, "real_time", e->ns);
	kv_num(f, "cpu_time", e->ns);
	fputs(",\n      \"time_unit\": \"ns\"", f);
	kv_num(f, "core_cycles_per_call", e->cycles);
	kv_num(f, "tsc_cycles_per_call", e->tsc);
	/* The run's counters were read per cell, not per repetition: with the mean. */
	if (e->aggregate && strcmp(e->aggregate, "mean") == 0)
		for (size_t k = 0; k < r->n_counters; k++)
			if (isfinite(c->counters[k]))
				kv_num(f, r->counter_names[k], c->counters[k]);
	fputs("\n    }", f);
}

static void stats(const double *x, size_t n, double *mean, double *median, double *sd)
{
	struct sb_summary s;
	if (sb_summarize(x, n, NULL, 0, &s) == 0) {
		*mean = s.mean;
		*median = s.median;
		*sd = n > 1 && isfinite(s.sd) ? s.sd : 0;
	} else {
		*mean = *median = *sd = 0;
	}
}

/* The context object, then the benchmarks array opened. */
static int gbench_begin(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	context(f, r, m);
	fputs("  \"benchmarks\": [\n", f);
	return 0;
}

/* Per cell, its repetitions and their aggregates. */
static int gbench_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	(void)m;
	size_t nb = r->n_batches ? r->n_batches : 1;
	int first = 1, family = -1;
	const struct sb_arm *arm = NULL;
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		/* A cell without a figure (figure_checks.h) has no repetitions to show. */
		if (!c->arm || c->n_reps == 0 || c->no_samples[0])
			continue;
		if (c->arm != arm) {
			arm = c->arm;
			family++;
		}
		char run_name[256];
		snprintf(run_name, sizeof(run_name), "%s/batch:%llu/manual_time", c->arm->name,
			 (unsigned long long)c->batch);
		double tsc_per_ns = r->timer.facts.tsc_hz / 1e9;
		struct entry e = {.run_name = run_name, .family = family, .instance = (int)(i % nb),
				  .reps = c->n_reps, .run_type = "iteration"};
		for (size_t k = 0; k < c->n_reps; k++) {
			e.rep_index = (long)k;
			e.iterations = c->rep_iterations[k];
			e.ns = c->rep_ns[k];
			e.cycles = c->rep_cycles[k];
			e.tsc = c->rep_ns[k] * tsc_per_ns;
			write_entry(f, &first, &e, c, r);
		}
		if (c->n_reps < 2)
			continue;
		/* Aggregates over the repetitions, as Google Benchmark computes them. */
		double ns[3], cyc[3];
		stats(c->rep_ns, c->n_reps, &ns[0], &ns[1], &ns[2]);
		stats(c->rep_cycles, c->n_reps, &cyc[0], &cyc[1], &cyc[2]);
		static const char *const names[] = {"mean", "median", "stddev", "cv"};
		e.run_type = "aggregate";
		e.rep_index = -1;
		e.iterations = c->n_reps;
		for (int a = 0; a < 4; a++) {
			e.aggregate = names[a];
			e.percentage = a == 3;
			e.ns = a < 3 ? ns[a] : (ns[0] ? ns[2] / ns[0] : 0);
			e.cycles = a < 3 ? cyc[a] : (cyc[0] ? cyc[2] / cyc[0] : 0);
			e.tsc = a < 3 ? ns[a] * tsc_per_ns : e.ns;
			write_entry(f, &first, &e, c, r);
		}
	}
	return 0;
}

static int gbench_end(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	(void)r;
	(void)m;
	fputs("\n  ]\n}\n", f);
	return 0;
}

const struct sb_reporter sb_reporter_gbench = {
	.begin = gbench_begin,
	.results = gbench_results,
	.end = gbench_end,
};

/* gbench_shim.h: a small C API over Google Benchmark (libbenchmark).
 *
 * C code registers a C function under a name with one integer argument and
 * a few options; the function runs the benchmark loop itself:
 *
 *     static void bm(struct sb_gbench_state *st, void *ctx)
 *     {
 *         while (sb_gbench_keep_running(st))
 *             work(ctx, sb_gbench_arg(st));
 *         sb_gbench_set_counter(st, "per_call", x, SB_GBENCH_COUNTER_DEFAULT);
 *     }
 *     sb_gbench_register("name", bm, ctx, &(struct sb_gbench_opts){.arg = 64});
 *     if (sb_gbench_init(&argc, argv, err, sizeof(err))) ... exit 2
 *     sb_gbench_run();
 *
 * Every --benchmark_* flag of the library works (filter, repetitions,
 * min_time, format, out, ...). Options left at 0 defer to those flags: the
 * library lets a benchmark's own MinTime/Repetitions override the flag, so
 * set them only when the benchmark needs it.
 *
 * Debian's libbenchmark 1.7.1 is a debug build without libpfm: it prints
 * "***WARNING*** Library was built as DEBUG. Timings may be affected." and
 * its --benchmark_perf_counters do nothing; count with perf_counters.h or
 * likwid instead.
 */
#ifndef STUBBENCH_GBENCH_SHIM_H
#define STUBBENCH_GBENCH_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sb_gbench_state; /* a benchmark::State */

typedef void (*sb_gbench_fn)(struct sb_gbench_state *st, void *ctx);

struct sb_gbench_opts {
	int64_t arg;          /* sb_gbench_arg(); shown in the name as "/<arg_name>:<arg>" */
	int has_arg;          /* 0: the benchmark takes no argument (plain name) */
	const char *arg_name; /* NULL: "/<arg>" */
	int repetitions;      /* 0: --benchmark_repetitions */
	double min_time_s;    /* 0: --benchmark_min_time */
	int manual_time;      /* 1: the time is what sb_gbench_set_iteration_time reports */
	int time_unit;        /* SB_GBENCH_NS (default), _US, _MS, _S */
};

enum {
	SB_GBENCH_NS = 0,
	SB_GBENCH_US = 1,
	SB_GBENCH_MS = 2,
	SB_GBENCH_S = 3,
};

/* How a counter's value is shown (benchmark::Counter::Flags). */
enum {
	SB_GBENCH_COUNTER_DEFAULT = 0,
	SB_GBENCH_COUNTER_RATE = 1 << 0,           /* divided by the run time */
	SB_GBENCH_COUNTER_AVG_ITERATIONS = 1 << 1, /* divided by the iterations */
	SB_GBENCH_COUNTER_AVG_THREADS = 1 << 2,    /* divided by the threads */
};

/* Registers fn; returns 0, or -1 when name or fn is missing or an option
 * is out of range (repetitions or min_time_s negative, unknown time unit).
 * Names and options are copied. */
int sb_gbench_register(const char *name, sb_gbench_fn fn, void *ctx,
		       const struct sb_gbench_opts *opts);

/* Bounds of the flags sb_gbench_init() checks before the library sees them. */
#define SB_GBENCH_MAX_REPETITIONS 1000
#define SB_GBENCH_MAX_MIN_TIME_S 3600.0

/* Checks the flags the library takes on trust (--benchmark_repetitions
 * from 0 to SB_GBENCH_MAX_REPETITIONS, --benchmark_min_time a plain number
 * of seconds up to SB_GBENCH_MAX_MIN_TIME_S, --benchmark_format and
 * --benchmark_out_format console, json or csv, --benchmark_filter a regex
 * that compiles, --benchmark_out a file that can be written), then hands
 * argv to the library, which takes out every --benchmark_* flag it knows
 * (and exits 0 after printing help for --help). Returns 0 when nothing
 * else is left, or -1 with the bad flag or the first leftover argument
 * named in err (the program should exit 2). */
int sb_gbench_init(int *argc, char **argv, char *err, size_t errlen);

/* Adds "key": "value" to the "context" of the library's output (JSON,
 * console header). Call before sb_gbench_run. Returns 0, or -1 when key or
 * value is missing (the library warns about a key given twice). */
int sb_gbench_add_context(const char *key, const char *value);

/* Runs the benchmarks the filter selects, then shuts the library down.
 * Returns how many ran. */
size_t sb_gbench_run(void);

/* Inside a benchmark function. */
int sb_gbench_keep_running(struct sb_gbench_state *st); /* the loop condition */
int64_t sb_gbench_arg(const struct sb_gbench_state *st);
uint64_t sb_gbench_iterations(const struct sb_gbench_state *st); /* done so far */
void sb_gbench_set_counter(struct sb_gbench_state *st, const char *name, double value, int flags);
void sb_gbench_set_iteration_time(struct sb_gbench_state *st, double seconds);
void sb_gbench_set_items_processed(struct sb_gbench_state *st, int64_t items);
void sb_gbench_set_label(struct sb_gbench_state *st, const char *label);
void sb_gbench_pause_timing(struct sb_gbench_state *st);
void sb_gbench_resume_timing(struct sb_gbench_state *st);
/* Reports an error for this run; leave the loop (return) afterwards. */
void sb_gbench_skip_with_error(struct sb_gbench_state *st, const char *msg);

#ifdef __cplusplus
}
#endif

#endif

/* gbench_variants.h: every variant x batch under Google Benchmark's harness
 * (the program stubbench-gbench), through the C shim (gbench_shim.h).
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
 *                         disturbed after SB_GBENCH_MAX_RERUNS tries)
 *   <event>_per_call      each counter of --counters (perf_counters.h),
 *                         read around every sample
 * The figures are raw: they include the timed loop's call/dec/jnz and, at
 * small batches, the timer reads; stubbench itself subtracts those.
 *
 * Every --benchmark_* flag goes to the library; random interleaving
 * (--benchmark_enable_random_interleaving) is on unless that flag says
 * false. --benchmark_out=FILE is written whole: the library writes a
 * temporary beside FILE, renamed over it once the run ended well and the
 * output is complete.
 *
 * The library's runner, not the session (session/command.h), runs the
 * benchmarks: how long each runs is --benchmark_min_time (below), given to
 * the library unchanged; there is no --time to share out. */
#ifndef STUBBENCH_GBENCH_VARIANTS_H
#define STUBBENCH_GBENCH_VARIANTS_H

#include "stubbench/config.h"
#include "base/error.h"

/* A sample during which the thread was switched out is taken again, at
 * most this many times; the last try is kept and counted. */
#define SB_GBENCH_MAX_RERUNS 8
/* The benchmarks run without --benchmark_filter: the seed's and the host's
 * baseline, private and hybrid at every batch;
 * --benchmark_filter=. runs every variant, the lab's and the twins' too. */
#define SB_GBENCH_DEFAULT_FILTER "^(baseline|private|hybrid|host-baseline|host-private|host-hybrid)/"
/* Each benchmark's --benchmark_min_time without one (the library's own is
 * 0.5 s of measured time): at batch 1 the shim's work around each
 * iteration (its timing, counters and the switched-out check) takes about
 * 13 times the measured time, so the library's default ran the default set
 * past two minutes on a loaded 2-vCPU VM; 0.05 s ran it in 46 s there. */
#define SB_GBENCH_DEFAULT_MIN_TIME "0.05"

/* flags (the library's argv, as below) with the defaults the user did not
 * give: --benchmark_filter=SB_GBENCH_DEFAULT_FILTER, and
 * --benchmark_min_time=SB_GBENCH_DEFAULT_MIN_TIME; *n_out: its count. A
 * NULL-terminated array for free() (its strings flags' or static), or NULL
 * out of memory. */
char **sb_gbench_default_flags(int n_flags, char **flags, int *n_out);

/* The variants the filter selects (SB_GBENCH_DEFAULT_FILTER without one)
 * at every batch of cfg->measure.batches, pinned to
 * cfg->measure.cpu, with cfg->measure.counters; flags[0 .. n_flags) is the library's argv
 * (flags[0] the program's name, then the --benchmark_* flags). Returns
 * SB_STATUS_USAGE after one line on a bad flag, a bad --cpu or --counters,
 * or a filter that matched nothing, SB_STATUS_FAILED after one line when
 * the setup, a check or --benchmark_out failed, else SB_STATUS_OK. */
enum sb_status sb_gbench_measure_variants(const struct sb_config *cfg, int n_flags, char **flags);

#endif

/* kernel_run.h: `stubbench kernel` without --obj, as a library: the
 * built-in shapes (seed 001's per-run, seed 003's in-loop) measured
 * against their twins, --shape=htab, and --probe. Each takes the one run
 * configuration (config.h), which the front end filled and checked, and
 * returns the command's exit status (loader.h, enum sb_kernel_status).
 * Every program loaded is unloaded on every way out; nothing is pinned. */
#ifndef STUBBENCH_KERNEL_RUN_H
#define STUBBENCH_KERNEL_RUN_H

#include <stddef.h>

#include "stubbench/config.h"
#include "kernel/loader.h"

/* Which built-in programs a run measures, read from --shape and --variant. */
struct sb_kernel_plan {
	int shapes[SB_N_SHAPES];  /* the shapes measured (per-run, in-loop) */
	int want[SB_N_KVARIANTS]; /* the variants measured; the baseline always */
	int htab;                 /* --shape=htab: seed 003's map-helper program instead */
};

/* --shape's value ("per-run", "in-loop", "all" or "htab"; NULL: "all")
 * into p->shapes and p->htab. Returns 0, or -1 with err naming --shape and
 * the value. */
int sb_kernel_plan_shape(struct sb_kernel_plan *p, const char *shape, char *err, size_t errlen);
/* --variant's list ("all" or names: baseline, private, hybrid, or their
 * seed names) into p->want, the baseline always in. Returns 0, or -1 with
 * err naming --variant and the bad or repeated name. */
int sb_kernel_plan_variants(struct sb_kernel_plan *p, const char *variants, char *err, size_t errlen);

/* --driver=auto: raw_tp, or perf_event where only that type of program
 * gets a private stack. */
#define SB_KERNEL_DRIVER_AUTO (-1)

/* What the kernel run takes beside the configuration. */
struct sb_kernel_run_options {
	int driver; /* --driver: an enum sb_kernel_driver, or SB_KERNEL_DRIVER_AUTO */
};

/* The run of cfg->measure.shape and cfg->measure.variants: --shape=htab (sb_kernel_htab_run),
 * or the built-in shapes, loaded cfg->kernel.loads times per batch size, their JIT
 * checked against the twins, then measured beside the twins and the twins
 * placed like the loads, interleaved; the session (session.h) reports it,
 * with the side-by-side verdicts. Ends with sb_kernel_interrupted_or. */
enum sb_kernel_status sb_kernel_run(const struct sb_config *cfg, const struct sb_kernel_run_options *opts);

/* --shape=htab: seed 003's v1 map-helper program with and without a
 * private stack, and its syscall path; no twins. opts->driver as for the
 * built-in shapes (NULL: auto). */
enum sb_kernel_status sb_kernel_htab_run(const struct sb_config *cfg, const struct sb_kernel_run_options *opts);

/* --probe: which program types and stack shapes this kernel gives a
 * private stack (their JIT read back): as lines, or one JSON object with
 * --format=json, on stdout. */
enum sb_kernel_status sb_kernel_probe_run(const struct sb_output_config *cfg);

/* How every mode of the kernel run ends: a run that a signal stopped (it
 * unwound and unloaded everything) says so in one line on stderr and
 * returns SB_KERNEL_INTERRUPTED, whatever status the unwinding produced;
 * any other run returns status. */
enum sb_kernel_status sb_kernel_interrupted_or(int status);

/* The ending of each mode's command (session/command.h: ending_status,
 * finish_status). A run without results (reported 0) has no report; one
 * measured in part (SB_KERNEL_NO_PRIV_STACK) is reported as a run without
 * an error (remembered), and exits with its status unless the ending
 * failed: an error, or a run with no usable samples, outranks "measured
 * in part". */
int sb_kernel_ending_status(int reported, int measured);
int sb_kernel_finish_status(int measured, int finished, void *ctx);

#endif

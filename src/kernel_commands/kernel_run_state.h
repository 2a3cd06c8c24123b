/* kernel_run_state.h: what one run of `stubbench kernel`'s built-in shapes
 * holds (the context of its command, kernel_run.c), and the steps of the
 * run that the other files of src/kernel_commands/ make: loading and
 * checking the programs (kernel_load.c), measuring them
 * (kernel_measure.c), reporting what the run found (kernel_findings.c).
 * Private to the library. */
#ifndef STUBBENCH_COMMANDS_KERNEL_RUN_STATE_H
#define STUBBENCH_COMMANDS_KERNEL_RUN_STATE_H

#include <stdio.h>

#include "kernel/arms.h"
#include "stubbench/config.h"
#include "harness/harness.h"
#include "kernel_commands/kernel_run.h"
#include "kernel/loader.h"
#include "kernel/private_stack_findings.h"
#include "jit/return_thunks.h"
#include "kernel/stack_offset_probe.h"
#include "stats/block_table.h"
#include "stubbench/results.h"
#include "kernel/twin_placement.h"
#include "harness/variant_arms.h"

struct sb_session;

/* --loads: copies of the programs, each at a code address of its own. */
#define SB_MAX_COPIES SB_KERNEL_MAX_LOADS

/* Everything loaded or allocated, released in one place (kernel_run.c).
 * Copy c of the programs (one object per batch size) is objs[c]; all
 * copies stay loaded to the end, so each sits at a code address of its own. */
struct kernel_run {
	/* The run's configuration: the session's, --plot dropped where there
	 * is no gnuplot (run_plot.h). */
	struct sb_config cfg;
	struct sb_kernel_plan plan;   /* the shapes and variants measured */
	int driver_option;            /* --driver: an enum sb_kernel_driver, or SB_KERNEL_DRIVER_AUTO */
	struct sb_kernel_obj *objs[SB_MAX_COPIES][SB_MAX_BATCHES];
	size_t n_objs[SB_MAX_COPIES];
	struct sb_kernel_arms karms[SB_N_SHAPES];
	struct sb_variant_arms tarms[SB_N_SHAPES];
	/* Kernel arms and placed twins are each measured over all loads. */
	struct sb_results kres[SB_N_SHAPES], tres[SB_N_SHAPES];
	/* The twins placed like each load's JITed functions, per batch. */
	struct sb_twin_placement placed[SB_N_SHAPES][SB_MAX_COPIES][SB_MAX_BATCHES];
	struct sb_placed_arms parms[SB_N_SHAPES];
	struct sb_results pres[SB_N_SHAPES];
	char twin_names[SB_N_SHAPES][SB_N_KVARIANTS][2][64]; /* the twins' arm names */
	char *jit_check;    /* the JIT check's lines, for JSON too */
	char *verdicts;     /* the side-by-side report's lines, for JSON too */
	FILE *quiet_info;   /* where the findings before the measurement go with the summary alone */
	/* The kernel gave these programs no private stack (jit_check.h): their
	 * kernel and placed arms are not measured, their twins are. */
	int no_priv[SB_N_SHAPES][SB_N_KVARIANTS];
	int kwant[SB_N_SHAPES][SB_N_KVARIANTS]; /* the kernel's arms measured, per shape */
	struct sb_private_stack_probe probe;
	int probed;
	char not_measured[320];
	enum sb_kernel_driver driver; /* how the programs were loaded and run */
	char driver_note[160];        /* why perf_event, when auto chose it */
	/* Where the driver puts a program's rbp frame (its page offset), read
	 * before the measurement; stack_probed 0: not read. */
	struct sb_stack_offset_probe stack_probe;
	int stack_probed;
	/* The placed twins' rbp frame page offset per shape (-1: a random pad
	 * per block), kernel_measure.c. */
	int placed_frame[SB_N_SHAPES];
	/* The blocks every part kept while it measured (kernel_measure.c), for
	 * the figures load by load (kernel_load_figures.c); none where
	 * collecting them ran out of memory. */
	struct sb_block_table blocks;
	struct sb_return_thunk thunk; /* where the JIT's returns go (kernel_run_aim_returns) */
	char ci_scope[768];           /* what the CIs cover, for the report */
	int has_results;              /* measured to the end: the run has a report */
};

/* kernel_load.c. The copies loaded with r->driver, and one run of the
 * empty driver to see the kernel runs them on cpu. */
enum sb_kernel_status kernel_run_load(struct kernel_run *r, int cpu);
/* Every loaded copy unloaded, and what the JIT check kept of them. */
void kernel_run_unload(struct kernel_run *r);
/* The JIT check: its lines on info and kept for JSON; r->kwant and, where
 * the kernel gave no private stack, r->probe and r->not_measured set.
 * Returns its status; *fatal: 1 where nothing can be measured (no JIT). */
enum sb_kernel_status kernel_run_check_jit(struct kernel_run *r, FILE *info, int *fatal);
/* Where the JIT's returns go (said on info), and the twins' returns aimed
 * at the replica of that thunk, or of --thunk's. */
void kernel_run_aim_returns(struct kernel_run *r, FILE *info, struct sb_return_thunk *thunk);

/* kernel_measure.c. Every part of every shape measured in one run (the
 * kernel's programs, the twins placed like the loads where can_place, the
 * twins), then their counters checked. Returns SB_KERNEL_OK or the status
 * it failed with, said on stderr. */
int kernel_run_measure(struct kernel_run *r, int cpu, int can_place, const struct sb_run_opts *ro, FILE *info);

/* kernel_load_figures.c. The figures load by load from r->blocks set on
 * the cells of r->kres and r->pres (nothing without blocks). */
void kernel_run_load_figures(struct kernel_run *r);

/* kernel_findings.c. The run's report on s (the command's report_final,
 * command.h): every part's results, the side-by-side verdicts and the
 * findings in JSON. */
void kernel_run_report(struct sb_session *s, struct kernel_run *r);

/* kernel_run.c, for the built-in shapes and htab alike. */
/* Starts the kernel part on --cpu's core (probe.h): SB_KERNEL_OK with
 * *cpu, or the status, said on stderr. */
enum sb_kernel_status kernel_run_start(const struct sb_measure_config *cfg, int *cpu);
/* --driver=auto (driver_option) on raw_tp programs (driver) that the
 * kernel gave no private stack (the JIT check's st): non-zero where probe
 * (NULL: run now) says perf_event programs get one, and the run loads
 * its programs as those instead, with KERNEL_PERF_EVENT_NOTE. */
struct sb_private_stack_probe;
int kernel_run_perf_event_instead(enum sb_kernel_status st, int driver_option, enum sb_kernel_driver driver,
				  const struct sb_private_stack_probe *probe);
#define KERNEL_PERF_EVENT_NOTE "perf_event programs, run by page faults: this kernel gives raw_tp programs no private stack"
/* Where the findings before the measurement go (the JIT check, the
 * returns, the counters): above the table with --table or --verbose; with
 * the summary alone nowhere (*quiet: /dev/null, for the caller to close);
 * on stderr in the other formats. */
FILE *kernel_run_findings_stream(const struct sb_config *cfg, FILE **quiet);

#endif

/* session.h: one measuring command's run, from its configuration to its
 * end. Every measuring command (the sweep, the lab, diff, annotate, the
 * kernel run and its htab shape and --obj, footprint) goes through it, in
 * these steps (sb_command_run takes them for a descriptor, command.h: every
 * one of them):
 *
 *   sb_session_init(&s, "stubbench lab", &cfg);       the run configuration
 *   sb_measure_groups(&cfg, "stubbench lab", g, n);   replica arms, measured
 *   ... or sb_session_run_opts() for arms of its own (the kernel's)
 *   sb_session_add(&s, &res, "per-run");              each part's results
 *   rc = sb_session_finish(&s, rc);                   the one ending
 *
 * A command that is a descriptor (command.h: the sweep, the lab, the
 * kernel run's built-in shapes, --shape=htab and --obj) has
 * sb_command_run make the calls to init and finish; the others make them
 * themselves.
 *
 * The ending is the same for all: the record of past runs widens every
 * part's CIs (past_runs.h); in the table format the summary (answer.h)
 * comes first and, with --table or --verbose only, the full table (sections
 * per part label) and the notes; other formats write their one document
 * (--output: into a file, written whole); the notes go to
 * stderr (multimodal, time, cold, busy core, CI scope), a quiet run that
 * had no error is remembered, and --plot draws it. A front end adds only
 * its arms and what its own JSON or table says beyond the results. */
#ifndef STUBBENCH_SESSION_H
#define STUBBENCH_SESSION_H

#include <stddef.h>
#include <stdio.h>

#include "session/live_states.h"
#include "stubbench/config.h"
#include "harness/harness.h"
#include "output/output.h"
#include "stubbench/results.h"

struct sb_block_table;
struct sb_run_file;
struct sb_state_figures;
struct sb_variant;
struct sb_variant_arms;

#define SB_SESSION_MAX_SECTIONS 16

/* One section of a run's results: a group of arms measured together.
 * label: the table's section it prints in (consecutive sections with one
 * label print as one table, "# shape: LABEL" above it); NULL: the session's. */
struct sb_session_section {
	struct sb_results *res;
	const char *label;
	const char *heading; /* a "# HEADING" line above its section (the sweep's flavour); may be NULL */
};

struct sb_session {
	const char *tool;              /* "stubbench kernel" */
	const struct sb_config *cfg;
	/* What else tells this measurement apart in the record of past runs
	 * (the command's options that change its figures); may be empty. */
	char measurement_extra[768];
	/* How the report says the run was made: tool, version, seed, config
	 * set by sb_session_init; shape, thunk, ci_scope, members ... by
	 * the front end. */
	struct sb_output_meta meta;
	struct sb_session_section sections[SB_SESSION_MAX_SECTIONS];
	size_t n_sections;
	/* After the report, on info (stdout for the table, else stderr):
	 * what the front end says beyond the results (the kernel's verdicts,
	 * the lab's code sizes). format: the run's (sb_config.format, for
	 * sb_format_is). all: every part's cells. May be NULL. */
	void (*after_report)(FILE *info, const char *format, const struct sb_results *all, const void *ctx);
	const void *after_ctx;
	/* A table of the command's own instead of the common one (footprint's
	 * rows); NULL: the common table. */
	void (*table)(FILE *f, const struct sb_results *all, const void *ctx);
	const void *table_ctx;
	/* Draw --plot (when cfg->out.plot is set); 0: the command has no plot. */
	int plots;
	/* A plot of the command's own instead of the common one: 0, or -1 with
	 * err; NULL: the common plot (sb_plot_results). */
	int (*plot)(const char *path, const struct sb_results *all, const void *ctx, char *err, size_t errlen);
	/* The command's own lines of the summary (answer.h: the kernel's
	 * verdicts, the lab's ranking); NULL: the per-variant lines. */
	int (*answer)(FILE *f, const struct sb_run_file *rf, int max_lines);
	/* Not remembered in the record of past runs (a run whose figures are
	 * not comparable from run to run). */
	int forget;
	/* The kept blocks the run collected while it measured (the sweep's;
	 * block_table.h), kept by pointer; NULL: none. The ending classifies
	 * them by core state and computes the figures per state
	 * (state_figures.h): "core_states" in JSON, lines of the summary. */
	const struct sb_block_table *blocks;
	/* Set by the ending from blocks (live_states.h). */
	struct sb_live_states live;
};

/* The session of tool with configuration cfg (kept by pointer: it must
 * outlive the session). */
void sb_session_init(struct sb_session *s, const char *tool, const struct sb_config *cfg);

/* Adds a part whose results res (kept by pointer; freed by
 * sb_session_finish) print under label. Returns 0, or -1 when
 * SB_SESSION_MAX_SECTIONS are there already. */
int sb_session_add(struct sb_session *s, struct sb_results *res, const char *label);
/* The same, with a table section of its own headed "# HEADING" (kept by
 * pointer). */
int sb_session_add_section(struct sb_session *s, struct sb_results *res, const char *label, const char *heading);

/* The harness options of the configuration: batches, time or samples,
 * seed, processes, progress on a terminal, verbose. The caller adds its
 * hooks (stop, child_check, between_processes). */
void sb_session_run_opts(const struct sb_config *cfg, struct sb_run_opts *ro);

/* On a terminal, one line on stderr saying what the run does before it
 * measures ("\rTOOL: WHAT ..."; the harness's progress overwrites it), so
 * that no command sits silent in its setup. Nothing otherwise. */
void sb_session_progress(const char *tool, const char *what);

/* The full report is asked for: a format other than the table, --table
 * or --verbose (else the table format prints the summary alone). */
int sb_session_full_report(const struct sb_output_config *cfg);

/* The report goes to a file in a format other than the table (--output,
 * --format) and --verbose was not given: the terminal gets the summary
 * alone, on stdout, and none of the notes around it. */
int sb_session_summary_alone_here(const struct sb_output_config *cfg);

/* A stream that drops what is written to it (/dev/null; stderr where that
 * cannot be opened). */
FILE *sb_session_nowhere(void);

/* Where a note for the terminal goes: stderr, or nowhere (a stream that
 * drops it) where sb_session_summary_alone_here. */
FILE *sb_session_notes(const struct sb_config *cfg);

/* The one ending (see above). rc: the run's status so far: 0, or non-zero
 * when something failed but the results still mean something (reported,
 * not remembered). Returns rc, or 1 when rc was 0 and the report could not
 * be written or a cell had no usable samples. Frees every part's results. */
int sb_session_finish(struct sb_session *s, int rc);

/* The host flavour's code (families replica-host and its padded
 * baselines) patched so that its returns reach the replica of thunk's
 * thunk, as the kernel patches its returns at boot; where that thunk has
 * no replica, says so in one line (tool first) and the code keeps
 * its_return_thunk's replica. Before any of it is placed or measured. */
struct sb_return_thunk;
void sb_session_aim_host_returns(const struct sb_config *cfg, const char *tool, const struct sb_return_thunk *thunk);
/* The same for the kernel twins (family twin), aimed at the replica of
 * thunk's thunk or of --thunk's (cfg->measure.thunk: a symbol, or "ret"), for
 * every command that runs them. info: where one line says where their
 * returns go ("twins: returns ..."); NULL: only a failure is said, in one
 * line on stderr (tool first), or with --verbose where they go. */
void sb_session_aim_twin_returns(const struct sb_config *cfg, const char *tool, const struct sb_return_thunk *thunk,
				 FILE *info);

/* Replica arms measured interleaved with the options of cfg: pins the
 * thread, sets up the private stacks, gives each arm its re-rolled states
 * (cfg->measure.states placed copies) or --placements, opens counters and likwid
 * markers, runs in cfg->measure.processes fresh processes, checks the variants'
 * counters and the guard words. tool prefixes every line on stderr.
 * Returns 0, 1 on a failed check or run, 2 on bad input. The cells of res
 * point into arms, which must outlive res; res must be freed (by
 * sb_session_finish or sb_results_free). */
int sb_measure_group(const struct sb_config *cfg, const char *tool, const struct sb_variant *baseline,
		     const struct sb_variant *const *others, size_t n_others, struct sb_variant_arms *arms,
		     struct sb_results *res);

/* Several groups measured in one run whose fresh processes take turns
 * (sb_run_arm_sets), so that every group spans the whole run; with
 * cfg->measure.counters one group after the other. Each group's res must be
 * freed; returns as sb_measure_group. */
struct sb_group {
	const struct sb_variant *baseline;  /* may be NULL */
	const struct sb_variant *const *others;
	size_t n_others;
	/* --padded: the padded baseline of each other (the baseline's code at
	 * its layout), for the codegen and layout costs; NULL, or a NULL
	 * entry: the registry's (sb_variant_padded_baseline_of). */
	const struct sb_variant *const *padded;
	struct sb_variant_arms *arms;       /* outlives res */
	struct sb_results *res;
	/* Copy j of every arm of the group at the same page offsets and stack
	 * offset, interleaved in the group's blocks (annotate pairs its
	 * ablations block by block). Arms of similar code placed alike and
	 * interleaved slow each other at small batch sizes (docs/annotate.md);
	 * --padded's comparison runs each arm in a group of its own instead. */
	int same_offsets;
	/* No identical-layout groups for this group even with --padded (the
	 * sweep's reference flavour beside the host's: its summary line
	 * quotes the placed cost, and the time goes to the host's codegen). */
	int no_layout;
};
int sb_measure_groups(const struct sb_config *cfg, const char *tool, struct sb_group *groups, size_t n_groups);

#endif

/* command.h: a measuring command as the session drives it, in the spirit
 * of selftests/bpf's `struct bench` (validate, setup, measure,
 * report_final): the command says what it measures and what its report
 * adds; the session owns the rest of the run. A new measuring command of
 * replica groups is one descriptor and its front end's options
 * (tests/fixtures/one_file_command.c is one, built and run by ctest
 * one_file_command):
 *
 *   static const struct sb_command lab = {.tool = "stubbench lab",
 *       .setup = lab_groups, .report_final = lab_report, ...};
 *   return sb_command_run(&lab, cfg, &ctx);
 *
 * sb_command_run opens the run's blocks log and records (--blocks,
 * --quiet-levels, --past-runs: session/records_policy.h) and closes them
 * after the ending, checks what every command checks (--plot's file
 * before anything is measured), calls validate, measures the groups setup made
 * together in the configuration's time (sb_measure_groups: the groups
 * share the session's budget, session/budget.h), or lets the command's
 * measure hook measure what is not replica groups, starts the session,
 * lets report_final set what its report adds (its answer, members, the
 * sections of its results) and ends with the one ending
 * (sb_session_finish).
 *
 * The descriptors: the sweep (session/sweep.c) and the lab (session/lab.c),
 * groups of replicas; diff (commands/diff.c), whose measure runs its total
 * then its parts, each step at its share of --time; annotate
 * (commands/annotate_run.c), whose measure runs its ablations; footprint
 * (footprint/footprint_run.c), whose setup pins the thread and whose
 * measure runs its placed copies; and the kernel run's modes, which
 * measure BPF programs through their driver in their measure hook
 * (kernel_commands/kernel_run.c: the built-in shapes; kernel_htab_run.c:
 * --shape=htab; kernel_obj_run.c: --obj, its kernel part then its twins). */
#ifndef STUBBENCH_COMMAND_H
#define STUBBENCH_COMMAND_H

#include <stddef.h>

#include "session/session.h"

struct sb_command {
	const char *tool;   /* "stubbench lab": its lines' prefix and its runs' tool */
	size_t max_groups;  /* the most groups setup may make */
	/* The command's own checks of cfg: 0, or SB_STATUS_USAGE after one
	 * line on stderr. NULL: none. */
	int (*validate)(const struct sb_config *cfg, void *ctx);
	/* Its groups into g[0..max_groups) (each with its arms and results,
	 * which outlive the run): how many, or -1 after one line (bad input:
	 * SB_STATUS_USAGE). NULL: no groups (measure makes its own arms). */
	int (*setup)(const struct sb_config *cfg, void *ctx, struct sb_group *g);
	/* Measures what setup made, for a command whose arms are not replica
	 * groups measured together in one step (the kernel's programs, diff's
	 * total then its parts): an SB_STATUS_* (or the command's own status,
	 * which report_final and finish_status read). The seconds come from
	 * cfg (its share is set by the session: session/budget.h). NULL: the
	 * session measures the groups together (sb_measure_groups). */
	int (*measure)(const struct sb_config *cfg, void *ctx, struct sb_group *g, size_t n);
	/* The status the ending is given for what measure returned (measured):
	 * 0 for a run the record of past runs remembers, non-zero for one
	 * reported but not remembered; or -1: no report (the command exits
	 * with measured, said on stderr already: the kernel's programs not
	 * loaded, a measurement that failed). NULL: measured, and no report
	 * for SB_STATUS_USAGE. */
	int (*ending_status)(int measured, void *ctx);
	/* What its report adds, set on s (answer, meta, after_report ...),
	 * and each group's results added as sections; rc: the measurement's
	 * status. */
	void (*report_final)(struct sb_session *s, struct sb_group *g, size_t n, void *ctx, int rc);
	/* The command's exit status from what measure returned (measured)
	 * and what the ending returned (finished). NULL: finished. */
	int (*finish_status)(int measured, int finished, void *ctx);
	/* Frees what setup made that the ending did not (NULL: nothing). */
	void (*cleanup)(void *ctx);
	/* Non-zero: the blocks kept while it measures are collected, and the
	 * ending gives its figures per core state (the session's blocks). */
	int collect_blocks;
};

/* Runs c with cfg and the command's own ctx. Returns the command's exit
 * status (SB_STATUS_*). */
int sb_command_run(const struct sb_command *c, const struct sb_config *cfg, void *ctx);

#endif

/* run_info.h: what every saved result says about how it was made: the
 * command line, when, on which kernel, from which source revision. */
#ifndef STUBBENCH_RUN_INFO_H
#define STUBBENCH_RUN_INFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sb_cell;
struct sb_config;
struct sb_doc;
struct sb_return_thunk;

/* Version of the JSON documents' layout; raised when a field changes
 * meaning or goes away (new fields do not raise it). */
#define SB_JSON_SCHEMA_VERSION 4

/* Remembers the command line (call once from main; argv must outlive the
 * run). Before that, the argv is empty. */
void sb_run_info_set_argv(int argc, char *const *argv);
void sb_run_info_argv(int *argc, char *const **argv);

/* The time now, UTC, ISO 8601 ("2026-12-01T05:48:12Z"). */
void sb_run_info_date(char *buf, size_t len);
/* The running kernel: "Linux 6.18.0 #1 SMP ..." (uname). */
void sb_run_info_kernel(char *buf, size_t len);
/* The source revision baked in at configure time, or "unknown". */
const char *sb_run_info_git(void);

/* How a result was made and how it is to be written: what every format's
 * reporter (src/output/formats.def) says about the run. */
struct sb_state_figures;

struct sb_output_meta {
	const char *tool;      /* "stubbench" or "stubbench lab" ... */
	const char *version;
	uint64_t seed;
	const char *shape;     /* NULL when not relevant */
	const char *name_suffix; /* appended to seed-format names, e.g. "-in-loop"; may be NULL */
	const struct sb_config *config; /* the effective options, written into JSON; may be NULL */
	/* The command's own members of the run's document, as data: fills
	 * object doc (json_doc.h), which the reporter writes where its format
	 * has a place for them (JSON: top-level members after the results),
	 * e.g. the kernel run's JIT check; may be NULL. */
	void (*members)(struct sb_doc *doc, const void *ctx);
	/* The same for result c's object (JSON: members after its figures),
	 * e.g. footprint's layout and copies; may be NULL. */
	void (*result_members)(struct sb_doc *doc, const struct sb_cell *c, const void *ctx);
	const void *members_ctx; /* passed to members and result_members */
	const struct sb_return_thunk *thunk; /* the host's return thunk and mitigations; may be NULL */
	/* What the CIs are known not to cover (a "# CIs:" line under the
	 * table, "ci_scope" in JSON); NULL: nothing to say. */
	const char *ci_scope;
	/* The key the record of past runs knows this measurement by
	 * (sb_past_runs_measurement); NULL: none. */
	const char *record_key;
	/* The table: a "# SECTION" line above its rows (the sweep's flavour
	 * and the return it executes); NULL: none. */
	const char *section;
	/* What the command could not measure and why, in one line ("private,
	 * hybrid in the kernel: ..."): "not_measured" in JSON, a line of the
	 * summary; NULL: it measured all it was asked. */
	const char *not_measured;
	/* How the kernel run's programs ran, where not as raw_tp programs
	 * ("perf_event programs, run by page faults: ..."): "kernel_driver" in
	 * JSON, a line of the summary; NULL: raw_tp with BPF_PROG_TEST_RUN. */
	const char *kernel_driver;
	/* The states of the core beside the run's blocks and its figures per
	 * state (state_figures.h): JSON's "core_state" on each result, the
	 * table's header line or rows per state, CSV's "core_state" column;
	 * NULL: the run did not classify its blocks. */
	const struct sb_state_figures *core_states;
};

#endif

/* config.h: sweep files (INI, parsed with libinih).
 *
 *   [sweep]
 *   variants = baseline, private, hybrid   ; or all
 *   batches  = 1 8 64 512 2048 4096
 *   time     = 8                           ; seconds for the whole sweep
 *   samples  = 0                           ; rounds per batch instead of time
 *   seed     = 1
 *   cpu      = 1                           ; omit for the last allowed core
 *   flavour  = host, seed001               ; the sweep's replicas (--flavour)
 *   [output]
 *   format   = json                        ; a format's name (format.h)
 */
#ifndef STUBBENCH_CONFIG_H
#define STUBBENCH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/parse.h"
#include "stubbench/sibling_names.h"

/* The longest line a config file may have, in characters (libinih's line
 * buffer; a longer line is an error naming it, never split). */
#define SB_CONFIG_MAX_LINE 197
/* The largest config file, in bytes (a sweep file is a few hundred). */
#define SB_CONFIG_MAX_BYTES (1u << 20)

struct sb_run_test_hooks;

/* Programs of a user's object (--prog) a run measures at most. */
#define SB_CONFIG_MAX_PROGS 8

/* The step of a measuring command a configuration is for: the share of
 * --time it takes (src/session/budget.c holds each one's fraction). */
enum sb_share {
	SB_SHARE_ALL,         /* the whole of --time: a command of one step */
	SB_SHARE_DIFF_TOTAL,  /* diff: OLD against NEW, when NEW's parts follow */
	SB_SHARE_DIFF_PARTS,  /* diff: NEW's parts, to the end of --time less their statistics */
	SB_SHARE_OBJ_KERNEL,  /* kernel --obj: the kernel's run, when twins of a private stack follow */
	SB_SHARE_OBJ_PRIVATE, /* kernel --obj: the twins against their de-privatized selves */
	SB_N_SHARES
};

/* What a measuring command measures, and for how long: the harness's
 * options (session.h: sb_session_run_opts) and the replicas' choice. */
struct sb_measure_config {
	const char *variants;    /* "all" or names */
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	double time_s;           /* wall time for the whole run; 0 with samples */
	/* The step this configuration is for and the parts it measures
	 * together (0: one): the session alone makes them the seconds the
	 * step measures for (src/session/budget.h). */
	enum sb_share share;
	size_t share_ways;
	uint64_t samples;        /* rounds per batch size instead of time_s (0: time_s) */
	uint64_t seed;
	uint64_t processes;      /* fresh processes per batch size (sb_run_opts.processes) */
	int cpu;                 /* -1: the last core of the allowed set */
	uint64_t states;         /* --states: placed copies each arm rotates among (0: none) */
	uint64_t placements;     /* --placements: random code placements per variant (0: none) */
	int padded;              /* --padded: each variant's padded baseline measured beside it */
	const char *shape;       /* --shape: "all", "per-run", "in-loop" (the kernel: also "htab") */
	const char *flavour;     /* --flavour: "seed001", "host" or both (default "host,seed001") */
	const char *thunk;       /* --thunk: the replicas' or twins' return thunk; NULL: the host's */
	const char *counters;    /* --counters=LIST; NULL: none */
	enum sb_sibling_mode sibling;      /* --sibling: the SMT sibling quiet, busy or both (sibling.h) */
	enum sb_sibling_load sibling_load; /* --sibling-load: spin or same */
	/* Set by the commands that measure code read from files (diff,
	 * annotate, kernel --obj's twins): sb_run_opts.contain. */
	int contain;
};

/* The kernel run's own (stubbench kernel). */
struct sb_kernel_config {
	uint64_t loads;          /* --loads: copies of the programs, each at its own address */
	const char *dump_dir;    /* --dump-jit=DIR; NULL: no dump */
	const char *obj;         /* --obj=FILE: a user's BPF object; NULL: the built-in programs */
	const char *progs[SB_CONFIG_MAX_PROGS]; /* --prog: its programs, the first the baseline */
	size_t n_progs;
};

/* How the run is reported (the session's ending, src/output). */
struct sb_output_config {
	const char *format;       /* the format's name (format.h: sb_format_find); NULL: the default */
	int verbose;
	int table;                /* --table: the full table and notes after the summary */
	const char *output;       /* --output=FILE: the report there, written whole; NULL: stdout */
	const char *host;         /* --host=NAME: the machine's name in the saved run; NULL: none */
	const char *plot;         /* --plot=FILE; NULL: none */
};

/* The files a run keeps beside its report, opened and closed by the
 * session alone (session/records_policy.h). */
struct sb_records_config {
	const char *blocks;       /* --blocks=FILE: every kept block as CSV (blocks_log.h) */
	const char *quiet_levels; /* --quiet-levels=FILE or "none"; NULL: the default record */
	const char *past_runs;    /* --past-runs=FILE or "none"; NULL: the default record */
};

/* The one run configuration of every measuring command, by concern: a
 * file takes the part it reads. A sweep file sets the measurement and the
 * output; the command line sets any (bench/cli.c); the run's front end
 * and the session read it (session.h). Strings are not owned (argv, or
 * kept by the loader). */
struct sb_config {
	struct sb_measure_config measure;
	struct sb_kernel_config kernel;
	struct sb_output_config out;
	struct sb_records_config records;
	/* The harness's test switches (harness.h; the command line takes them
	 * from the environment); NULL: none. */
	const struct sb_run_test_hooks *test;
};

/* The sweep's: with 128, the rare processes that sit in a slow state a
 * whole batch size long are drawn in a steadier share (measured:
 * results/amd-epyc-zen1-vm.md, results/amd-epyc-zen5-vm.md;
 * docs/fresh-processes.md). The kernel run, the lab and footprint name their own
 * (sb_subcommand.default_processes). */
#define SB_DEFAULT_PROCESSES 128
#define SB_MAX_PROCESSES 256
/* --states: re-rolled states per arm. The sweep (and sb_config_defaults)
 * uses SB_MAX_STATES: 1024 placements narrow the CIs of `vs base` for a
 * second of wall time; a command that names none (the lab, with 30 arms),
 * SB_DEFAULT_STATES. */
#define SB_DEFAULT_STATES 256
#define SB_MAX_STATES 1024
/* The kernel run's --loads: copies of the programs, each at a code address
 * of its own. */
#define SB_DEFAULT_LOADS 8

/* A --flavour list ("host", "seed001" or both, by commas or blanks): which
 * of the two it names. Returns 0, or -1 with err naming opt and the bad
 * word. */
int sb_config_parse_flavour(const char *opt, const char *value, int *seed, int *host, char *err, size_t errlen);

/* The built-in defaults (the same as configs/default.ini). */
void sb_config_defaults(struct sb_config *c);

/* Reads a file over c. Returns 0, or -1 with a message naming the file,
 * the line and the key: unknown section or key, bad value (an unknown
 * variant too), a key given twice, a line longer than SB_CONFIG_MAX_LINE,
 * a directory or an unreadable file. [output] format is kept as the name
 * it gives, for the caller to check with sb_format_find (the formats are
 * the output's, format.h). */
int sb_config_load(const char *path, struct sb_config *c, char *err, size_t errlen);

#endif

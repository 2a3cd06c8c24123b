/* cli.h: the options of stubbench and its subcommands, parsed in one place
 * so that every mode names bad input the same way (exit status 2). */
#ifndef STUBBENCH_BENCH_CLI_H
#define STUBBENCH_BENCH_CLI_H

#include <stdint.h>

#include "stubbench/config.h"
#include "stubbench/harness.h"
#include "stubbench/parse.h"
#include "stubbench/variant_arms.h"

#define EXIT_USAGE 2
#define SB_DEFAULT_STATES 256
#define SB_MAX_STATES 1024

enum sb_cli_mode { SB_MODE_REPLICAS, SB_MODE_LAB, SB_MODE_COMPARE, SB_MODE_PLOT, SB_MODE_FOOTPRINT };

struct sb_cli {
	enum sb_cli_mode mode;
	struct sb_config cfg;
	int verbose;
	int list;
	uint64_t calls;           /* --calls: no measurement */
	const char *counters;     /* --counters=LIST */
	const char *shape;        /* lab: per-run, in-loop or all */
	const char *plot;         /* lab: --plot=FILE */
	uint64_t placements;      /* --placements=K: K random code placements per variant */
	const char *metric;       /* compare: --metric=delta|cycles */
	const char *output;       /* plot: -o/--output=FILE */
	char **files;             /* compare, plot: the saved runs named */
	int n_files;
	uint64_t states;          /* --states=K: placed copies each arm rotates among (0: none) */
	int flavour_seed, flavour_host; /* --flavour=seed001,host: which flavours of the replicas */
	const char *thunk;        /* --thunk=NAME: the host flavour's return thunk instead of the host's */
	int help, version;
	/* footprint: --copies=LIST and --layout=LIST */
	uint64_t copies[SB_MAX_BATCHES];
	size_t n_copies;
	const char *layout;
};

/* Parses argv (argv[0] is the program or subcommand name). Returns 0, or
 * EXIT_USAGE after printing one line naming the bad input. */
int sb_cli_parse(int argc, char **argv, enum sb_cli_mode mode, struct sb_cli *cli);
void sb_cli_usage(FILE *f, enum sb_cli_mode mode);

/* Measures baseline (may be NULL) and others interleaved with the options
 * of cli: pins, sets up the private stacks, opens counters and markers,
 * runs, checks counters and guards. Returns 0, 1 on a failed check or run,
 * EXIT_USAGE on bad input. The cells of res point into arms, which must
 * outlive res; res must be freed with sb_results_free(). */
int sb_measure_group(const struct sb_cli *cli, const struct sb_variant *baseline,
		     const struct sb_variant *const *others, size_t n_others,
		     struct sb_variant_arms *arms, struct sb_results *res);

/* --plot=FILE of a run just measured, through the same writer as
 * `stubbench plot` (plot_command.c); says on stderr what it wrote or why
 * not. tool: "stubbench", "stubbench lab". Returns 0, or 1 when the plot
 * was not written. */
int sb_plot_results(const struct sb_results *r, const char *tool, const char *path);
/* Before measuring: --plot=*path must be a .png or .svg file that can be
 * written (else one line, returns EXIT_USAGE); without gnuplot it says so
 * and sets *path to NULL, and the run goes on. Returns 0 otherwise. */
int sb_plot_check_option(const char *tool, const char **path);

#endif

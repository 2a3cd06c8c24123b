/* cli.h: the one command line of every stubbench program.
 *
 * Options come in groups, each owned by the family that uses it (in the
 * spirit of argp's children): a group lists its options and has one parser
 * that stores their values. A subcommand is a list of groups and an entry
 * function; a program is its own command (what runs without a subcommand)
 * and a table of subcommands. sb_cli_main() dispatches, parses argv with
 * the one getopt_long loop of the project, answers --help and --version,
 * and calls the entry. Bad input: one line naming it, exit status 2.
 * docs/command-line.md says how to add a subcommand. */
#ifndef STUBBENCH_BENCH_CLI_H
#define STUBBENCH_BENCH_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "stubbench/config.h"
#include "harness/harness.h"
#include "base/error.h"
#include "harness/variant_arms.h"

#define EXIT_USAGE SB_STATUS_USAGE
#define SB_CLI_MAX_GROUPS 16

/* The values of the shared groups (sb_cli_*_group below). A subcommand's
 * own group keeps its values where its entry function reads them. */
struct sb_cli {
	const char *prog;         /* "stubbench", "stubbench lab", "stubbench-gbench" */
	struct sb_config cfg;     /* every option's value (config.h) */
	int time_given, samples_given;
	/* The operands (arguments that are not options), for a subcommand
	 * that takes them (compare: the saved runs). */
	int n_operands;
	char **operands;
	/* Arguments handed on untouched (the subcommand's passthrough prefix). */
	int n_passthrough;
	char **passthrough;
};

struct sb_cli_option {
	const char *name;  /* long name, without "--" */
	const char *arg;   /* the value's name in --help ("LIST"); NULL: a flag */
	int key;           /* handed to the group's parser */
	const char *help;  /* '\n' starts an indented continuation line; %B: the
			    * default batches, %T: the return thunks --thunk takes,
			    * %F: the formats and what each writes, %S: the
			    * subcommand's default --states */
};
/* A one-letter name is a short option (-o FILE); give the long form its
 * own entry with the same key. */

/* A family of options with one parser. parse stores option key's value
 * (arg is NULL for a flag) and returns 0, or -1 with err naming the option
 * and the value. finish, when set, runs after every option was parsed
 * (also when none of the group's was given) to check them together. */
struct sb_cli_group {
	const char *title;
	const struct sb_cli_option *options; /* ends with {NULL} */
	int (*parse)(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen);
	int (*finish)(struct sb_cli *cli, char *err, size_t errlen);
	/* The words option takes, ", "-separated, for the shell's completion
	 * (cli_dump.c); NULL (or no function): none listed. */
	const char *(*values)(const char *option);
};

struct sb_subcommand {
	const char *name;        /* "lab"; NULL: the program's own command */
	const char *summary;     /* its --help; the first line also in the program's */
	const struct sb_cli_group *groups[SB_CLI_MAX_GROUPS]; /* NULL-terminated */
	const char *epilog;      /* printed after the options by --help, or NULL */
	/* The operands it takes, as --help shows them ("A.json B.json"); NULL:
	 * none, and an operand is bad input. The entry checks their number. */
	const char *operands;
	/* Arguments starting with this go to cli->passthrough, not to the
	 * parser (stubbench-gbench: "--benchmark_"). */
	const char *passthrough_prefix;
	/* --states when not given (0: SB_DEFAULT_STATES). */
	uint64_t default_states;
	/* --processes when not given (0: SB_DEFAULT_PROCESSES, the sweep's). */
	uint64_t default_processes;
	/* --time when not given (0: the sweep's, 8 s). */
	double default_time_s;
	/* --padded when neither it nor --no-padded is given (0: off). */
	int default_padded;
	int (*run)(struct sb_cli *cli);
};

/* One row of a program's subcommand table. cmd is NULL when the part that
 * provides it was not built (a weak reference); part then names the CMake
 * option that builds it. */
struct sb_cli_slot {
	const char *name;
	const struct sb_subcommand *cmd;
	const char *part;
};

struct sb_program {
	const char *name;                 /* "stubbench" */
	const struct sb_subcommand *own;  /* runs without a subcommand */
	const struct sb_cli_slot *subs;   /* ends with {NULL}; may be NULL */
};

/* Dispatches argv[1] to a subcommand (or the program's own command),
 * parses, and runs. Returns the exit status. */
int sb_cli_main(const struct sb_program *p, int argc, char **argv);

/* The shared groups. */
extern const struct sb_cli_group sb_cli_batch_group;     /* --batch */
extern const struct sb_cli_group sb_cli_cpu_group;       /* --cpu */
extern const struct sb_cli_group sb_cli_sweep_group;     /* --time, --samples, --seed, --format, --verbose */
extern const struct sb_cli_group sb_cli_config_group;    /* --config */
extern const struct sb_cli_group sb_cli_plot_group;      /* --plot */
extern const struct sb_cli_group sb_cli_variant_group;   /* --variant */
extern const struct sb_cli_group sb_cli_shape_group;     /* --shape */
extern const struct sb_cli_group sb_cli_counters_group;  /* --counters */
extern const struct sb_cli_group sb_cli_placements_group; /* --placements, --states */
extern const struct sb_cli_group sb_cli_sibling_group;   /* --sibling, --sibling-load */

/* The subcommands of stubbench (bench/stubbench.c holds the table). */
extern const struct sb_subcommand sb_sweep_command; /* the replica sweep: stubbench [OPTIONS] */
extern const struct sb_subcommand sb_lab_command;
extern const struct sb_subcommand sb_compare_command;
extern const struct sb_subcommand sb_plot_command;
extern const struct sb_subcommand sb_report_command;
extern const struct sb_subcommand sb_footprint_command;

#endif

/* diff_command.c: "stubbench diff OLD NEW": its options and --help; the
 * command is the library's (diff.h, docs/diff.md). */
#include <stdio.h>

#include "cli.h"
#include "commands/diff.h"

static struct sb_diff_options opts;

enum { K_MEASURE, K_NO_PARTS, K_GLOBAL };

static int parse_diff(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == K_GLOBAL) {
		if (opts.n_globals == SB_DIFF_MAX_GLOBALS) {
			snprintf(err, errlen, "--global: more than %d", SB_DIFF_MAX_GLOBALS);
			return -1;
		}
		opts.globals[opts.n_globals++] = arg;
		return 0;
	}
	*(key == K_MEASURE ? &opts.measure_identical : &opts.total_only) = 1;
	return 0;
}

static const struct sb_cli_group diff_group = {
	.title = "Diff",
	.options = (const struct sb_cli_option[]){
		{"measure", NULL, K_MEASURE, "measure OLD and NEW even when their code is the same (addresses\n"
					     "masked): the run's own noise floor"},
		{"global", "NAME=VALUE", K_GLOBAL, "put VALUE in the global NAME of both twins (their memory is\n"
						   "zeroed: a loop bound read there is 0); NAME from the files'\n"
						   "'# global' lines (kernel --obj --dump-jit), or 0xKADDR[+OFF];\n"
						   "repeatable"},
		{"no-parts", NULL, K_NO_PARTS, "measure OLD and NEW only, not each part of the change by\n"
					       "ablation (annotate): narrower CIs for the total in the same time"},
		{NULL},
	},
	.parse = parse_diff,
};

static int run_diff(struct sb_cli *cli)
{
	if (cli->n_operands != 2) {
		fprintf(stderr, "stubbench diff: needs OLD and NEW (see --help)\n");
		return EXIT_USAGE;
	}
	opts.old_files = cli->operands[0];
	opts.new_files = cli->operands[1];
	return sb_diff_run(&cli->cfg, &opts);
}

const struct sb_subcommand sb_diff_command = {
	.name = "diff",
	.summary = "Measures what a change to a JIT image costs: twins of OLD and NEW, two JIT images of\n"
		   "one program, at identical layout; the cost per run and the changed\n"
		   "instructions. OLD, NEW: FILE[,FILE...] (the main prog first): --dump-jit's .bin or .lst,\n"
		   "a listing like the seeds', or bpftool prog dump jited PROG opcodes. docs/diff.md.",
	.operands = "OLD NEW",
	.groups = {&diff_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sibling_group,
		   &sb_cli_sweep_group, &sb_cli_config_group},
	.epilog = "exit status: 0 measured (or no change), 1 a failed run or check, 2 bad option, a file\n"
		  "that cannot be read, images with no function in common, or code no twin can be made of\n",
	.default_states = SB_MAX_STATES,
	/* OLD, NEW and two ablations per part share the run. */
	.default_time_s = 30,
	.run = run_diff,
};

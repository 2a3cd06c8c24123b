/* annotate_command.c: "stubbench annotate --variant=NAME": its options and
 * --help; the command is the library's (annotate.h, docs/annotate.md). */
#include <stdio.h>

#include "cli.h"
#include "commands/annotate_run.h"

static struct sb_annotate_options opts = {.variant = "private"};

enum { K_VARIANT, K_FROM };

static int parse_annotate(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (!*arg) {
		snprintf(err, errlen, "--%s: empty", key == K_VARIANT ? "variant" : "from-blocks");
		return -1;
	}
	*(key == K_VARIANT ? &opts.variant : &opts.from_blocks) = arg;
	return 0;
}

static const struct sb_cli_group annotate_group = {
	.title = "Annotate",
	.options = (const struct sb_cli_option[]){
		{"variant", "NAME", K_VARIANT, "the variant to annotate against its baseline (default private;\n"
					       "host-private for the host flavour)"},
		{"from-blocks", "FILE", K_FROM, "measure nothing: the figures from FILE, the --blocks log of an\n"
						"annotate run of the same variant (-: standard input)"},
		{NULL},
	},
	.parse = parse_annotate,
};

static int run_annotate(struct sb_cli *cli)
{
	return sb_annotate_run(&cli->cfg, &opts);
}

const struct sb_subcommand sb_annotate_command = {
	.name = "annotate",
	.summary = "A variant's listing with what each instruction it adds to its baseline costs, as\n"
		   "perf annotate would print it, without a PMU: each part (r9 load, gs add, each\n"
		   "push/pop r9 pair, the r9 frame accesses, any other added instruction) NOPed and\n"
		   "removed, every arm at the same placements; docs/annotate.md.",
	.groups = {&annotate_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sibling_group,
		   &sb_cli_sweep_group,
		   &sb_cli_config_group, &sb_cli_placements_group},
	.default_processes = 4,
	.default_time_s = 60,
	.run = run_annotate,
};

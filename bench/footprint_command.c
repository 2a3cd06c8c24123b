/* footprint_command.c: `stubbench footprint`, cost per call vs placed
 * copies: its options (--copies, --layout) and the run in the library
 * (footprint_run.h). */
#include "cli.h"
#include "footprint/footprint.h"
#include "footprint/footprint_run.h"

/* The footprint group's values. */
static struct sb_footprint_options fp = {{1, 10, 100, 1000, 10000}, 5, "packed,spread"};

enum { K_COPIES, K_LAYOUT };

static int parse_footprint(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)cli;
	if (key == K_COPIES)
		return sb_parse_batches("--copies", arg, fp.copies, &fp.n_copies, err, errlen);
	int want[SB_FP_N_LAYOUTS];
	if (sb_fp_layout_parse(arg, want, err, errlen) != 0)
		return -1;
	fp.layout = arg;
	return 0;
}

static const struct sb_cli_group footprint_group = {
	.title = "Footprint",
	.options = (const struct sb_cli_option[]){
		{"copies", "LIST", K_COPIES, "copies of each variant (default 1,10,100,1000,10000)"},
		{"layout", "LIST", K_LAYOUT, "packed: back to back in 2 MiB regions, huge pages where the system\n"
					     "gives them (as bpf_prog_pack); spread: one copy per 4 KiB page\n"
					     "(as module_alloc before it); default both"},
		{NULL},
	},
	.parse = parse_footprint,
};

static int run_footprint(struct sb_cli *cli)
{
	return sb_footprint_run(&cli->cfg, &fp);
}

const struct sb_subcommand sb_footprint_command = {
	.name = "footprint",
	.summary = "Cost per call vs placed copies, packed or spread.\n"
		   "Calls N placed copies of each variant round-robin (each call runs another copy) and\n"
		   "reports core cycles per call, and the cost the private stack adds, as N grows.\n"
		   "--variant: per-run variants, the first is the baseline (default\n"
		   "twin-per-run-baseline,twin-per-run-private); --format: one that names each result by\n"
		   "its key (the common JSON and CSV: a result per layout, copies and variant).",
	.groups = {&footprint_group, &sb_cli_variant_group, &sb_cli_cpu_group, &sb_cli_sweep_group,
		   &sb_cli_plot_group},
	.epilog = "Every copy is named in /tmp/perf-<pid>.map for perf.\n",
	.default_processes = 8,
	.run = run_footprint,
};

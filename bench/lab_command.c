/* lab_command.c: "stubbench lab", the codegen lab: its options (shared
 * groups only) and the run in the library (lab_run.h). */
#include "cli.h"
#include "session/lab_run.h"

static int run_lab(struct sb_cli *cli)
{
	return sb_lab_run(&cli->cfg);
}

const struct sb_subcommand sb_lab_command = {
	.name = "lab",
	.summary = "The codegen lab: alternative private-stack sequences.\n"
		   "Measures baseline, the mainline private stack and the alternative sequences\n"
		   "(reload, callee-saved, spill-once; ret, rethunk, call-depth and SRSO returns).",
	.groups = {&sb_cli_shape_group, &sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_sibling_group,
		   &sb_cli_sweep_group,
		   &sb_cli_config_group, &sb_cli_placements_group, &sb_cli_plot_group},
	/* Its 60 variants' copies make each fork dearer; 8, as the kernel run. */
	.default_processes = 8,
	/* Ten groups of six arms: 8 s left the large batches without blocks. */
	.default_time_s = 16,
	.run = run_lab,
};

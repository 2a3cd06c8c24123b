/* stubbench: the program and its subcommands. A subcommand of a part that
 * may be left out of the build (CMake STUBBENCH_KERNEL...) is a weak
 * reference: NULL when the part was not built, and the command line then
 * says so. docs/command-line.md says how to add one. */
#include <stddef.h>

#include "cli.h"

extern const struct sb_subcommand sb_kernel_command __attribute__((weak));
extern const struct sb_subcommand sb_deprivatize_command __attribute__((weak));
extern const struct sb_subcommand sb_diff_command __attribute__((weak));
extern const struct sb_subcommand sb_annotate_command __attribute__((weak));

static const struct sb_cli_slot subcommands[] = {
	{"lab", &sb_lab_command, NULL},
	{"compare", &sb_compare_command, NULL},
	{"plot", &sb_plot_command, NULL},
	{"report", &sb_report_command, NULL},
	{"footprint", &sb_footprint_command, NULL},
	{"kernel", &sb_kernel_command, "STUBBENCH_KERNEL"},
	{"deprivatize", &sb_deprivatize_command, "STUBBENCH_DEPRIVATIZE"},
	{"diff", &sb_diff_command, "STUBBENCH_DEPRIVATIZE"},
	{"annotate", &sb_annotate_command, "STUBBENCH_DEPRIVATIZE"},
	{NULL, NULL, NULL},
};

int main(int argc, char **argv)
{
	static const struct sb_program stubbench = {"stubbench", &sb_sweep_command, subcommands};
	return sb_cli_main(&stubbench, argc, argv);
}

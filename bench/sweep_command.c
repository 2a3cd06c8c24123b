/* sweep_command.c: stubbench without a subcommand, the replica sweep: its
 * options (--list, --calls, --flavour, --thunk) and the run in the library
 * (sweep_run.h). */
#include <string.h>

#include "cli.h"
#include "base/mitigations.h"
#include "session/sweep_run.h"

/* The sweep's own options that are not part of the run configuration. */
static struct sb_sweep_options sweep;

enum { K_LIST, K_CALLS, K_FLAVOUR, K_THUNK };

static int parse_sweep_own(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	if (key == K_LIST) {
		sweep.list = 1;
		return 0;
	}
	if (key == K_FLAVOUR) {
		int seed, host; /* checked here, read by the run from cfg.measure.flavour */
		if (sb_config_parse_flavour("--flavour", arg, &seed, &host, err, errlen))
			return -1;
		cli->cfg.measure.flavour = arg;
		return 0;
	}
	if (key == K_THUNK) {
		if (sb_thunk_check_name("--thunk", arg, err, errlen) != 0)
			return -1;
		cli->cfg.measure.thunk = arg;
		return 0;
	}
	return sb_parse_calls("--calls", arg, &sweep.calls, err, errlen);
}

static const char *flavour_names(const char *option)
{
	return strcmp(option, "flavour") == 0 ? "host, seed001" : NULL;
}

static const struct sb_cli_group sweep_group = {
	.title = "Replicas",
	.options = (const struct sb_cli_option[]){
		{"list", NULL, K_LIST, "print the variants and the listings they reproduce"},
		{"calls", "N", K_CALLS, "no measurement: call each main prog N times, check its counter"},
		{"flavour", "LIST", K_FLAVOUR, "host (the seed's programs as this kernel JITs them, returning\n"
					       "through the replica of its return thunk), seed001 (the seed's\n"
					       "July 2024 codegen, plain ret), or both (default: host,seed001;\n"
					       "each flavour against its own baseline, in processes of its own)"},
		{"thunk", "NAME", K_THUNK, "with --flavour=host: return through this thunk's replica instead\n"
					   "of the host's: %T"},
		{NULL},
	},
	.parse = parse_sweep_own,
	.values = flavour_names,
};

static int run_sweep(struct sb_cli *cli)
{
	return sb_sweep_run(&cli->cfg, &sweep);
}

const struct sb_subcommand sb_sweep_command = {
	.summary = "Measures the replicas of the BPF JIT's private-stack codegen, interleaved.",
	.groups = {&sb_cli_variant_group, &sweep_group, &sb_cli_counters_group, &sb_cli_batch_group,
		   &sb_cli_cpu_group, &sb_cli_sibling_group,
		   &sb_cli_sweep_group, &sb_cli_config_group, &sb_cli_placements_group,
		   &sb_cli_plot_group},
	/* 1024 placements narrow the CIs of `vs base` for a second of wall time
	 * (measured: results/amd-epyc-zen3-vm.md); the lab, with 60 variants,
	 * keeps 256. */
	.default_states = SB_MAX_STATES,
	.epilog = "exit status (each subcommand's --help gives its own):\n"
		  "  0    measured, every check passed\n"
		  "  1    an error or a failed check (a counter off, guard words overwritten, a JIT\n"
		  "       mismatch), measured anyway where it could be\n"
		  "  2    bad input (an option, a value, a file: one line names it), or a part not built\n"
		  "  3-6  stubbench kernel: 3 no CAP_BPF/CAP_SYS_ADMIN, 4 no BPF JIT, 5 the programs\n"
		  "       cannot be run, 6 measured in part (no private stack from this kernel)\n"
		  "  130  interrupted (SIGINT, SIGTERM)\n",
	/* The codegen at identical layout leads the summary: the padded
	 * baselines are measured unless --no-padded. */
	.default_padded = 1,
	.run = run_sweep,
};

/* kernel_command.c: `stubbench kernel`, the kernel-side confirmation run:
 * its options, checked together, and one call into the library
 * (kernel_run.h: the built-in shapes, --shape=htab, --probe;
 * kernel_commands.h: --obj). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "kernel_commands.h"
#include "stubbench/config.h"
#include "jit/dump.h"
#include "kernel_commands/kernel_run.h"
#include "kernel/loader.h"
#include "base/mitigations.h"
#include "stubbench/parse.h"

enum { K_SHAPE, K_DUMP, K_LOADS, K_OBJ, K_PROG, K_THUNK, K_PROBE, K_DRIVER };

/* What the kernel group keeps of its parsing: the plan of --shape and
 * --variant (checked here, read again by the run), whether --loads was
 * given, --probe, --driver, and the storage of --prog's names. */
static struct sb_kernel_plan plan = {.shapes = {1, 1}};
static int loads_given;
static int probe_only; /* --probe */
static int driver_given; /* --driver */
static struct sb_kernel_run_options run_options = {.driver = SB_KERNEL_DRIVER_AUTO};
static char *prog_list;
static char **prog_items;

static int parse_progs(struct sb_config *cfg, const char *arg, char *err, size_t errlen)
{
	cfg->kernel.n_progs = 0;
	free(prog_list);
	free(prog_items);
	int n = sb_parse_names("--prog", arg, &prog_list, &prog_items, err, errlen);
	if (n < 0)
		return -1;
	if (n > SB_CONFIG_MAX_PROGS) {
		snprintf(err, errlen, "--prog: more than %d programs", SB_CONFIG_MAX_PROGS);
		return -1;
	}
	for (int i = 0; i < n; i++)
		cfg->kernel.progs[cfg->kernel.n_progs++] = prog_items[i];
	if (cfg->kernel.n_progs == 0) {
		snprintf(err, errlen, "--prog: no program named");
		return -1;
	}
	return 0;
}

static int parse_kernel(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	struct sb_config *cfg = &cli->cfg;
	if (key == K_SHAPE) {
		if (sb_kernel_plan_shape(&plan, arg, err, errlen) != 0)
			return -1;
		cfg->measure.shape = arg;
		return 0;
	}
	if (key == K_THUNK) {
		if (sb_thunk_check_name("--thunk", arg, err, errlen) != 0)
			return -1;
		cfg->measure.thunk = arg;
		return 0;
	}
	if (key == K_OBJ || key == K_DUMP) {
		if (!*arg) {
			snprintf(err, errlen, "%s", key == K_OBJ ? "--obj: empty file name" : "--dump-jit: empty directory name");
			return -1;
		}
		/* The dump's directory made (or found writable) before anything
		 * is loaded or measured, in every mode. */
		if (key == K_DUMP && sb_jit_dump_prepare(arg, err, errlen) != 0)
			return -1; /* err names --dump-jit */
		*(key == K_OBJ ? &cfg->kernel.obj : &cfg->kernel.dump_dir) = arg;
		return 0;
	}
	if (key == K_PROG)
		return parse_progs(cfg, arg, err, errlen);
	if (key == K_PROBE) {
		probe_only = 1;
		return 0;
	}
	if (key == K_DRIVER) {
		driver_given = 1;
		if (strcmp(arg, "auto") == 0)
			run_options.driver = SB_KERNEL_DRIVER_AUTO;
		else if (strcmp(arg, "raw_tp") == 0)
			run_options.driver = SB_DRIVER_RAW_TP;
		else if (strcmp(arg, "perf_event") == 0)
			run_options.driver = SB_DRIVER_PERF_EVENT;
		else {
			snprintf(err, errlen, "--driver: unknown driver '%s' (auto, raw_tp, perf_event)", arg);
			return -1;
		}
		return 0;
	}
	uint64_t k;
	if (sb_parse_u64("--loads", arg, 1, &k, err, errlen) != 0)
		return -1;
	if (k > SB_KERNEL_MAX_LOADS) {
		snprintf(err, errlen, "--loads: %llu is more than %d", (unsigned long long)k, SB_KERNEL_MAX_LOADS);
		return -1;
	}
	cfg->kernel.loads = k;
	loads_given = 1;
	return 0;
}

/* The options checked together, and the plan taken from them. */
static int finish_kernel(struct sb_cli *cli, char *err, size_t errlen)
{
	const struct sb_config *cfg = &cli->cfg;
	if (plan.htab && (loads_given || cfg->kernel.obj || strcmp(cfg->measure.variants, "all") != 0)) {
		snprintf(err, errlen, "--shape=htab takes no %s (it runs its own baseline and private programs, "
			 "loaded once)", loads_given ? "--loads" : cfg->kernel.obj ? "--obj" : "--variant");
		return -1;
	}
	if (probe_only && driver_given) {
		snprintf(err, errlen, "--driver: not with --probe (the probe loads every program type itself)");
		return -1;
	}
	if (!cfg->kernel.obj != !cfg->kernel.n_progs) {
		snprintf(err, errlen, "%s", cfg->kernel.obj ? "--obj needs --prog=NAME[,NAME...]" : "--prog needs --obj=FILE");
		return -1;
	}
	if (sb_kernel_plan_variants(&plan, cfg->measure.variants, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < cfg->measure.n_batches; i++)
		if (cfg->measure.batches[i] > SB_KERNEL_MAX_BATCH) {
			snprintf(err, errlen, "--batch: %llu is above the maximum %u for BPF programs "
				 "(the verifier walks every iteration)",
				 (unsigned long long)cfg->measure.batches[i], SB_KERNEL_MAX_BATCH);
			return -1;
		}
	if (cfg->out.plot && (plan.htab || cfg->kernel.obj)) {
		snprintf(err, errlen, "--plot: not with --shape=htab or --obj (save --format=json and use stubbench plot)");
		return -1;
	}
	return 0;
}

/* The words of --shape and --driver, for completion. */
static const char *kernel_values(const char *option)
{
	if (strcmp(option, "shape") == 0)
		return "per-run, in-loop, all, htab";
	return strcmp(option, "driver") == 0 ? "auto, raw_tp, perf_event" : NULL;
}

static const struct sb_cli_group kernel_group = {
	.title = "Kernel",
	.options = (const struct sb_cli_option[]){
		{"shape", "S", K_SHAPE, "per-run (seed 001: r9 set up every iteration), in-loop (seed 003:\n"
					"once per run), or all (default: both); htab: seed 003's v1 map-helper\n"
					"program, raw_tp (private stack) vs syscall (none) driver, no twins"},
		{"dump-jit", "DIR", K_DUMP, "write every JITed function: DIR/<prog>.<func>.bin and .lst"},
		{"loads", "K", K_LOADS, "load the programs K times (at most 8), each copy at its own code\n"
					"address; every cell is measured over all loads, block by block,\n"
					"and its CI resamples loads, then blocks (default 8)"},
		{"obj", "FILE", K_OBJ, "a BPF object of your own (libbpf): its --prog programs run with\n"
				       "BPF_PROG_TEST_RUN at each batch (a batch_iters read-only global,\n"
				       "if any, set per batch); the first program is the baseline"},
		{"prog", "NAME[,NAME...]", K_PROG, "the programs of --obj to run"},
		{"probe", NULL, K_PROBE, "only say which program types and stack shapes this kernel gives\n"
					 "a private stack (their JIT read back), then exit"},
		{"driver", "NAME", K_DRIVER, "raw_tp: BPF_PROG_TEST_RUN; perf_event: the programs loaded as\n"
					     "perf_event programs, each run by a page fault; auto (default):\n"
					     "raw_tp, or perf_event where only that type gets a private stack\n"
					     "(every mode: the shapes, htab, --obj; not with --probe)"},
		{"thunk", "NAME", K_THUNK, "the twins return through this thunk's replica instead of the one\n"
					   "the JIT's returns reach, to see what the twins would cost there:\n%T"},
		{NULL},
	},
	.parse = parse_kernel,
	.finish = finish_kernel,
	.values = kernel_values,
};

/* --probe, --obj (run in this process), or the run of --shape. */
static int run_kernel(struct sb_cli *cli)
{
	if (probe_only) {
		/* Nothing is measured: a file of a measurement would be ignored. */
		const char *ignored = cli->cfg.records.blocks ? "--blocks" : cli->cfg.out.plot ? "--plot"
				      : cli->cfg.kernel.dump_dir ? "--dump-jit" : cli->cfg.kernel.obj ? "--obj" : NULL;
		if (ignored) {
			fprintf(stderr, "stubbench kernel: %s does not apply with --probe (nothing is measured)\n",
				ignored);
			return EXIT_USAGE;
		}
		return sb_kernel_probe_run(&cli->cfg.out);
	}
	/* Each mode is a descriptor: sb_command_run opens the blocks log and
	 * records around it (session/records_policy.h). */
	if (cli->cfg.kernel.obj) {
		/* --obj runs in this process. */
		cli->cfg.measure.processes = 1;
		return sb_kernel_interrupted_or(sb_kernel_obj_run(&cli->cfg, run_options.driver));
	}
	return sb_kernel_run(&cli->cfg, &run_options);
}

const struct sb_subcommand sb_kernel_command = {
	.name = "kernel",
	.summary = "The kernel-side run: BPF programs against their twins.\n"
		   "Loads the seeds' BPF programs, checks their JIT against the twins, and measures\n"
		   "them (BPF_PROG_TEST_RUN) beside the twins, interleaved.",
	.groups = {&sb_cli_variant_group, &kernel_group, &sb_cli_batch_group, &sb_cli_cpu_group,
		   &sb_cli_sweep_group, &sb_cli_config_group, &sb_cli_plot_group},
	.epilog = "exit status: 0 ok, 1 error or JIT mismatch, 2 bad input, 3 no CAP_BPF/CAP_SYS_ADMIN,\n"
		  "  4 no BPF JIT, 5 BPF_PROG_TEST_RUN refused, 6 measured in part: the kernel gave the\n"
		  "  programs no private stack (the rest measured; the line on stderr says why), 130 interrupted\n",
	/* Its CIs are set by the 8 loads; 8 processes met the coverage bar
	 * (results/amd-epyc-zen3-vm.md), 64 add 4 s. */
	.default_processes = 8,
	/* Its setup (loading 8 copies of the programs, placing the twins)
	 * takes about 3 s of the wall time, its 48 processes 2 more. */
	.default_time_s = 16,
	.run = run_kernel,
};

/* cli.c: option parsing for every mode; see cli.h. */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/parse.h"
#include "stubbench/thunks.h"

void sb_cli_usage(FILE *f, enum sb_cli_mode mode)
{
	if (mode == SB_MODE_COMPARE) {
		fprintf(f,
			"usage: stubbench compare A.json B.json [--metric=delta|cycles]\n"
			"Compares two saved runs (stubbench, lab or kernel --format=json): per variant\n"
			"and batch, A, B and the change with a 95 %% CI; '*' where the CIs do not overlap.\n"
			"\n"
			"  --metric=M       delta (default): %% vs the baseline of the same run, change in\n"
			"                   percentage points; cycles: core cycles per iteration, change in %%\n"
			"exit status: 0 compared, 2 bad option or a file that cannot be read or parsed\n");
		return;
	}
	if (mode == SB_MODE_PLOT) {
		fprintf(f,
			"usage: stubbench plot RUN.json -o FILE.png|FILE.svg\n"
			"Plots a saved run (stubbench, lab or kernel --format=json) with gnuplot; the\n"
			"gnuplot script FILE.gp and data FILE.dat are written beside the image.\n"
			"exit status: 0 written, 1 gnuplot missing or failed, 2 bad option or a file\n"
			"that cannot be read or parsed\n");
		return;
	}
	if (mode == SB_MODE_LAB)
		fprintf(f,
			"usage: stubbench lab [OPTIONS]\n"
			"Measures baseline, the mainline private stack and the alternative sequences\n"
			"(reload, callee-saved, spill-once; ret, rethunk, call-depth and SRSO returns).\n"
			"\n"
			"  --shape=SHAPE    per-run, in-loop or all (default)\n"
			"  --plot=FILE      cost vs batch size per alternative and shape (.svg or .png, gnuplot)\n");
	else
		fprintf(f,
			"usage: stubbench [OPTIONS]\n"
			"       stubbench lab [OPTIONS]     (codegen lab: stubbench lab --help)\n"
			"       stubbench kernel [OPTIONS]  (kernel-side run: stubbench kernel --help)\n"
			"       stubbench compare A.json B.json, stubbench plot RUN.json -o FILE.png\n"
			"       stubbench footprint [OPTIONS]  (cost vs placed copies: stubbench footprint --help)\n"
			"Measures the replicas of the BPF JIT's private-stack codegen, interleaved.\n"
			"\n"
			"  --variant=LIST   baseline, private, hybrid or all (default); comma-separated;\n"
			"                   the seeds' no-private-stack and private-stack work too\n"
			"  --counters=LIST  perf_event counters per variant and batch, e.g.\n"
			"                   cycles,instructions,branches,context-switches (libpfm4 names)\n"
			"  --list           print the variants and the listings they reproduce\n"
			"  --calls=N        no measurement: call each main prog N times, check its counter\n"
			"  --plot=FILE      cost and delta vs batch per variant (.svg or .png, gnuplot;\n"
			"                   FILE.gp and FILE.dat beside it)\n"
			"  --flavour=LIST   seed001 (default: the seed's July 2024 codegen), host (the same\n"
			"                   programs as this kernel JITs them, returning through the replica\n"
			"                   of its return thunk), or both: seed001,host\n"
			"  --thunk=NAME     with --flavour=host: return through this thunk's replica instead\n"
			"                   of the host's: its_return_thunk, srso_return_thunk,\n"
			"                   srso_alias_return_thunk, retbleed_return_thunk,\n"
			"                   call_depth_return_thunk or ret\n");
	fprintf(f,
		"  --batch=LIST     iterations per sample (default 1,8,64,512,2048,4096)\n"
		"  --cpu=N          pin to CPU N (default: the last core of the allowed set)\n"
		"  --time=SECONDS   time for the whole sweep (default 8)\n"
		"  --samples=N      rounds per batch size instead of --time\n"
		"  --seed=N         seed of the random delays and the bootstrap (default 1)\n"
		"  --format=FMT     table (default), seed, json, csv or gbench (Google Benchmark's JSON)\n"
		"  --config=FILE    read a sweep file (configs/*.ini); flags override it\n"
		"  --placements=K   measure every variant at K random code placements and report\n"
		"                   the spread over placements (K x variants <= 31 arms)\n"
		"  --states=K       re-rolled states per arm: each block runs the next of K copies\n"
		"                   of the code at random placements (default 256; 0: the\n"
		"                   program's own code only), at a random stack offset\n"
		"  --verbose        say what the timer probe chose and why, per-batch details\n"
		"  --help, --version\n");
}

enum { OPT_VARIANT = 256, OPT_BATCH, OPT_CPU, OPT_TIME, OPT_SAMPLES, OPT_SEED, OPT_FORMAT,
       OPT_CONFIG, OPT_VERBOSE, OPT_LIST, OPT_CALLS, OPT_HELP, OPT_VERSION, OPT_COUNTERS,
       OPT_SHAPE, OPT_PLOT, OPT_PLACEMENTS, OPT_METRIC, OPT_OUTPUT, OPT_STATES, OPT_COPIES, OPT_LAYOUT,
       OPT_FLAVOUR, OPT_THUNK };

static const struct option long_opts[] = {
	{"variant", required_argument, NULL, OPT_VARIANT},
	{"batch", required_argument, NULL, OPT_BATCH},
	{"cpu", required_argument, NULL, OPT_CPU},
	{"time", required_argument, NULL, OPT_TIME},
	{"samples", required_argument, NULL, OPT_SAMPLES},
	{"seed", required_argument, NULL, OPT_SEED},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"config", required_argument, NULL, OPT_CONFIG},
	{"verbose", no_argument, NULL, OPT_VERBOSE},
	{"list", no_argument, NULL, OPT_LIST},
	{"calls", required_argument, NULL, OPT_CALLS},
	{"counters", required_argument, NULL, OPT_COUNTERS},
	{"shape", required_argument, NULL, OPT_SHAPE},
	{"plot", required_argument, NULL, OPT_PLOT},
	{"placements", required_argument, NULL, OPT_PLACEMENTS},
	{"metric", required_argument, NULL, OPT_METRIC},
	{"output", required_argument, NULL, OPT_OUTPUT},
	{"states", required_argument, NULL, OPT_STATES},
	{"copies", required_argument, NULL, OPT_COPIES},
	{"layout", required_argument, NULL, OPT_LAYOUT},
	{"flavour", required_argument, NULL, OPT_FLAVOUR},
	{"thunk", required_argument, NULL, OPT_THUNK},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{NULL, 0, NULL, 0},
};

/* Options that belong to one mode only. */
static int allowed(int opt, enum sb_cli_mode mode)
{
	/* Saved runs: their own options only. */
	if (mode == SB_MODE_COMPARE || mode == SB_MODE_PLOT)
		return opt == OPT_HELP || opt == OPT_VERSION || (opt == OPT_METRIC && mode == SB_MODE_COMPARE) ||
		       (opt == OPT_OUTPUT && mode == SB_MODE_PLOT);
	if (mode == SB_MODE_FOOTPRINT)
		return opt != OPT_LIST && opt != OPT_CALLS && opt != OPT_COUNTERS && opt != OPT_SHAPE &&
		       opt != OPT_PLACEMENTS && opt != OPT_BATCH && opt != OPT_CONFIG && opt != OPT_METRIC &&
		       opt != OPT_OUTPUT && opt != OPT_STATES;
	switch (opt) {
	case OPT_COPIES:
	case OPT_LAYOUT:
	case OPT_METRIC:
	case OPT_OUTPUT:
		return 0;
	case OPT_VARIANT:
	case OPT_LIST:
	case OPT_CALLS:
	case OPT_COUNTERS:
	case OPT_FLAVOUR:
	case OPT_THUNK:
		return mode == SB_MODE_REPLICAS;
	case OPT_PLOT:
		return mode == SB_MODE_LAB || mode == SB_MODE_REPLICAS;
	case OPT_SHAPE:
		return mode == SB_MODE_LAB;
	default:
		return 1;
	}
}

int sb_cli_parse(int argc, char **argv, enum sb_cli_mode mode, struct sb_cli *cli)
{
	char err[768];
	int c, time_given = 0, samples_given = 0;
	static const char *const progs[] = {"stubbench", "stubbench lab", "stubbench compare", "stubbench plot",
						    "stubbench footprint"};
	const char *prog = progs[mode];
	const char *shortopts = mode == SB_MODE_PLOT ? "-o:" : mode == SB_MODE_COMPARE ? "-" : "";

	memset(cli, 0, sizeof(*cli));
	cli->mode = mode;
	cli->shape = "all";
	cli->metric = "delta";
	/* Saved runs are named only to compare and plot, which free the list. */
	if (mode == SB_MODE_COMPARE || mode == SB_MODE_PLOT)
		cli->files = calloc((size_t)argc, sizeof(*cli->files));
	if ((mode == SB_MODE_COMPARE || mode == SB_MODE_PLOT) && !cli->files) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return EXIT_USAGE;
	}
	cli->states = SB_DEFAULT_STATES;
	cli->layout = "packed,spread";
	static const uint64_t default_copies[] = {1, 10, 100, 1000, 10000};
	memcpy(cli->copies, default_copies, sizeof(default_copies));
	cli->n_copies = sizeof(default_copies) / sizeof(default_copies[0]);
	cli->flavour_seed = 1;
	sb_config_defaults(&cli->cfg);
	opterr = 0;
	optind = 0;
	/* Pass 1: the config file, so that flags override it whatever their order. */
	while ((c = getopt_long(argc, argv, shortopts, long_opts, NULL)) != -1) {
		if (c == OPT_CONFIG && sb_config_load(optarg, &cli->cfg, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", prog, err);
			return EXIT_USAGE;
		}
	}
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, long_opts, NULL)) != -1) {
		int rc = 0;
		if (c == 'o')
			c = OPT_OUTPUT;
		if (c >= OPT_VARIANT && !allowed(c, mode)) {
			snprintf(err, sizeof(err), "option '%s' does not apply to %s", argv[optind - 1], prog);
			rc = -1;
			c = 0;
		}
		switch (c) {
		case 0:
			break;
		case 1: /* a saved run named on the command line (compare, plot) */
			cli->files[cli->n_files++] = optarg;
			break;
		case OPT_METRIC:
			if (strcmp(optarg, "delta") && strcmp(optarg, "cycles")) {
				snprintf(err, sizeof(err), "--metric: unknown metric '%s' (delta, cycles)", optarg);
				rc = -1;
			}
			cli->metric = optarg;
			break;
		case OPT_OUTPUT:
			if (!*optarg) {
				snprintf(err, sizeof(err), "-o: empty file name");
				rc = -1;
			}
			cli->output = optarg;
			break;
		case OPT_VARIANT:
			cli->cfg.variants = optarg;
			break;
		case OPT_BATCH:
			rc = sb_parse_batches("--batch", optarg, cli->cfg.batches, &cli->cfg.n_batches, err,
					      sizeof(err));
			break;
		case OPT_CPU:
			rc = sb_parse_cpu("--cpu", optarg, &cli->cfg.cpu, err, sizeof(err));
			break;
		case OPT_TIME:
			rc = sb_parse_seconds("--time", optarg, &cli->cfg.time_s, err, sizeof(err));
			time_given = 1;
			break;
		case OPT_SAMPLES:
			rc = sb_parse_samples("--samples", optarg, 1, &cli->cfg.samples, err, sizeof(err));
			samples_given = 1;
			break;
		case OPT_SEED:
			rc = sb_parse_u64("--seed", optarg, 0, &cli->cfg.seed, err, sizeof(err));
			break;
		case OPT_FORMAT:
			if (sb_format_parse(optarg, &cli->cfg.format) != 0) {
				snprintf(err, sizeof(err), "--format: unknown format '%s' (table, seed, json, csv, gbench)",
					 optarg);
				rc = -1;
			}
			break;
		case OPT_CONFIG:
			break;
		case OPT_VERBOSE:
			cli->verbose = 1;
			break;
		case OPT_LIST:
			cli->list = 1;
			break;
		case OPT_CALLS:
			rc = sb_parse_calls("--calls", optarg, &cli->calls, err, sizeof(err));
			break;
		case OPT_COUNTERS:
			cli->counters = optarg;
			break;
		case OPT_SHAPE:
			if (strcmp(optarg, "per-run") && strcmp(optarg, "in-loop") && strcmp(optarg, "all")) {
				snprintf(err, sizeof(err), "--shape: unknown shape '%s' (per-run, in-loop, all)",
					 optarg);
				rc = -1;
			}
			cli->shape = optarg;
			break;
		case OPT_PLOT:
			if (!*optarg) {
				snprintf(err, sizeof(err), "--plot: empty file name");
				rc = -1;
			}
			cli->plot = optarg;
			break;
		case OPT_PLACEMENTS:
			rc = sb_parse_u64("--placements", optarg, 1, &cli->placements, err, sizeof(err));
			if (rc == 0 && cli->placements > 16) {
				snprintf(err, sizeof(err), "--placements: '%s' is more than 16", optarg);
				rc = -1;
			}
			break;
		case OPT_STATES:
			rc = sb_parse_u64("--states", optarg, 0, &cli->states, err, sizeof(err));
			if (rc == 0 && cli->states > SB_MAX_STATES) {
				snprintf(err, sizeof(err), "--states: '%s' is more than %d", optarg, SB_MAX_STATES);
				rc = -1;
			}
			break;
		case OPT_COPIES:
			rc = sb_parse_batches("--copies", optarg, cli->copies, &cli->n_copies, err, sizeof(err));
			break;
		case OPT_LAYOUT:
			cli->layout = optarg;
			break;
		case OPT_FLAVOUR: {
			char buf[64];
			snprintf(buf, sizeof(buf), "%s", optarg);
			cli->flavour_seed = cli->flavour_host = 0;
			for (char *save = NULL, *t = strtok_r(buf, ",", &save); t && rc == 0; t = strtok_r(NULL, ",", &save)) {
				if (strcmp(t, "seed001") == 0)
					cli->flavour_seed = 1;
				else if (strcmp(t, "host") == 0)
					cli->flavour_host = 1;
				else {
					snprintf(err, sizeof(err), "--flavour: unknown flavour '%s' (seed001, host)", t);
					rc = -1;
				}
			}
			if (rc == 0 && !cli->flavour_seed && !cli->flavour_host) {
				snprintf(err, sizeof(err), "--flavour: empty list");
				rc = -1;
			}
			break;
		}
		case OPT_THUNK:
			if (strcmp(optarg, "ret") != 0 && sb_thunk_from_symbol(optarg) == SB_THUNK_UNKNOWN) {
				snprintf(err, sizeof(err), "--thunk: unknown return thunk '%s' (its_return_thunk, "
					 "srso_return_thunk, srso_alias_return_thunk, retbleed_return_thunk, "
					 "call_depth_return_thunk, ret)", optarg);
				rc = -1;
			}
			cli->thunk = optarg;
			break;
		case OPT_HELP:
			cli->help = 1;
			break;
		case OPT_VERSION:
			cli->version = 1;
			break;
		default:
			if (optopt >= OPT_VARIANT || optopt == 'o')
				snprintf(err, sizeof(err), "option '%s' needs a value", argv[optind - 1]);
			else
				snprintf(err, sizeof(err), "unknown option '%s'", argv[optind - 1]);
			rc = -1;
		}
		if (rc != 0) {
			fprintf(stderr, "%s: %s (see --help)\n", prog, err);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog, argv[optind]);
		return EXIT_USAGE;
	}
	if (time_given && samples_given) {
		fprintf(stderr, "%s: --time and --samples exclude each other\n", prog);
		return EXIT_USAGE;
	}
	if (time_given)
		cli->cfg.samples = 0;
	return 0;
}

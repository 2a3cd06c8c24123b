/* cli.c: the one option parser of every stubbench program, and the shared
 * option groups; see cli.h. */
#define _GNU_SOURCE
#include "cli.h"
#include "stubbench/registry.h"
#include "cli_dump.h"
#include "test_hooks.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/interrupt.h"
#include "base/mitigations.h"
#include "output/output.h"
#include "output/reporter.h"
#include "stubbench/format.h"
#include "answer/answer.h"
#include "output/out_file.h"
#include "stubbench/parse.h"
#include "counters/perf_counters.h"
#include "base/run_info.h"
#include "base/safe_file.h"

#ifndef SB_VERSION
#define SB_VERSION "unknown"
#endif

#define OPT_BASE 256
#define HELP_COLUMN 19
#define HELP_WIDTH 84 /* where a wrapped list (%T, %F) breaks its lines */

/* ---- the shared groups ---- */

enum { K_BATCH, K_CPU, K_TIME, K_SAMPLES, K_SEED, K_FORMAT, K_CONFIG, K_VERBOSE, K_PROCESSES, K_BLOCKS, K_QUIET, K_PAST, K_TABLE, K_OUTPUT, K_HOST };

static const char *default_batches(char *buf, size_t len)
{
	struct sb_config d;
	sb_config_defaults(&d);
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < d.measure.n_batches && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%llu", i ? "," : "",
					 (unsigned long long)d.measure.batches[i]);
	return buf;
}

static int parse_batch(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	return sb_parse_batches("--batch", arg, cli->cfg.measure.batches, &cli->cfg.measure.n_batches, err, errlen);
}

const struct sb_cli_group sb_cli_batch_group = {
	.title = "Batches",
	.options = (const struct sb_cli_option[]){
		{"batch", "LIST", K_BATCH, "iterations per sample, comma-separated (default %B)"},
		{NULL},
	},
	.parse = parse_batch,
};

static int parse_cpu(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	return sb_parse_cpu("--cpu", arg, &cli->cfg.measure.cpu, err, errlen);
}

const struct sb_cli_group sb_cli_cpu_group = {
	.title = "CPU",
	.options = (const struct sb_cli_option[]){
		{"cpu", "N", K_CPU, "pin to CPU N with hwloc (default: the last core of the allowed set)"},
		{NULL},
	},
	.parse = parse_cpu,
};

enum { K_SIBLING, K_SIBLING_LOAD };
static int sibling_load_given;

static int parse_sibling(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	if (key == K_SIBLING)
		return sb_sibling_parse_mode("--sibling", arg, &cli->cfg.measure.sibling, err, errlen);
	sibling_load_given = 1;
	return sb_sibling_parse_load("--sibling-load", arg, &cli->cfg.measure.sibling_load, err, errlen);
}

static int finish_sibling(struct sb_cli *cli, char *err, size_t errlen)
{
	if (!sibling_load_given || cli->cfg.measure.sibling != SB_SIBLING_QUIET)
		return 0;
	snprintf(err, errlen, "--sibling-load=%s: needs --sibling=busy or --sibling=both (the sibling is quiet)",
		 sb_sibling_load_name(cli->cfg.measure.sibling_load));
	return -1;
}

const struct sb_cli_group sb_cli_sibling_group = {
	.title = "SMT sibling (docs/sibling.md)",
	.options = (const struct sb_cli_option[]){
		{"sibling", "MODE", K_SIBLING, "the measured core's SMT sibling: quiet (nothing runs there on\n"
					       "purpose; default), busy (a load pinned there all run), both (blocks\n"
					       "take turns beside a quiet and a loaded sibling; --blocks records which)"},
		{"sibling-load", "LOAD", K_SIBLING_LOAD, "the load: spin (integer adds; default) or same (the measured\n"
							 "variants' code)"},
		{NULL},
	},
	.parse = parse_sibling,
	.finish = finish_sibling,
};

/* A record's option (--quiet-levels, --past-runs): a file name, or none. */
static int record_option(const char *opt, const char *arg, const char **dest, char *err, size_t errlen)
{
	struct stat st;
	if (!*arg) {
		snprintf(err, errlen, "%s: needs a file name, or none", opt);
		return -1;
	}
	if (strcmp(arg, "none") && stat(arg, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: '%s' is not a regular file", opt, arg);
		return -1;
	}
	/* A path the record could not be kept at: said now, not after the run. */
	char why[256];
	if (strcmp(arg, "none") && sb_safe_file_path_ok(arg, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "%s: %s", opt, why);
		return -1;
	}
	if (strcmp(arg, "none") && stat(arg, &st) != 0 && errno == ENAMETOOLONG) {
		snprintf(err, errlen, "%s: '%.60s...': %s", opt, arg, strerror(errno));
		return -1;
	}
	*dest = arg;
	return 0;
}

/* The inputs a run reads (its config file, operands, object, records):
 * --output must not name one of them, or the report would replace it. */
static const char *config_path;

static int same_file(const struct stat *a, const char *path)
{
	struct stat b;
	return path && stat(path, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* Each of a comma-separated list of files (diff's OLD, NEW). */
static const char *same_in_list(const struct stat *a, const char *list)
{
	static char item[4096];
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",");
		snprintf(item, sizeof(item), "%.*s", (int)n, p);
		if (same_file(a, item))
			return item;
		p += n + (p[n] == ',');
	}
	return NULL;
}

/* path's name with its directory resolved ("/real/dir/base"), or "" when
 * the directory does not resolve. */
static void canonical_name(const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
	buf[0] = 0;
	if (*base && realpath(dir, real))
		snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "", base);
}

/* Two paths name one file: the same device and inode where both exist, or
 * the same name once their directories are resolved (a file yet to be made). */
static int one_file(const char *a, const char *b)
{
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea != eb)
		return 0;
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	canonical_name(a, ca, sizeof(ca));
	canonical_name(b, cb, sizeof(cb));
	return ca[0] && strcmp(ca, cb) == 0;
}

/* A device or FIFO (--output=/dev/stdout) is written in place: shared freely. */
static int shared_in_place(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

/* The files a run writes: no two of them one file, and none of them a file
 * it reads (its config, object, operands), or one would replace the other
 * (--blocks over --output's new report, a record over the other record,
 * --plot's script over the config). Said naming both options. */
struct named_path {
	const char *opt, *path;
};

static int outputs_distinct(const struct sb_cli *cli, char *err, size_t errlen)
{
	const struct sb_config *c = &cli->cfg;
	struct named_path out[8], in[4];
	size_t n_out = 0, n_in = 0;
	static char plot_side[2][SB_SAFE_FILE_PATH_MAX + 8];
	if (c->out.output && !shared_in_place(c->out.output))
		out[n_out++] = (struct named_path){"--output", c->out.output};
	if (c->records.blocks)
		out[n_out++] = (struct named_path){"--blocks", c->records.blocks};
	if (c->out.plot) {
		out[n_out++] = (struct named_path){"--plot", c->out.plot};
		const char *dot = strrchr(c->out.plot, '.'), *slash = strrchr(c->out.plot, '/');
		size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - c->out.plot) : strlen(c->out.plot);
		snprintf(plot_side[0], sizeof(plot_side[0]), "%.*s.gp", (int)stem, c->out.plot);
		snprintf(plot_side[1], sizeof(plot_side[1]), "%.*s.dat", (int)stem, c->out.plot);
		out[n_out++] = (struct named_path){"--plot's script", plot_side[0]};
		out[n_out++] = (struct named_path){"--plot's data", plot_side[1]};
	}
	if (c->records.past_runs && strcmp(c->records.past_runs, "none"))
		out[n_out++] = (struct named_path){"--past-runs", c->records.past_runs};
	if (c->records.quiet_levels && strcmp(c->records.quiet_levels, "none"))
		out[n_out++] = (struct named_path){"--quiet-levels", c->records.quiet_levels};
	if (config_path)
		in[n_in++] = (struct named_path){"--config", config_path};
	if (c->kernel.obj)
		in[n_in++] = (struct named_path){"--obj", c->kernel.obj};
	for (size_t i = 0; i < n_out; i++) {
		for (size_t k = 0; k < i; k++)
			if (one_file(out[i].path, out[k].path)) {
				snprintf(err, errlen, "%s: '%.300s' is the same file as %s's '%.300s': each output of a "
					 "run is a file of its own", out[i].opt, out[i].path, out[k].opt, out[k].path);
				return -1;
			}
		const char *hit = NULL, *what = NULL;
		for (size_t k = 0; !hit && k < n_in; k++)
			if (one_file(out[i].path, in[k].path))
				hit = in[k].path, what = in[k].opt;
		for (int k = 0; !hit && k < cli->n_operands; k++) {
			struct stat st;
			if (stat(out[i].path, &st) == 0 && (hit = same_in_list(&st, cli->operands[k])))
				what = "an operand";
		}
		if (hit) {
			snprintf(err, errlen, "%s: '%.300s' is the same file as '%.300s' (%s), which this run reads: "
				 "%s", out[i].opt, out[i].path, hit, what,
				 strcmp(out[i].opt, "--output") == 0 ? "the report would replace it" : "refused");
			return -1;
		}
	}
	return 0;
}

/* name names a format (the output's table, format.h); else -1 with
 * "WHAT: unknown format 'NAME'; one of ..." in err. */
static int check_format(const char *what, const char *name, char *err, size_t errlen)
{
	if (sb_format_find(name))
		return 0;
	char names[256];
	snprintf(err, errlen, "%s: unknown format '%s'; one of %s", what, name,
		 sb_format_list(names, sizeof(names), 0));
	return -1;
}

static int parse_sweep(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	switch (key) {
	case K_TIME:
		cli->time_given = 1;
		return sb_parse_seconds("--time", arg, &cli->cfg.measure.time_s, err, errlen);
	case K_SAMPLES:
		cli->samples_given = 1;
		return sb_parse_samples("--samples", arg, 1, &cli->cfg.measure.samples, err, errlen);
	case K_SEED:
		return sb_parse_u64("--seed", arg, 0, &cli->cfg.measure.seed, err, errlen);
	case K_FORMAT:
		if (check_format("--format", arg, err, errlen) != 0)
			return -1;
		cli->cfg.out.format = arg;
		return 0;
	case K_VERBOSE:
		cli->cfg.out.verbose = 1;
		return 0;
	case K_TABLE:
		cli->cfg.out.table = 1;
		return 0;
	case K_OUTPUT:
		if (!*arg) {
			snprintf(err, errlen, "--output: needs a file name");
			return -1;
		}
		if (sb_out_check(arg, err, errlen) != 0) {
			char why[768];
			snprintf(why, sizeof(why), "--output: %s", err);
			snprintf(err, errlen, "%s", why);
			return -1;
		}
		cli->cfg.out.output = arg;
		return 0;
	case K_HOST: {
		size_t n = strlen(arg);
		if (!n || n > 64 || strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_") != n) {
			snprintf(err, errlen, "--host: '%.80s' is not a name of 1 to 64 letters, digits, '.', '-' or '_'",
				 arg);
			return -1;
		}
		cli->cfg.out.host = arg;
		return 0;
	}
	case K_PROCESSES:
		return sb_parse_u64_range("--processes", arg, 1, SB_MAX_PROCESSES, &cli->cfg.measure.processes, err,
					  errlen);
	case K_BLOCKS:
		if (!*arg) {
			snprintf(err, errlen, "--blocks: needs a file name");
			return -1;
		}
		cli->cfg.records.blocks = arg;
		return 0;
	case K_QUIET:
		return record_option("--quiet-levels", arg, &cli->cfg.records.quiet_levels, err, errlen);
	case K_PAST:
		return record_option("--past-runs", arg, &cli->cfg.records.past_runs, err, errlen);
	}
	return -1;
}

static int finish_sweep(struct sb_cli *cli, char *err, size_t errlen)
{
	if (cli->time_given && cli->samples_given) {
		snprintf(err, errlen, "--time and --samples exclude each other");
		return -1;
	}
	if (cli->time_given)
		cli->cfg.measure.samples = 0;
	return 0;
}

const struct sb_cli_group sb_cli_sweep_group = {
	.title = "Sweep",
	.options = (const struct sb_cli_option[]){
		{"time", "SECONDS", K_TIME, "the run's wall time, setup and fresh processes included\n"
					    "(default %W)"},
		{"samples", "N", K_SAMPLES, "rounds per batch size instead of --time"},
		{"seed", "N", K_SEED, "seed of the random delays and the bootstrap (default 1)"},
		{"processes", "P", K_PROCESSES, "split each batch size over P fresh processes, one after the\n"
						"other (at most 256); the CIs then add the spread between\n"
						"processes to the states' (default %P; 1: this process)"},
		{"format", "FMT", K_FORMAT, "the report's format: %F"},
		{"table", NULL, K_TABLE, "after the summary, the full table and the notes (the table\n"
					 "format prints the summary alone by default)"},
		{"output", "FILE", K_OUTPUT, "write the report (any format) to FILE instead of standard output,\n"
					     "whole (a temporary renamed over it); a device or FIFO in place"},
		{"host", "NAME", K_HOST, "the machine's name in the saved run (JSON \"host\"): stubbench\n"
					 "report gives each name rows of its own (default: none)"},
		{"verbose", NULL, K_VERBOSE, "the full table with the steady states (modes), what the timer\n"
					     "probe chose and why, per-batch details"},
		{"blocks", "FILE", K_BLOCKS, "write every kept block's cost per arm to FILE (CSV: time, part,\n"
					     "batch, process, state, canaries, arm, cycles per iteration)"},
		{"quiet-levels", "FILE", K_QUIET, "this machine's record of quiet canary levels, by which a run\n"
						"busy from start to end says so (default:\n"
						"$XDG_STATE_HOME/stubbench/quiet-levels, else\n"
						"~/.local/state/stubbench/quiet-levels; none: no record)"},
		{"past-runs", "FILE", K_PAST, "this machine's record of past runs' figures, from whose spread\n"
					      "each cell gets a 'next run' range beside its CI (default:\n"
					      "$XDG_STATE_HOME/stubbench/past-runs, else\n"
					      "~/.local/state/stubbench/past-runs; none: no record)"},
		{NULL},
	},
	.parse = parse_sweep,
	.finish = finish_sweep,
};

static int parse_config(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	config_path = arg;
	if (sb_config_load(arg, &cli->cfg, err, errlen) != 0)
		return -1;
	char what[PATH_MAX + 32];
	snprintf(what, sizeof(what), "%s: [output] format", arg);
	return check_format(what, cli->cfg.out.format, err, errlen);
}

/* sb_cli_main applies it before every other option, whatever the order. */
const struct sb_cli_group sb_cli_config_group = {
	.title = "Sweep file",
	.options = (const struct sb_cli_option[]){
		{"config", "FILE", K_CONFIG, "read a sweep file (configs/*.ini) first; flags override it"},
		{NULL},
	},
	.parse = parse_config,
};

static int parse_plot(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	if (!*arg) {
		snprintf(err, errlen, "--plot: empty file name");
		return -1;
	}
	cli->cfg.out.plot = arg;
	return 0;
}

const struct sb_cli_group sb_cli_plot_group = {
	.title = "Plot",
	.options = (const struct sb_cli_option[]){
		{"plot", "FILE", 0, "draw the results with gnuplot (.svg or .png; FILE.gp and FILE.dat\n"
				    "beside it)"},
		{NULL},
	},
	.parse = parse_plot,
};

static int parse_variant(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	if (!*arg) {
		snprintf(err, errlen, "--variant: empty list");
		return -1;
	}
	cli->cfg.measure.variants = arg;
	return 0;
}

/* "all" and every variant's name, for completion. */
static const char *variant_names(const char *option)
{
	(void)option;
	static char buf[16384];
	size_t used = (size_t)snprintf(buf, sizeof(buf), "all");
	for (size_t i = 0; i < sb_variant_count() && used + 80 < sizeof(buf); i++)
		used += (size_t)snprintf(buf + used, sizeof(buf) - used, ", %s", sb_variant_at(i)->name);
	return buf;
}

static const char *shape_names(const char *option)
{
	(void)option;
	return "per-run, in-loop, all";
}

const struct sb_cli_group sb_cli_variant_group = {
	.title = "Variants",
	.options = (const struct sb_cli_option[]){
		{"variant", "LIST", 0, "baseline, private, hybrid or all (default); comma-separated;\n"
				       "the seeds' no-private-stack and private-stack work too"},
		{NULL},
	},
	.parse = parse_variant,
	.values = variant_names,
};

static int parse_shape(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	(void)key;
	if (strcmp(arg, "per-run") && strcmp(arg, "in-loop") && strcmp(arg, "all")) {
		snprintf(err, errlen, "--shape: unknown shape '%s' (per-run, in-loop, all)", arg);
		return -1;
	}
	cli->cfg.measure.shape = arg;
	return 0;
}

const struct sb_cli_group sb_cli_shape_group = {
	.title = "Shapes",
	.options = (const struct sb_cli_option[]){
		{"shape", "SHAPE", 0, "per-run (seed 001: r9 set up every iteration), in-loop\n"
				      "(seed 003: once per run) or all (default)"},
		{NULL},
	},
	.parse = parse_shape,
	.values = shape_names,
};

static int parse_counters(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	char names[SB_MAX_COUNTERS][SB_COUNTER_NAME_MAX];
	(void)key;
	int n = sb_counters_parse(arg, names, SB_MAX_COUNTERS, err, errlen);
	if (n == 0)
		snprintf(err, errlen, "--counters: '%s' names no event", arg);
	if (n <= 0)
		return -1;
	cli->cfg.measure.counters = arg;
	return 0;
}

const struct sb_cli_group sb_cli_counters_group = {
	.title = "Counters",
	.options = (const struct sb_cli_option[]){
		{"counters", "LIST", 0, "perf_event counters per variant and batch, e.g.\n"
					"cycles,instructions,branches,context-switches (libpfm4 names)"},
		{NULL},
	},
	.parse = parse_counters,
};

enum { K_PLACEMENTS, K_STATES, K_PADDED, K_NO_PADDED };

static int parse_placements(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	if (key == K_PADDED || key == K_NO_PADDED) {
		cli->cfg.measure.padded = key == K_PADDED;
		return 0;
	}
	if (key == K_STATES) {
		if (sb_parse_u64("--states", arg, 0, &cli->cfg.measure.states, err, errlen) != 0)
			return -1;
		if (cli->cfg.measure.states > SB_MAX_STATES) {
			snprintf(err, errlen, "--states: '%s' is more than %d", arg, SB_MAX_STATES);
			return -1;
		}
		return 0;
	}
	if (sb_parse_u64("--placements", arg, 1, &cli->cfg.measure.placements, err, errlen) != 0)
		return -1;
	if (cli->cfg.measure.placements > 16) {
		snprintf(err, errlen, "--placements: '%s' is more than 16", arg);
		return -1;
	}
	return 0;
}

const struct sb_cli_group sb_cli_placements_group = {
	.title = "Code placement",
	.options = (const struct sb_cli_option[]){
		{"placements", "K", K_PLACEMENTS, "measure every variant at K random code placements and report\n"
						  "the spread over placements (K x variants <= 31 arms)"},
		{"states", "K", K_STATES, "re-rolled states per arm: each block runs the next of K copies\n"
					  "of the code at random placements (default %S; 0: the\n"
					  "program's own code only), at a random stack offset"},
		{"padded", NULL, K_PADDED, "the codegen and layout costs at identical layout (the sweep's\n"
					   "default): the baseline, each replica and its padded baseline\n"
					   "(the baseline's bytes with the kernel's NOPs, laid out as the\n"
					   "replica) each in a group of its own at one table of 16\n"
					   "placements, in the sweep's processes and its --time"},
		{"no-padded", NULL, K_NO_PADDED, "no identical-layout groups: the placed cost and the total\n"
						 "(copy j against copy j, layout included) alone"},
		{NULL},
	},
	.parse = parse_placements,
};

/* ---- help ---- */

/* Space-separated words from column col on, a new line instead of the
 * space where the next word would pass HELP_WIDTH. Returns the column. */
static int put_wrapped(FILE *f, const char *text, int col)
{
	for (int first = 1; *text; first = 0) {
		size_t word = strcspn(text, " ");
		if (!first && col + 1 + (int)word > HELP_WIDTH) {
			fprintf(f, "\n%-*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)word, text);
		text += word;
		text += strspn(text, " ");
	}
	return col;
}

static void print_option(FILE *f, const struct sb_subcommand *cmd, const struct sb_cli_option *o)
{
	char head[64], batches[128];
	if (!o->name[1])
		snprintf(head, sizeof(head), "  -%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(head, sizeof(head), "  --%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
	fprintf(f, "%-*s", HELP_COLUMN - 1, head);
	if (strlen(head) >= HELP_COLUMN - 1)
		fprintf(f, "\n%-*s", HELP_COLUMN - 1, "");
	fputc(' ', f);
	int col = HELP_COLUMN;
	for (const char *p = o->help; *p; p++) {
		if (*p == '\n') {
			fprintf(f, "\n%-*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (p[0] == '%' && p[1] == 'B') {
			col += fprintf(f, "%s", default_batches(batches, sizeof(batches)));
			p++;
		} else if (p[0] == '%' && p[1] == 'T') {
			col = put_wrapped(f, sb_thunk_choices(), col);
			p++;
		} else if (p[0] == '%' && p[1] == 'F') {
			char formats[512];
			col = put_wrapped(f, sb_format_choices(formats, sizeof(formats)), col);
			p++;
		} else if (p[0] == '%' && p[1] == 'P') {
			col += fprintf(f, "%llu", (unsigned long long)(cmd->default_processes ? cmd->default_processes
											     : SB_DEFAULT_PROCESSES));
			p++;
		} else if (p[0] == '%' && p[1] == 'W') {
			struct sb_config d;
			sb_config_defaults(&d);
			col += fprintf(f, "%g", cmd->default_time_s > 0 ? cmd->default_time_s : d.measure.time_s);
			p++;
		} else if (p[0] == '%' && p[1] == 'S') {
			col += fprintf(f, "%llu", (unsigned long long)(cmd->default_states ? cmd->default_states
										  : SB_DEFAULT_STATES));
			p++;
		} else {
			fputc(*p, f);
			col++;
		}
	}
	fputc('\n', f);
}

/* The first sentence of a summary, its lines joined and folded to the
 * widest help line, each line after the first indented by indent. */
static void first_sentence(FILE *f, const char *summary, int indent)
{
	char text[512];
	size_t n = 0;
	for (const char *c = summary; *c && n + 1 < sizeof(text); c++) {
		text[n++] = *c == '\n' ? ' ' : *c;
		if (*c == '.' && (c[1] == ' ' || c[1] == '\n' || c[1] == 0))
			break;
	}
	text[n] = 0;
	int width = SB_ANSWER_MAX_COLUMNS - indent, col = 0;
	for (char *w = strtok(text, " "); w; w = strtok(NULL, " ")) {
		int len = (int)strlen(w);
		if (col && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = 0;
		}
		fprintf(f, "%s%s", col ? " " : "", w);
		col += (col ? 1 : 0) + len;
	}
	fputc('\n', f);
}

static void usage(FILE *f, const struct sb_program *p, const struct sb_subcommand *cmd)
{
	if (cmd->name) {
		fprintf(f, "usage: %s %s [OPTIONS]%s%s\n%s\n", p->name, cmd->name, cmd->operands ? " " : "",
			cmd->operands ? cmd->operands : "", cmd->summary);
	} else {
		fprintf(f, "usage: %s [OPTIONS]\n", p->name);
		for (const struct sb_cli_slot *s = p->subs; s && s->name; s++) {
			char head[64];
			snprintf(head, sizeof(head), "%s %s [OPTIONS]%s%s", p->name, s->name,
				 s->cmd && s->cmd->operands ? " " : "", s->cmd && s->cmd->operands ? s->cmd->operands : "");
			fprintf(f, "       %s", head);
			if (strlen(head) >= 30)
				fprintf(f, "\n       ");
			fprintf(f, "%*s", strlen(head) >= 30 ? 31 : 31 - (int)strlen(head), "");
			if (s->cmd)
				first_sentence(f, s->cmd->summary, 38);
			else
				fprintf(f, "(not built: %s=OFF)\n", s->part);
		}
		fprintf(f, "%s\n", cmd->summary);
		if (p->subs)
			fprintf(f, "Each subcommand has its own --help.\n");
	}
	for (size_t g = 0; cmd->groups[g]; g++) {
		fprintf(f, "\n%s:\n", cmd->groups[g]->title);
		for (const struct sb_cli_option *o = cmd->groups[g]->options; o->name; o++)
			print_option(f, cmd, o);
	}
	fprintf(f, "\n  -h, --help, --version\n");
	if (cmd->epilog)
		fprintf(f, "\n%s", cmd->epilog);
}

/* ---- parsing ---- */

/* An option of the command line: which group's, which entry. */
struct opt_ref {
	const struct sb_cli_group *group;
	const struct sb_cli_option *opt;
};

enum { IDX_HELP = 0, IDX_VERSION = 1, IDX_FIRST_GROUP = 2 };

/* Does another command of the program take an option called name? */
static int known_elsewhere(const struct sb_program *p, const char *name)
{
	const struct sb_subcommand *cmds[64];
	size_t n = 0;
	cmds[n++] = p->own;
	for (const struct sb_cli_slot *s = p->subs; s && s->name && n < 64; s++)
		if (s->cmd)
			cmds[n++] = s->cmd;
	for (size_t c = 0; c < n; c++)
		for (size_t g = 0; cmds[c]->groups[g]; g++)
			for (const struct sb_cli_option *o = cmds[c]->groups[g]->options; o->name; o++)
				if (strcmp(o->name, name) == 0)
					return 1;
	return 0;
}

/* The edit distance of a and b (insertions, deletions, substitutions and
 * swaps of two neighbours), up to 64 characters each (longer: 64). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return 64;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			if (!i || !j) {
				d[i][j] = i + j;
				continue;
			}
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

/* A typo's nearest candidate: within a third of the word's length (at
 * least 1, at most 3 edits), or a word that starts with it; NULL none. */
static const char *nearest(const char *typo, const char *const *words, size_t n)
{
	const char *best = NULL;
	size_t best_d = 64, limit = strlen(typo) / 3;
	limit = limit < 1 ? 1 : limit > 3 ? 3 : limit;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(typo, words[i]);
		if (d < best_d) {
			best_d = d;
			best = words[i];
		}
	}
	return best && best_d <= limit ? best : NULL;
}

/* The option of cmd nearest to name (as written, without "--"). */
static const char *nearest_option(const struct sb_subcommand *cmd, const char *name)
{
	const char *words[256] = {"help", "version"};
	size_t n = 2;
	for (size_t g = 0; cmd->groups[g]; g++)
		for (const struct sb_cli_option *o = cmd->groups[g]->options; o->name && n < 256; o++)
			if (o->name[1])
				words[n++] = o->name;
	return nearest(name, words, n);
}

/* The subcommand of p nearest to word. */
static const char *nearest_subcommand(const struct sb_program *p, const char *word)
{
	const char *words[64];
	size_t n = 0;
	for (const struct sb_cli_slot *s = p->subs; s && s->name && n < 64; s++)
		words[n++] = s->name;
	return nearest(word, words, n);
}

/* The option's name as written, without "--" and "=VALUE". */
static void written_name(const char *arg, char *out, size_t len)
{
	while (*arg == '-')
		arg++;
	snprintf(out, len, "%.*s", (int)strcspn(arg, "="), arg);
}

/* An option as given, in order: its entry in the option table, its value. */
struct given {
	size_t idx;
	const char *arg;
};

/* The options given, applied: those that read a file first, so that flags
 * override the file; then every group's finish. Returns 0 or EXIT_USAGE
 * (said on stderr). */
static int apply_given(const struct sb_subcommand *cmd, struct sb_cli *cli, const struct opt_ref *refs,
		       const struct given *given, size_t n_given)
{
	char err[768];
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n_given; i++) {
			const struct opt_ref *r = &refs[given[i].idx];
			int reads_file = r->group == &sb_cli_config_group;
			if (reads_file != (pass == 0))
				continue;
			if (r->group->parse(cli, r->opt->key, given[i].arg, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s: %s\n", cli->prog, err);
				return EXIT_USAGE;
			}
		}
	for (size_t g = 0; cmd->groups[g]; g++)
		if (cmd->groups[g]->finish && cmd->groups[g]->finish(cli, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s\n", cli->prog, err);
			return EXIT_USAGE;
		}
	if (outputs_distinct(cli, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", cli->prog, err);
		return EXIT_USAGE;
	}
	return 0;
}

static int parse(const struct sb_program *p, const struct sb_subcommand *cmd, struct sb_cli *cli,
		 int argc, char **argv, int *help, int *version)
{
	size_t n_opts = 2;
	for (size_t g = 0; cmd->groups[g]; g++)
		for (const struct sb_cli_option *o = cmd->groups[g]->options; o->name; o++)
			n_opts++;
	struct option *longopts = calloc(n_opts + 1, sizeof(*longopts));
	struct opt_ref *refs = calloc(n_opts, sizeof(*refs));
	/* getopt's short options: ':' first (a missing value is reported as
	 * such), then one "x:" per letter. */
	char *shortopts = calloc(2 * n_opts + 2, 1);
	/* What was given, in order: applied after the loop, the options that
	 * read a file first, so that flags override the file. */
	struct given *given = calloc((size_t)argc + 1, sizeof(*given));
	char err[768], name[64];
	const char *near;
	int rc = 0, c, longindex, short_help = 1;
	size_t n_given = 0;
	if (!longopts || !refs || !given || !shortopts) {
		fprintf(stderr, "%s: out of memory\n", cli->prog);
		rc = 1;
		goto out;
	}
	longopts[IDX_HELP] = (struct option){"help", no_argument, NULL, OPT_BASE + IDX_HELP};
	longopts[IDX_VERSION] = (struct option){"version", no_argument, NULL, OPT_BASE + IDX_VERSION};
	size_t k = IDX_FIRST_GROUP, n_short = 0;
	shortopts[n_short++] = ':';
	for (size_t g = 0; cmd->groups[g]; g++)
		for (const struct sb_cli_option *o = cmd->groups[g]->options; o->name; o++, k++) {
			longopts[k] = (struct option){o->name, o->arg ? required_argument : no_argument,
						      NULL, OPT_BASE + (int)k};
			refs[k] = (struct opt_ref){cmd->groups[g], o};
			if (!o->name[1]) {
				short_help &= o->name[0] != 'h';
				shortopts[n_short++] = o->name[0];
				if (o->arg)
					shortopts[n_short++] = ':';
			}
		}
	if (short_help) /* -h is --help where no option of the command is -h */
		shortopts[n_short++] = 'h';

	opterr = 0;
	optind = 0;
	err[0] = '\0';
	while ((c = getopt_long(argc, argv, shortopts, longopts, &longindex)) != -1) {
		for (size_t i = IDX_FIRST_GROUP; c > 0 && c < OPT_BASE && i < n_opts; i++)
			if (refs[i].opt->name[0] == c && !refs[i].opt->name[1])
				c = OPT_BASE + (int)i; /* -o is --output */
		if (c >= OPT_BASE + IDX_FIRST_GROUP) {
			given[n_given++] = (struct given){(size_t)(c - OPT_BASE), optarg};
		} else if (c == OPT_BASE + IDX_HELP || (c == 'h' && short_help)) {
			*help = 1;
		} else if (c == OPT_BASE + IDX_VERSION) {
			*version = 1;
		} else {
			written_name(argv[optind - 1], name, sizeof(name));
			if (c == ':' && optopt > 0 && optopt < OPT_BASE)
				snprintf(err, sizeof(err), "option '-%c' needs a value", optopt);
			else if (c == ':')
				snprintf(err, sizeof(err), "option '--%s' needs a value", name);
			else if (optopt >= OPT_BASE)
				snprintf(err, sizeof(err), "option '--%s' takes no value", name);
			else if (known_elsewhere(p, name))
				snprintf(err, sizeof(err), "option '--%s' does not apply to %s", name, cli->prog);
			else if (argv[optind - 1][1] == '-' && (near = nearest_option(cmd, name)))
				snprintf(err, sizeof(err), "unknown option '%s': did you mean --%s?", argv[optind - 1],
					 near);
			else
				snprintf(err, sizeof(err), "unknown option '%s'", argv[optind - 1]);
			break;
		}
	}
	if (!err[0] && optind < argc && !cmd->operands && cmd == p->own &&
	    (near = nearest_subcommand(p, argv[optind])))
		snprintf(err, sizeof(err), "unknown subcommand '%s': did you mean '%s %s'?", argv[optind], p->name, near);
	else if (!err[0] && optind < argc && !cmd->operands)
		snprintf(err, sizeof(err), "unexpected argument '%s'", argv[optind]);
	if (!err[0]) {
		cli->operands = argv + optind;
		cli->n_operands = argc - optind;
	}
	if (err[0]) {
		fprintf(stderr, "%s: %s (see --help)\n", cli->prog, err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (*help || *version)
		goto out;
	rc = apply_given(cmd, cli, refs, given, n_given);
out:
	free(longopts);
	free(refs);
	free(given);
	free(shortopts);
	return rc;
}

/* Moves the arguments with cmd's passthrough prefix out of argv (keeping
 * argv[0] first in both); returns 0 or -1 when memory runs out. */
static int split_passthrough(const struct sb_subcommand *cmd, struct sb_cli *cli, int *argc, char **argv)
{
	if (!cmd->passthrough_prefix)
		return 0;
	size_t plen = strlen(cmd->passthrough_prefix);
	cli->passthrough = calloc((size_t)*argc + 1, sizeof(char *));
	if (!cli->passthrough)
		return -1;
	cli->passthrough[cli->n_passthrough++] = argv[0];
	int kept = 1;
	for (int i = 1; i < *argc; i++) {
		if (strncmp(argv[i], cmd->passthrough_prefix, plen) == 0)
			cli->passthrough[cli->n_passthrough++] = argv[i];
		else
			argv[kept++] = argv[i];
	}
	argv[kept] = NULL;
	*argc = kept;
	return 0;
}

int sb_cli_main(const struct sb_program *p, int argc, char **argv)
{
	const struct sb_subcommand *cmd = p->own;
	if (argc == 2 && strcmp(argv[1], SB_CLI_DUMP_OPTION) == 0) /* for the build, not in --help */
		return sb_cli_dump(stdout, p);
	sb_run_info_set_argv(argc, argv);
	static char prog[128]; /* kept: the check of stdout at exit names it */
	snprintf(prog, sizeof(prog), "%s", p->name);
	if (argc > 1)
		for (const struct sb_cli_slot *s = p->subs; s && s->name; s++) {
			if (strcmp(argv[1], s->name) != 0)
				continue;
			if (!s->cmd) {
				fprintf(stderr, "%s: '%s' was not built: the part %s was off when this "
						"build was configured (the configure step said why)\n",
					p->name, s->name, s->part);
				return EXIT_USAGE;
			}
			cmd = s->cmd;
			snprintf(prog, sizeof(prog), "%s %s", p->name, s->name);
			argc--;
			argv++;
			break;
		}

	sb_check_stdout_at_exit(prog);
	sb_exit_on_signals(prog);
	struct sb_cli cli;
	memset(&cli, 0, sizeof(cli));
	cli.prog = prog;
	sb_config_defaults(&cli.cfg);
	cli.cfg.test = sb_test_hooks_from_env();
	cli.cfg.measure.states = cmd->default_states ? cmd->default_states : SB_DEFAULT_STATES;
	if (cmd->default_processes)
		cli.cfg.measure.processes = cmd->default_processes;
	if (cmd->default_time_s > 0)
		cli.cfg.measure.time_s = cmd->default_time_s;
	cli.cfg.measure.padded = cmd->default_padded;
	if (split_passthrough(cmd, &cli, &argc, argv) != 0) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return 1;
	}
	int help = 0, version = 0;
	int rc = parse(p, cmd, &cli, argc, argv, &help, &version);
	if (rc == 0 && help)
		usage(stdout, p, cmd);
	else if (rc == 0 && version)
		printf("%s %s\n", p->name, SB_VERSION);
	else if (rc == 0)
		rc = cmd->run(&cli);
	free(cli.passthrough);
	return rc;
}

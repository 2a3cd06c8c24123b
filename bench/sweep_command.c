/* sweep_command.c: stubbench without a subcommand, the replica sweep:
 * byte-exact replicas of the BPF JIT's private-stack codegen, measured
 * interleaved, pinned and calibrated (see README.md). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "stubbench/config.h"
#include "stubbench/harness.h"
#include "stubbench/markers.h"
#include "stubbench/output.h"
#include "stubbench/run_plot.h"
#include "stubbench/session.h"
#include "stubbench/parse.h"
#include "stubbench/percpu.h"
#include "stubbench/return_thunks.h"
#include "stubbench/perf_counters.h"
#include "stubbench/pin.h"
#include "stubbench/run_info.h"
#include "stubbench/mitigations.h"
#include "stubbench/timer.h"
#include "stubbench/variant_arms.h"
#include "stubbench/registry.h"


/* The sweep's own options that are not part of the run configuration,
 * and which flavours cfg.flavour names. */
static struct {
	int list;
	uint64_t calls;                 /* --calls: no measurement */
	int flavour_seed, flavour_host; /* --flavour=seed001,host: which flavours of the replicas */
} sweep = {.flavour_seed = 1, .flavour_host = 1};

enum { K_LIST, K_CALLS, K_FLAVOUR, K_THUNK };

static void list_variants(void)
{
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		printf("%-22s %-18s [%s] %s\n", v->name, v->seed_name ? v->seed_name : "-",
		       sb_variant_family(v), v->description);
		printf("%-22s %-18s listing: %s\n", "", "", v->listing);
		printf("%-22s %-18s kernel:  %s; %s shape, %u instructions per iteration\n", "", "",
		       v->flavour, v->shape, v->insns_per_call);
	}
}

static int in_family(const struct sb_variant *v, const char *family)
{
	const char *f = sb_variant_family(v);
	return f && strcmp(f, family) == 0;
}

static int smoke_calls(const struct sb_variant *const *vs, size_t n, uint64_t calls)
{
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sb_variant *v = vs[i];
		uint64_t before = *v->counter;
		if (v->batch_iters) {
			*v->batch_iters = calls;
			v->main();
		} else {
			for (uint64_t k = 0; k < calls; k++)
				v->main();
		}
		uint64_t got = *v->counter - before;
		printf("%-12s iterations=%" PRIu64 " counter+=%" PRIu64 "%s\n", v->name, calls, got,
		       got == calls ? "" : "  MISMATCH");
		rc |= got != calls;
	}
	return rc;
}

/* The flavours' groups (--flavour): the host's (the seed replicas'
 * programs as this kernel JITs them, returning through the replica of its
 * return thunk) first, then the seed's (July 2024 codegen, plain ret) as
 * the reference. Each group has its own baseline and runs in fresh
 * processes of its own, which take turns with the other group's: the
 * seed's plain returns never run interleaved with the thunk's code, whose
 * return-stack games would raise their cost (results/amd-epyc-zen5-vm.md).
 * Variants of other families go with the seed's group. */
struct flavour_groups {
	const struct sb_variant *host[SB_MAX_ARMS], *seed[SB_MAX_ARMS];
	size_t n_host, n_seed;
};

static void split_flavours(const struct sb_variant *const *vs, size_t n, struct flavour_groups *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		int replica = in_family(vs[i], "replica");
		if (in_family(vs[i], "replica-host") || in_family(vs[i], "replica-host-padded")) {
			g->host[g->n_host++] = vs[i];
			continue;
		}
		if (sweep.flavour_seed || !replica)
			g->seed[g->n_seed++] = vs[i];
		if (!sweep.flavour_host || !replica)
			continue;
		struct sb_cell_key k;
		sb_variant_key(vs[i], &k);
		const struct sb_variant *h = sb_variant_of_family("replica-host", k.codegen, k.shape);
		if (h)
			g->host[g->n_host++] = h;
	}
}

/* The baseline of a group's variants, always measured as reference, and
 * the others without it. */
static const struct sb_variant *group_baseline(const char *family, const struct sb_variant **vs, size_t *n)
{
	const struct sb_variant *base = sb_variant_of_family(family, "baseline", "per-run");
	size_t m = 0;
	for (size_t i = 0; i < *n; i++)
		if (vs[i] != base)
			vs[m++] = vs[i];
	*n = m;
	return base;
}

static int parse_sweep_own(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	if (key == K_LIST) {
		sweep.list = 1;
		return 0;
	}
	if (key == K_FLAVOUR) {
		if (sb_config_parse_flavour("--flavour", arg, &sweep.flavour_seed, &sweep.flavour_host, err, errlen))
			return -1;
		cli->cfg.flavour = arg;
		return 0;
	}
	if (key == K_THUNK) {
		if (sb_thunk_check_name("--thunk", arg, err, errlen) != 0)
			return -1;
		cli->cfg.thunk = arg;
		return 0;
	}
	return sb_parse_calls("--calls", arg, &sweep.calls, err, errlen);
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
};

/* Each flavour's group against its own baseline, the host's first, in one
 * run whose processes take turns; one part per flavour, headed by the
 * flavour and the return it executes. */
static int measure_flavours(struct sb_cli *cli, struct flavour_groups *fg, const struct sb_return_thunk *thunk)
{
	static struct sb_results res[2];
	static struct sb_variant_arms arms[2];
	static char heading[2][256];
	struct sb_group gs[2];
	size_t n = 0;
	if (fg->n_host) {
		const struct sb_variant *b = group_baseline("replica-host", fg->host, &fg->n_host);
		gs[n] = (struct sb_group){.baseline = b, .others = fg->host, .n_others = fg->n_host,
					  .arms = &arms[n], .res = &res[n]};
		snprintf(heading[n++], sizeof(heading[0]), "flavour: host (%s), returns through %s's replica",
			 b ? b->flavour : "?", sb_thunk_name(sb_thunk_applied()));
	}
	if (fg->n_seed) {
		const struct sb_variant *b = group_baseline("replica", fg->seed, &fg->n_seed);
		gs[n] = (struct sb_group){.baseline = b, .others = fg->seed, .n_others = fg->n_seed,
					  .arms = &arms[n], .res = &res[n]};
		snprintf(heading[n++], sizeof(heading[0]), "flavour: seed001 (%s), returns with ret%s",
			 b ? b->flavour : "?", fg->n_host ? " (reference)" : "");
	}
	/* --time is for the whole sweep: the groups share it. */
	struct sb_config gcfg = cli->cfg;
	gcfg.time_s = cli->cfg.time_s / (double)(n ? n : 1);
	int rc = sb_measure_groups(&gcfg, cli->prog, gs, n);
	if (rc != EXIT_USAGE) {
		struct sb_session s;
		sb_session_init(&s, "stubbench", &cli->cfg);
		/* The host flavour behind a thunk whose code changes state over
		 * longer than a run: the CIs say so. */
		const char *note = fg->n_host ? sb_thunk_time_note(sb_thunk_applied()) : NULL;
		static char ci_scope[512];
		if (note)
			snprintf(ci_scope, sizeof(ci_scope), "the host flavour's: %s", note);
		s.meta.thunk = thunk;
		s.meta.ci_scope = note ? ci_scope : NULL;
		for (size_t g = 0; g < n; g++)
			sb_session_add_section(&s, &res[g], NULL, heading[g]);
		rc = sb_session_finish(&s, rc);
	}
	for (size_t g = 0; g < n; g++)
		sb_results_free(&res[g]);
	sb_percpu_thread_fini();
	return rc;
}

static int run_sweep(struct sb_cli *cli)
{
	char err[768];
	int rc;
	if (sweep.list) {
		list_variants();
		return 0;
	}
	/* The flavours: the command line's, a sweep file's, or the default. */
	if (sb_config_parse_flavour("flavour", cli->cfg.flavour, &sweep.flavour_seed, &sweep.flavour_host, err,
				    sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return EXIT_USAGE;
	}
	const struct sb_variant *vs[SB_MAX_ARMS];
	size_t n_vs;
	if (sb_variants_select(cli->cfg.variants, "replica", vs, SB_MAX_ARMS - 1, &n_vs, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return EXIT_USAGE;
	}
	if (sb_plot_check_option("stubbench", &cli->cfg.plot))
		return EXIT_USAGE;
	/* Where this kernel's returns go: no BPF here, so as sysfs implies it. */
	struct sb_return_thunk thunk;
	sb_return_thunk_from_sysfs(&thunk);
	if (cli->cfg.verbose)
		fprintf(stderr, "stubbench: returns of this kernel: %s (%s)\n", sb_thunk_name(thunk.thunk), thunk.how);
	/* The host flavour's thunk: the host's, or the one --thunk names (the
	 * output still names the host's). */
	struct sb_return_thunk chosen = thunk;
	const char *chosen_thunk = cli->cfg.thunk;
	if (chosen_thunk) {
		if (!sweep.flavour_host) {
			fprintf(stderr, "stubbench: --thunk needs --flavour=host (the seed's flavour returns with ret)\n");
			return EXIT_USAGE;
		}
		chosen.thunk = sb_thunk_from_name(chosen_thunk);
		snprintf(chosen.how, sizeof(chosen.how), "chosen with --thunk; this kernel's: %s",
			 sb_thunk_name(thunk.thunk));
		fprintf(stderr, "stubbench: host flavour: returns through the replica of %s (%s)\n",
			sb_thunk_name(chosen.thunk), chosen.how);
	}
	if (sweep.flavour_host)
		sb_session_aim_host_returns(&cli->cfg, "stubbench", &chosen);
	static struct flavour_groups fg;
	split_flavours(vs, n_vs, &fg);
	if (sweep.calls) {
		int cpu;
		if (sb_pin_thread(cli->cfg.cpu, &cpu, err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench: %s\n", err);
			return EXIT_USAGE;
		}
		if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench: %s\n", err);
			return 1;
		}
		rc = smoke_calls(fg.host, fg.n_host, sweep.calls) | smoke_calls(fg.seed, fg.n_seed, sweep.calls);
		if (sb_percpu_check_guards() != 0) {
			fprintf(stderr, "stubbench: private stack guard words were overwritten\n");
			rc = 1;
		}
		sb_percpu_thread_fini();
		return rc;
	}
	return measure_flavours(cli, &fg, &thunk);
}

const struct sb_subcommand sb_sweep_command = {
	.summary = "Measures the replicas of the BPF JIT's private-stack codegen, interleaved.",
	.groups = {&sb_cli_variant_group, &sweep_group, &sb_cli_counters_group, &sb_cli_batch_group,
		   &sb_cli_cpu_group, &sb_cli_sweep_group, &sb_cli_config_group, &sb_cli_placements_group,
		   &sb_cli_plot_group},
	/* 1024 placements narrow the CIs of `vs base` for a second of wall time
	 * (measured: results/amd-epyc-zen3-vm.md); the lab, with 60 variants,
	 * keeps 256. */
	.default_states = SB_MAX_STATES,
	.run = run_sweep,
};

/* sweep.c: the replica sweep; see sweep_run.h. */
#include "session/sweep_run.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "stats/block_table.h"
#include "stats/blocks_log.h"
#include "harness/harness.h"
#include "base/mitigations.h"
#include "variants/percpu.h"
#include "harness/pin.h"
#include "stubbench/registry.h"
#include "jit/return_thunks.h"
#include "plot/run_plot.h"
#include "session/command.h"
#include "session/session.h"
#include "harness/variant_arms.h"

#define TOOL "stubbench"

/* --list: each variant, the listing it reproduces and the kernel it stands for. */
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

/* Is v of the registry family family? */
static int in_family(const struct sb_variant *v, const char *family)
{
	const char *f = sb_variant_family(v);
	return f && strcmp(f, family) == 0;
}

/* --calls: each main prog called calls times, its counter checked; one
 * line per variant. Returns 1 when a counter missed calls. */
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

/* Which flavours cfg->measure.flavour names (sb_config_parse_flavour). */
struct flavours {
	int seed, host;
};

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

static void split_flavours(const struct sb_variant *const *vs, size_t n, struct flavours fl,
			   struct flavour_groups *g)
{
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < n; i++) {
		int replica = in_family(vs[i], "replica");
		if (in_family(vs[i], "replica-host") || in_family(vs[i], "replica-host-padded")) {
			g->host[g->n_host++] = vs[i];
			continue;
		}
		if (fl.seed || !replica)
			g->seed[g->n_seed++] = vs[i];
		if (!fl.host || !replica)
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

/* The sweep's own state across its steps. */
struct sweep_ctx {
	struct flavour_groups *fg;
	const struct sb_return_thunk *thunk;
	struct sb_results res[2];
	struct sb_variant_arms arms[2];
	char heading[2][256];
	char ci_scope[512];
	size_t n;
};

/* Each flavour's group against its own baseline, the host's first, in one
 * run whose processes take turns; one part per flavour, headed by the
 * flavour and the return it executes. */
static int sweep_setup(const struct sb_config *cfg, void *vctx, struct sb_group *gs)
{
	(void)cfg;
	struct sweep_ctx *c = vctx;
	struct flavour_groups *fg = c->fg;
	size_t n = 0;
	if (fg->n_host) {
		const struct sb_variant *b = group_baseline("replica-host", fg->host, &fg->n_host);
		gs[n] = (struct sb_group){.baseline = b, .others = fg->host, .n_others = fg->n_host,
					  .arms = &c->arms[n], .res = &c->res[n]};
		snprintf(c->heading[n++], sizeof(c->heading[0]), "flavour: host (%s), returns through %s's replica",
			 b ? b->flavour : "?", sb_thunk_name(sb_thunk_applied()));
	}
	if (fg->n_seed) {
		const struct sb_variant *b = group_baseline("replica", fg->seed, &fg->n_seed);
		gs[n] = (struct sb_group){.baseline = b, .others = fg->seed, .n_others = fg->n_seed,
					  .arms = &c->arms[n], .res = &c->res[n], .no_layout = fg->n_host > 0};
		snprintf(c->heading[n++], sizeof(c->heading[0]), "flavour: seed001 (%s), returns with ret%s",
			 b ? b->flavour : "?", fg->n_host ? " (reference)" : "");
	}
	c->n = n;
	return (int)n;
}

/* The sweep's report: the thunk its host flavour returns through, the CIs'
 * scope where that thunk's code changes state over longer than a run, a
 * section per flavour. */
static void sweep_report(struct sb_session *s, struct sb_group *gs, size_t n, void *vctx, int rc)
{
	(void)gs, (void)rc;
	struct sweep_ctx *c = vctx;
	const char *note = c->fg->n_host ? sb_thunk_time_note(sb_thunk_applied()) : NULL;
	if (note)
		snprintf(c->ci_scope, sizeof(c->ci_scope), "the host flavour's: %s", note);
	s->meta.thunk = c->thunk;
	s->meta.ci_scope = note ? c->ci_scope : NULL;
	for (size_t g = 0; g < n; g++)
		sb_session_add_section(s, &c->res[g], NULL, c->heading[g]);
}

static void sweep_cleanup(void *vctx)
{
	struct sweep_ctx *c = vctx;
	for (size_t g = 0; g < c->n; g++)
		sb_results_free(&c->res[g]);
}

static const struct sb_command sweep_command = {
	.tool = TOOL,
	.max_groups = 2,
	.setup = sweep_setup,
	.report_final = sweep_report,
	.cleanup = sweep_cleanup,
	.collect_blocks = 1,
};

/* The host flavour's thunk (--thunk, cfg->measure.thunk): the host's, or the one
 * --thunk names, said on stderr (the output still names the host's).
 * Returns 0, or SB_STATUS_USAGE after one line. */
static int choose_host_thunk(const struct sb_measure_config *cfg, struct flavours fl, const struct sb_return_thunk *host,
			     struct sb_return_thunk *chosen)
{
	*chosen = *host;
	if (!cfg->thunk)
		return 0;
	if (!fl.host) {
		fprintf(stderr, TOOL ": --thunk needs --flavour=host (the seed's flavour returns with ret)\n");
		return SB_STATUS_USAGE;
	}
	chosen->thunk = sb_thunk_from_name(cfg->thunk);
	snprintf(chosen->how, sizeof(chosen->how), "chosen with --thunk; this kernel's: %s", sb_thunk_name(host->thunk));
	fprintf(stderr, TOOL ": host flavour: returns through the replica of %s (%s)\n", sb_thunk_name(chosen->thunk),
		chosen->how);
	return 0;
}

/* --calls: the flavours' main progs called, pinned, with the private stacks set up. */
static int run_calls(const struct sb_measure_config *cfg, const struct flavour_groups *fg, uint64_t calls)
{
	char err[768];
	int cpu;
	if (sb_pin_thread(cfg->cpu, &cpu, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_FAILED;
	}
	int rc = smoke_calls(fg->host, fg->n_host, calls) | smoke_calls(fg->seed, fg->n_seed, calls);
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, TOOL ": private stack guard words were overwritten\n");
		rc = SB_STATUS_FAILED;
	}
	sb_percpu_thread_fini();
	return rc;
}

enum sb_status sb_sweep_run(const struct sb_config *run_cfg, const struct sb_sweep_options *o)
{
	char err[768];
	if (o->list) {
		list_variants();
		return SB_STATUS_OK;
	}
	struct sb_config cfg = *run_cfg;
	/* The flavours: the command line's, a sweep file's, or the default. */
	struct flavours fl;
	if (sb_config_parse_flavour("flavour", cfg.measure.flavour, &fl.seed, &fl.host, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	const struct sb_variant *vs[SB_MAX_ARMS];
	size_t n_vs;
	if (sb_variants_select(cfg.measure.variants, "replica", vs, SB_MAX_ARMS - 1, &n_vs, err, sizeof(err)) != 0) {
		fprintf(stderr, TOOL ": %s\n", err);
		return SB_STATUS_USAGE;
	}
	/* Where this kernel's returns go: no BPF here, so as sysfs implies it. */
	struct sb_return_thunk thunk, chosen;
	sb_return_thunk_from_sysfs(&thunk);
	if (cfg.out.verbose)
		fprintf(stderr, TOOL ": returns of this kernel: %s (%s)\n", sb_thunk_name(thunk.thunk), thunk.how);
	if (choose_host_thunk(&cfg.measure, fl, &thunk, &chosen) != 0)
		return SB_STATUS_USAGE;
	if (fl.host)
		sb_session_aim_host_returns(&cfg, TOOL, &chosen);
	static struct flavour_groups fg;
	split_flavours(vs, n_vs, fl, &fg);
	if (o->calls)
		return run_calls(&cfg.measure, &fg, o->calls);
	static struct sweep_ctx ctx;
	memset(&ctx, 0, sizeof(ctx));
	ctx.fg = &fg;
	ctx.thunk = &thunk;
	return (enum sb_status)sb_command_run(&sweep_command, &cfg, &ctx);
}

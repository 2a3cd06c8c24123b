/* kernel_command.c: `stubbench kernel`, the kernel-side confirmation run.
 *
 * Loads the programs of bench/bpf/private_stack_shapes.bpf.c once per batch
 * size, checks their JITed code against the twins (always), then for each
 * shape measures the kernel arms (BPF_PROG_TEST_RUN on one CPU, the empty
 * driver removed) and the twins (replica harness), interleaved like the
 * replica runs, and prints both and the side-by-side deltas. Every program
 * is unloaded on every way out; nothing is pinned. */
#include "stubbench/arms.h"
#include "stubbench/figure_checks.h"
#include "stubbench/jit_check.h"
#include "stubbench/kernel_report.h"
#include "stubbench/kernel_verdict.h"
#include "stubbench/loader.h"
#include "stubbench/probe.h"
#include "stubbench/private_stack_probe.h"
#include "stubbench/return_thunk_resolve.h"
#include "stubbench/signals.h"
#include "stubbench/twin_placement.h"
#include "stubbench/json_writer.h"
#include "kernel_commands.h"
#include "stubbench/htab.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "stubbench/config.h"
#include "stubbench/harness.h"
#include "stubbench/decode.h"
#include "stubbench/dump.h"
#include "stubbench/jit_read.h"
#include "stubbench/output.h"
#include "stubbench/parse.h"
#include "stubbench/run_plot.h"
#include "stubbench/session.h"
#include "stubbench/percpu.h"
#include "stubbench/placement.h"
#include "stubbench/return_thunks.h"
#include "stubbench/pin.h"
#include "stubbench/timer.h"
#include "stubbench/twin_variants.h"
#include "stubbench/variant_arms.h"
#include "stubbench/registry.h"
#include "stubbench/rng.h"

/* What the kernel run's CIs cover: the loads (its re-rolled states) and
 * the fresh processes of this one run. What moves whole runs is not in
 * them, so the run says so in every format and points to the next-run
 * interval drawn from several runs (measured:
 * results/intel-xeon-icelake-vm.md, results/amd-epyc-zen5-vm.md). */
#define SB_KERNEL_CI_SCOPE \
	"they resample the loads (and the --processes) of this one run; separate runs can differ by more: " \
	"before trusting a sign, quote the next-run interval of bench/reproducibility.py --kernel"

/* --loads: copies of the programs, each at a code address of its own. */
#define SB_MAX_COPIES SB_KERNEL_MAX_LOADS


enum { K_SHAPE, K_DUMP, K_LOADS, K_OBJ, K_PROG, K_THUNK, K_PROBE, K_DRIVER };

/* What the kernel run takes from the run configuration: which shapes
 * and variants it measures (from --shape and --variant). */
struct kernel_plan {
	const struct sb_config *cfg;
	int shapes[SB_N_SHAPES];
	int want[SB_N_KVARIANTS];
	int htab;  /* --shape=htab */
};

static int parse_shape(const char *s, int shapes[SB_N_SHAPES], int *htab, char *err, size_t errlen)
{
	shapes[0] = shapes[1] = 0;
	*htab = 0;
	if (strcmp(s, "htab") == 0)
		*htab = 1;
	else if (strcmp(s, "all") == 0)
		shapes[0] = shapes[1] = 1;
	else if (strcmp(s, "per-run") == 0)
		shapes[SB_SHAPE_PER_RUN] = 1;
	else if (strcmp(s, "in-loop") == 0)
		shapes[SB_SHAPE_IN_LOOP] = 1;
	else {
		snprintf(err, errlen, "--shape: unknown shape '%s' (per-run, in-loop, all, htab)", s);
		return -1;
	}
	return 0;
}

static int parse_variants(const char *s, int want[SB_N_KVARIANTS], char *err, size_t errlen)
{
	char *buf, **items;
	int n = sb_parse_names("--variant", s, &buf, &items, err, errlen);
	if (n < 0)
		return -1;
	memset(want, 0, SB_N_KVARIANTS * sizeof(int));
	int named[SB_N_KVARIANTS] = {0}, rc = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		const char *t = items[i];
		if (strcmp(t, "all") == 0) {
			for (int v = 0; v < SB_N_KVARIANTS; v++)
				want[v] = 1;
			continue;
		}
		int found = 0;
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			if (strcmp(t, sb_kernel_variant_name(v)) == 0 || strcmp(t, sb_kernel_variant_seed_name(v)) == 0) {
				if (named[v])
					snprintf(err, errlen, "--variant: '%s' names the variant %s again", t,
						 sb_kernel_variant_name(v));
				rc = named[v] ? -1 : 0;
				want[v] = named[v] = found = 1;
			}
		if (!found) {
			snprintf(err, errlen, "--variant: unknown variant '%s' (baseline, private, hybrid, all)", t);
			rc = -1;
		}
	}
	want[SB_KV_BASELINE] = 1;
	free(buf);
	free(items);
	return rc;
}

/* What the kernel group derives from the configuration (finish_kernel),
 * and what it keeps of its parsing: whether --loads was given, and the
 * storage of --prog's names. */
static struct kernel_plan plan = {.shapes = {1, 1}};
static int loads_given;
static int probe_only; /* --probe */
static int driver_opt = -1; /* --driver: an enum sb_kernel_driver, -1: auto */
static char *prog_list;
static char **prog_items;

static int parse_progs(struct sb_config *cfg, const char *arg, char *err, size_t errlen)
{
	cfg->n_progs = 0;
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
		cfg->progs[cfg->n_progs++] = prog_items[i];
	if (cfg->n_progs == 0) {
		snprintf(err, errlen, "--prog: no program named");
		return -1;
	}
	return 0;
}

static int parse_kernel(struct sb_cli *cli, int key, const char *arg, char *err, size_t errlen)
{
	struct sb_config *cfg = &cli->cfg;
	if (key == K_SHAPE) {
		if (parse_shape(arg, plan.shapes, &plan.htab, err, errlen) != 0)
			return -1;
		cfg->shape = arg;
		return 0;
	}
	if (key == K_THUNK) {
		if (sb_thunk_check_name("--thunk", arg, err, errlen) != 0)
			return -1;
		cfg->thunk = arg;
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
		*(key == K_OBJ ? &cfg->obj : &cfg->dump_dir) = arg;
		return 0;
	}
	if (key == K_PROG)
		return parse_progs(cfg, arg, err, errlen);
	if (key == K_PROBE) {
		probe_only = 1;
		return 0;
	}
	if (key == K_DRIVER) {
		if (strcmp(arg, "auto") == 0)
			driver_opt = -1;
		else if (strcmp(arg, "raw_tp") == 0)
			driver_opt = SB_DRIVER_RAW_TP;
		else if (strcmp(arg, "perf_event") == 0)
			driver_opt = SB_DRIVER_PERF_EVENT;
		else {
			snprintf(err, errlen, "--driver: unknown driver '%s' (auto, raw_tp, perf_event)", arg);
			return -1;
		}
		return 0;
	}
	uint64_t k;
	if (sb_parse_u64("--loads", arg, 1, &k, err, errlen) != 0)
		return -1;
	if (k > SB_MAX_COPIES) {
		snprintf(err, errlen, "--loads: %llu is more than %d", (unsigned long long)k, SB_MAX_COPIES);
		return -1;
	}
	cfg->loads = k;
	loads_given = 1;
	return 0;
}

/* The options checked together, and the plan taken from them. */
static int finish_kernel(struct sb_cli *cli, char *err, size_t errlen)
{
	const struct sb_config *cfg = &cli->cfg;
	plan.cfg = cfg;
	if (plan.htab && (loads_given || cfg->obj || strcmp(cfg->variants, "all") != 0)) {
		snprintf(err, errlen, "--shape=htab takes no %s (it runs its own baseline and private programs, "
			 "loaded once)", loads_given ? "--loads" : cfg->obj ? "--obj" : "--variant");
		return -1;
	}
	if (!cfg->obj != !cfg->n_progs) {
		snprintf(err, errlen, "%s", cfg->obj ? "--obj needs --prog=NAME[,NAME...]" : "--prog needs --obj=FILE");
		return -1;
	}
	if (parse_variants(cfg->variants, plan.want, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < cfg->n_batches; i++)
		if (cfg->batches[i] > SB_KERNEL_MAX_BATCH) {
			snprintf(err, errlen, "--batch: %llu is above the maximum %u for BPF programs "
				 "(the verifier walks every iteration)",
				 (unsigned long long)cfg->batches[i], SB_KERNEL_MAX_BATCH);
			return -1;
		}
	if (cfg->plot && (plan.htab || cfg->obj)) {
		snprintf(err, errlen, "--plot: not with --shape=htab or --obj (save --format=json and use stubbench plot)");
		return -1;
	}
	return 0;
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
					     "raw_tp, or perf_event where only that type gets a private stack"},
		{"thunk", "NAME", K_THUNK, "the twins return through this thunk's replica instead of the one\n"
					   "the JIT's returns reach, to see what the twins would cost there:\n%T"},
		{NULL},
	},
	.parse = parse_kernel,
	.finish = finish_kernel,
};

/* Everything loaded or allocated, released in one place. Copy c of the
 * programs (one object per batch size) is objs[c]; all copies stay loaded
 * to the end, so each sits at a code address of its own. */
struct kernel_run {
	struct sb_kernel_obj *objs[SB_MAX_COPIES][SB_MAX_BATCHES];
	size_t n_objs[SB_MAX_COPIES];
	struct sb_kernel_arms karms[SB_N_SHAPES];
	struct sb_variant_arms tarms[SB_N_SHAPES];
	/* Kernel arms and placed twins are each measured over all loads. */
	struct sb_results kres[SB_N_SHAPES], tres[SB_N_SHAPES];
	/* The twins placed like each load's JITed functions, per batch. */
	struct sb_twin_placement placed[SB_N_SHAPES][SB_MAX_COPIES][SB_MAX_BATCHES];
	struct sb_placed_arms parms[SB_N_SHAPES];
	struct sb_results pres[SB_N_SHAPES];
	int percpu_ready;
	char twin_names[SB_N_SHAPES][SB_N_KVARIANTS][2][64]; /* the twins' arm names */
	char *jit_check;    /* the JIT check's lines, for JSON too */
	char *verdicts;     /* the side-by-side report's lines, for JSON too */
	FILE *quiet_info;   /* where the findings before the measurement go with the summary alone */
	/* The kernel gave these programs no private stack (jit_check.h): their
	 * kernel and placed arms are not measured, their twins are. */
	int no_priv[SB_N_SHAPES][SB_N_KVARIANTS];
	int kwant[SB_N_SHAPES][SB_N_KVARIANTS]; /* the kernel's arms measured, per shape */
	struct sb_private_stack_probe probe;
	int probed;
	char not_measured[320];
	enum sb_kernel_driver driver; /* how the programs were loaded and run */
	char driver_note[160];        /* why perf_event, when auto chose it */
};

static void unload_copies(struct kernel_run *r);

static void release(struct kernel_run *r)
{
	unload_copies(r);
	for (int c = 0; c < SB_MAX_COPIES; c++)
		for (int s = 0; s < SB_N_SHAPES; s++)
			for (int b = 0; b < SB_MAX_BATCHES; b++)
				sb_twin_placement_free(&r->placed[s][c][b]);
	for (int s = 0; s < SB_N_SHAPES; s++) {
		sb_results_free(&r->kres[s]);
		sb_results_free(&r->pres[s]);
		sb_results_free(&r->tres[s]);
	}
	free(r->verdicts);
	if (r->quiet_info)
		fclose(r->quiet_info);
	r->quiet_info = NULL;
	r->verdicts = NULL;
	if (r->percpu_ready)
		sb_percpu_thread_fini();
	r->percpu_ready = 0;
}

/* All results in one document, shape by shape: kernel arms (over the
 * loads), the twins, the twins placed like the loads. */
/* Where the JIT put each function (offset in its page):
 * code placement differs from load to load, the twins' does not. */
static void print_placement(const struct sb_kernel_obj *obj, uint64_t batch, int copy)
{
	fprintf(stderr, "stubbench kernel: placement of load %d, batch_iters=%llu (page offset):", copy + 1,
		(unsigned long long)batch);
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			struct sb_jit_image img;
			char err[256];
			if (sb_jit_read(sb_kernel_prog_fd(obj, s, v), &img, err, sizeof(err)))
				continue;
			for (size_t f = 0; f < img.n; f++)
				fprintf(stderr, " %s.%s+%llu", img.prog_name, img.funcs[f].name,
					(unsigned long long)(img.funcs[f].ksym % 4096));
			sb_jit_image_free(&img);
		}
	fputc('\n', stderr);
}

/* The twins and the twins placed like the loads run the same code, so
 * they count on the same counters, and their processes take turns: each
 * counter must have advanced by the iterations of both (the placed arms
 * are copies of the twins' variants). In each fresh process, after its
 * blocks (with the private stacks' guard words), and at the end (the
 * guards then checked once by the caller). */
struct twin_sides {
	const struct sb_variant_arms *twins;
	const struct sb_placed_arms *placed; /* NULL: not measured */
};

static int twin_sides_counters(const struct twin_sides *t, char *err, size_t errlen)
{
	return sb_variant_arms_check_counters_with(t->twins, t->placed ? sb_placed_arms_iterations_on : NULL,
						   t->placed, err, errlen);
}

static int twin_sides_check(void *ctx, char *err, size_t errlen)
{
	if (twin_sides_counters(ctx, err, errlen) != 0)
		return -1;
	return sb_percpu_guards_intact(err, errlen);
}

/* The parts of one run, measured in one sb_run_parts so that the
 * processes of each take turns and every part spans the whole run: per
 * shape, the kernel's programs, the twins placed like the loads, the
 * aligned twins. */
struct kernel_parts {
	struct sb_run_part part[3 * SB_N_SHAPES];
	struct sb_run_opts opts[3 * SB_N_SHAPES];
	size_t n;
	/* The kernel programs' counters before the run, per shape. */
	uint64_t before[SB_N_SHAPES][SB_MAX_COPIES * SB_MAX_BATCHES * SB_N_KVARIANTS];
	struct twin_sides sides[SB_N_SHAPES];
};

static void add_part(struct kernel_parts *kp, const struct sb_arm *arms, size_t n_arms,
		     const struct sb_run_opts *ro, int (*child_check)(void *, char *, size_t), void *check_ctx,
		     struct sb_results *out)
{
	struct sb_run_opts *o = &kp->opts[kp->n];
	*o = *ro;
	o->child_check = child_check;
	o->check_ctx = check_ctx;
	kp->part[kp->n++] = (struct sb_run_part){.arms = arms, .n_arms = n_arms, .opts = o, .out = out};
}

static void add_kernel(struct kernel_run *r, const struct kernel_plan *o, enum sb_kernel_shape s, int cpu,
		       const struct sb_run_opts *ro, struct kernel_parts *kp)
{
	struct sb_kernel_arms *ka = &r->karms[s];
	sb_kernel_arms_build(ka, r->objs, (size_t)o->cfg->loads, o->cfg->batches, o->cfg->n_batches, s, r->kwant[s],
			     cpu);
	sb_kernel_arms_read_counters(ka, kp->before[s]);
	add_part(kp, ka->arms, ka->n, ro, NULL, NULL, &r->kres[s]);
}

static int add_placed(struct kernel_run *r, const struct kernel_plan *o, enum sb_kernel_shape s,
		      const struct sb_run_opts *ro, struct kernel_parts *kp)
{
	char err[512];
	for (int copy = 0; copy < (int)o->cfg->loads; copy++)
		for (size_t b = 0; b < o->cfg->n_batches; b++)
			if (sb_twin_place_like(r->objs[copy][b], s, r->kwant[s], copy + 1, &r->placed[s][copy][b], err,
					       sizeof(err)) != 0) {
				fprintf(stderr, "stubbench kernel: placing the twins like load %d: %s\n", copy + 1, err);
				return SB_KERNEL_FAILED;
			}
	struct sb_placed_arms *pa = &r->parms[s];
	sb_placed_arms_build(pa, r->placed[s], (size_t)o->cfg->loads, o->cfg->batches, o->cfg->n_batches, s,
			     r->kwant[s]);
	kp->sides[s].placed = pa;
	add_part(kp, pa->arms, pa->n, ro, twin_sides_check, &kp->sides[s], &r->pres[s]);
	return SB_KERNEL_OK;
}

static int add_twins(struct kernel_run *r, const struct kernel_plan *o, enum sb_kernel_shape s,
		     const struct sb_run_opts *ro, struct kernel_parts *kp)
{
	char err[512];
	const struct sb_variant *base = sb_twin_variant(sb_kernel_shape_name(s), "baseline");
	const struct sb_variant *others[SB_N_KVARIANTS];
	size_t n_others = 0;
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++)
		if (o->want[v])
			others[n_others++] = sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v));
	for (size_t i = 0; i < n_others; i++)
		if (!others[i] || !base) {
			fprintf(stderr, "stubbench kernel: a twin variant of the %s shape is missing from the registry\n",
				sb_kernel_shape_name(s));
			return SB_KERNEL_FAILED;
		}
	struct sb_variant_arms *ta = &r->tarms[s];
	if (sb_variant_arms_build(ta, base, others, n_others, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench kernel: %s twins: %s\n", sb_kernel_shape_name(s), err);
		return SB_KERNEL_FAILED;
	}
	/* The twins' arms carry the kernel run's names ("private-per-run-twin"). */
	for (size_t i = 0; i < ta->n; i++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			if (ta->ctx[i].v && ta->ctx[i].v == sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v))) {
				sb_kernel_arm_name(v, s, "twin", 0, r->twin_names[s][v][0], sizeof(r->twin_names[s][v][0]));
				sb_kernel_arm_name(v, s, "twin", 1, r->twin_names[s][v][1], sizeof(r->twin_names[s][v][1]));
				ta->arms[i].name = r->twin_names[s][v][0];
				ta->arms[i].seed_name = r->twin_names[s][v][1];
			}
	kp->sides[s].twins = ta;
	add_part(kp, ta->arms, ta->n, ro, twin_sides_check, &kp->sides[s], &r->tres[s]);
	return SB_KERNEL_OK;
}

/* Every part of every shape, then their counters: the kernel programs'
 * advanced by exactly runs x batch_iters, the twins' (copied back from the
 * processes) by the iterations they ran. */
static int measure(struct kernel_run *r, const struct kernel_plan *o, int cpu, int can_place,
		   const struct sb_run_opts *ro, FILE *info)
{
	static struct kernel_parts kp;
	char err[512];
	memset(&kp, 0, sizeof(kp));
	for (int s = 0; s < SB_N_SHAPES; s++) {
		if (!o->shapes[s])
			continue;
		add_kernel(r, o, s, cpu, ro, &kp);
		int arc = can_place ? add_placed(r, o, s, ro, &kp) : SB_KERNEL_OK;
		if (arc == SB_KERNEL_OK)
			arc = add_twins(r, o, s, ro, &kp);
		if (arc != SB_KERNEL_OK)
			return arc;
	}
	int rrc = sb_run_parts(kp.part, kp.n, err, sizeof(err));
	if (rrc != 0) {
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
		if (rrc == SB_RUN_TOO_SHORT) {
			fprintf(stderr, "stubbench kernel: --time: %s\n", err);
			return SB_KERNEL_USAGE;
		}
		for (int s = 0; s < SB_N_SHAPES; s++)
			for (size_t i = 0; o->shapes[s] && i < r->karms[s].n; i++)
				if (r->karms[s].ctx[i].last_error)
					snprintf(err, sizeof(err), "BPF_PROG_TEST_RUN failed: %s",
						 strerror(-r->karms[s].ctx[i].last_error));
		fprintf(stderr, "stubbench kernel: measurement failed: %s\n", err);
		return SB_KERNEL_FAILED;
	}
	for (int s = 0; s < SB_N_SHAPES; s++) {
		if (!o->shapes[s])
			continue;
		if (sb_kernel_arms_check_counters(&r->karms[s], kp.before[s], err, sizeof(err)) != 0 ||
		    twin_sides_counters(&kp.sides[s], err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench kernel: %s\n", err);
			return SB_KERNEL_FAILED;
		}
		fprintf(info, "counters: every %s program of %d load%s advanced by exactly runs x batch_iters\n",
			sb_kernel_shape_name(s), (int)o->cfg->loads, (int)o->cfg->loads == 1 ? "" : "s");
	}
	return SB_KERNEL_OK;
}

/* What the kernel run found besides timings, for the JSON document: the
 * programs' ids, the JIT check and flavour, the side-by-side verdicts. */
struct kernel_findings {
	const struct kernel_run *r;
	const struct kernel_plan *o;
};

static void json_lines(FILE *f, const char *key, const char *text, const char *skip_prefix)
{
	fprintf(f, ",\n    \"%s\": [", key);
	int first = 1;
	for (const char *p = text ? text : ""; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (len && !(skip_prefix && strncmp(p, skip_prefix, strlen(skip_prefix)) == 0)) {
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			fputs(first ? "\n      " : ",\n      ", f);
			sb_json_string(f, line);
			first = 0;
		}
		p += len + (nl ? 1 : 0);
	}
	fputs("]", f);
}

static void json_findings(FILE *f, const void *ctx)
{
	const struct kernel_findings *k = ctx;
	static const char flavour_prefix[] = "jit flavour of this kernel: ";
	fputs(",\n  \"kernel_run\": {\"jit_flavour\": ", f);
	const char *fl = k->r->jit_check ? strstr(k->r->jit_check, flavour_prefix) : NULL;
	if (fl) {
		char buf[512];
		fl += strlen(flavour_prefix);
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(fl, "\n"), fl);
		sb_json_string(f, buf);
	} else {
		fputs("null", f);
	}
	json_lines(f, "jit_check", k->r->jit_check, flavour_prefix);
	fputs(",\n    \"programs\": [", f);
	int first = 1;
	for (int c = 0; c < (int)k->o->cfg->loads; c++)
		for (size_t b = 0; b < k->r->n_objs[c]; b++)
			for (int s = 0; s < SB_N_SHAPES; s++)
				for (int v = 0; v < SB_N_KVARIANTS; v++) {
					if (!k->o->shapes[s] || (v != SB_KV_BASELINE && !k->o->want[v]))
						continue;
					fprintf(f, "%s{\"load\": %d, \"batch\": %llu, \"shape\": \"%s\", "
						   "\"variant\": \"%s\", \"prog\": \"%s\", \"id\": %u}",
						first ? "\n      " : ",\n      ", c + 1,
						(unsigned long long)k->o->cfg->batches[b], sb_kernel_shape_name(s),
						sb_kernel_variant_name(v), sb_kernel_prog_name(s, v),
						sb_kernel_prog_id(sb_kernel_prog_fd(k->r->objs[c][b], s, v)));
					first = 0;
				}
	fputs("],\n    \"verdicts\": [", f);
	first = 1;
	for (int s = 0; s < SB_N_SHAPES; s++)
		if (k->o->shapes[s])
			sb_kernel_report_json(f, s, &k->r->kres[s], &k->r->tres[s], &k->r->pres[s], &first);
	fputs("]", f);
	json_lines(f, "side_by_side", k->r->verdicts, NULL);
	fprintf(f, ",\n    \"driver\": \"%s\"", sb_kernel_driver_name(k->r->driver));
	fputs(",\n    \"private_stack\": ", f);
	sb_kernel_private_stack_json(f, k->r->no_priv, k->o->shapes, k->r->probed ? &k->r->probe : NULL);
	fputs("}", f);
}

static uint64_t empty_runs(const struct sb_kernel_obj *o, const void *arg)
{
	(void)arg;
	return sb_kernel_empty_hits(o);
}

/* The programs, loads copies of them per batch size, each copy after a
 * spacer of 0-4 KB of JITed code, so that every load starts at a page
 * offset of its own (src/kernel/spacer.c). */
static int load_copies(struct kernel_run *r, const struct kernel_plan *o)
{
	const struct sb_config *cfg = o->cfg;
	char why[512];
	enum sb_kernel_status st;
	struct sb_rng rng;
	sb_rng_seed(&rng, cfg->seed ^ 0x5bace5bace);
	for (int c = 0; c < (int)cfg->loads; c++)
	for (size_t i = 0; i < cfg->n_batches; i++) {
		size_t spacer = (size_t)sb_rng_below(&rng, SB_KERNEL_SPACER_MAX_BYTES + 1);
		r->objs[c][i] = sb_kernel_load_as((uint32_t)cfg->batches[i], spacer, r->driver, &st, why, sizeof(why));
		if (!r->objs[c][i]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->n_objs[c]++;
		if (cfg->verbose) {
			fprintf(stderr, "stubbench kernel: loaded batch_iters=%llu:", (unsigned long long)cfg->batches[i]);
			for (int s = 0; s < SB_N_SHAPES; s++)
				for (int v = 0; v < SB_N_KVARIANTS; v++)
					fprintf(stderr, " %s id=%u", sb_kernel_prog_name(s, v),
						sb_kernel_prog_id(sb_kernel_prog_fd(r->objs[c][i], s, v)));
			fprintf(stderr, " empty_driver id=%u\n", sb_kernel_prog_id(sb_kernel_empty_fd(r->objs[c][i])));
			print_placement(r->objs[c][i], cfg->batches[i], c);
		}
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
	}
	return SB_KERNEL_OK;
}

/* The JIT check: its lines on info and kept for JSON. Returns its status:
 * a mismatch or unreadable bytes still measure (*fatal 0), no JIT does not
 * (*fatal 1). Programs the kernel gave no private stack are left out of
 * the kernel's arms (r->kwant), their twins still measured, and the probe
 * says why in one line (private_stack_probe.h). */
static enum sb_kernel_status check_jit(struct kernel_run *r, const struct kernel_plan *o, FILE *info, int *fatal)
{
	char why[512];
	size_t text_len;
	FILE *jit_text = open_memstream(&r->jit_check, &text_len);
	enum sb_kernel_status st = sb_kernel_check_jit(r->objs[0][0], o->shapes, o->want, o->cfg->dump_dir,
						       jit_text ? jit_text : info, r->no_priv, why, sizeof(why));
	if (jit_text) {
		fclose(jit_text);
		fputs(r->jit_check, info);
	}
	*fatal = st == SB_KERNEL_NO_JIT;
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			r->kwant[s][v] = (v == SB_KV_BASELINE || o->want[v]) && !r->no_priv[s][v];
	if (st == SB_KERNEL_NO_PRIV_STACK) {
		r->probed = sb_kernel_say_no_private_stack(why, info, &r->probe);
		sb_kernel_not_measured(r->no_priv, o->shapes, r->probed ? &r->probe : NULL, r->not_measured,
				       sizeof(r->not_measured));
	} else if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
	}
	return st;
}

/* Every loaded copy unloaded, and what the JIT check kept of them. */
static void unload_copies(struct kernel_run *r)
{
	for (int c = 0; c < SB_MAX_COPIES; c++) {
		for (size_t i = 0; i < r->n_objs[c]; i++)
			sb_kernel_unload(r->objs[c][i]);
		r->n_objs[c] = 0;
	}
	free(r->jit_check);
	r->jit_check = NULL;
	r->not_measured[0] = 0;
	r->probed = 0;
}

/* The copies loaded with r->driver, and one run of the empty driver to
 * see the kernel runs them (raw_tp: BPF_PROG_TEST_RUN; perf_event: a page
 * fault's event). */
static enum sb_kernel_status load_and_try(struct kernel_run *r, const struct kernel_plan *o, int cpu)
{
	enum sb_kernel_status st = load_copies(r, o);
	if (st != SB_KERNEL_OK)
		return st;
	if (r->driver == SB_DRIVER_RAW_TP) {
		int trc = sb_kernel_test_run(sb_kernel_empty_fd(r->objs[0][0]), cpu);
		if (trc != 0) {
			fprintf(stderr, "stubbench kernel: BPF_PROG_TEST_RUN of a raw_tp program refused on CPU %d: %s\n",
				cpu, strerror(-trc));
			return SB_KERNEL_NO_TEST_RUN;
		}
		return SB_KERNEL_OK;
	}
	uint64_t runs = 0;
	int rc;
	const struct sb_kernel_obj *obj = r->objs[0][0];
	sb_kernel_run_timed(obj, sb_kernel_empty_fd(obj), cpu, empty_runs, NULL, &runs, &rc);
	if (rc != 0) {
		fprintf(stderr, "stubbench kernel: a perf_event program on a page-fault event does not run: %s\n",
			strerror(-rc));
		return SB_KERNEL_NO_TEST_RUN;
	}
	return SB_KERNEL_OK;
}

/* Where the JIT's returns go, the thunk replicas against the kernel's own
 * code, and the twins' returns aimed at the replica of that thunk (or of
 * --thunk's). */
static void aim_returns(struct kernel_run *r, const struct kernel_plan *o, FILE *info, struct sb_return_thunk *thunk)
{
	const struct sb_config *cfg = o->cfg;
	sb_kernel_return_thunk(r->objs[0][0], o->shapes, o->want, cfg->verbose, info, thunk);
	fprintf(info, "returns: %s (%s)\n", sb_thunk_name(thunk->thunk), thunk->how);
	if (cfg->verbose)
		fprintf(stderr, "stubbench kernel: mitigations: spectre_v2 \"%s\"; retbleed \"%s\"; "
			"spec_rstack_overflow \"%s\"; indirect_target_selection \"%s\"\n", thunk->mit.spectre_v2,
			thunk->mit.retbleed, thunk->mit.spec_rstack_overflow, thunk->mit.indirect_target_selection);
	sb_kernel_check_thunks(info);
	sb_session_aim_twin_returns(cfg, "stubbench kernel", thunk, info);
}

/* The side-by-side report, printed after the results and in JSON. */
static void after_report(FILE *info, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)fmt;
	(void)all;
	const struct kernel_findings *k = ctx;
	if (k->r->verdicts)
		fputs(k->r->verdicts, info);
}

/* The one ending (session.h), with the kernel run's findings. */
static int finish(struct kernel_run *r, const struct kernel_plan *o, const struct sb_return_thunk *thunk, int rc)
{
	struct sb_session s;
	sb_session_init(&s, "stubbench kernel", o->cfg);
	static struct kernel_findings found;
	found = (struct kernel_findings){.r = r, .o = o};
	int n_shapes = o->shapes[0] + o->shapes[1];
	/* Per shape: the kernel's programs, the twins, the placed twins; their
	 * figures checked now, since the verdicts below are made before the
	 * session's ending checks them (figure_checks.h). */
	for (int sh = 0; sh < SB_N_SHAPES; sh++)
		if (o->shapes[sh]) {
			sb_figure_checks(&r->kres[sh]);
			sb_figure_checks(&r->tres[sh]);
			sb_figure_checks(&r->pres[sh]);
			sb_session_add(&s, &r->kres[sh], NULL);
			sb_session_add(&s, &r->tres[sh], NULL);
			sb_session_add(&s, &r->pres[sh], NULL);
		}
	/* The side-by-side report: into the JSON document, and printed after the results. */
	size_t text_len;
	FILE *verdicts = open_memstream(&r->verdicts, &text_len);
	for (int sh = 0; sh < SB_N_SHAPES && verdicts; sh++)
		if (o->shapes[sh]) {
			const struct sb_results *k = &r->kres[sh], *p = &r->pres[sh];
			sb_kernel_report_side_by_side(verdicts, sh, &k, 1, &r->tres[sh], &p);
		}
	if (verdicts)
		fclose(verdicts);
	/* The scope of the CIs, and what the kernel's return thunk adds to it. */
	static char ci_scope[768];
	const char *note = sb_thunk_time_note(thunk->thunk);
	snprintf(ci_scope, sizeof(ci_scope), "%s%s%s", SB_KERNEL_CI_SCOPE, note ? "; " : "", note ? note : "");
	s.meta.shape = n_shapes > 1 ? "per-run, in-loop" : sb_kernel_shape_name(o->shapes[0] ? 0 : 1);
	s.meta.json_extra = json_findings;
	s.meta.json_extra_ctx = &found;
	s.meta.thunk = thunk;
	s.meta.ci_scope = ci_scope;
	s.meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	s.meta.kernel_driver = r->driver == SB_DRIVER_PERF_EVENT ? (r->driver_note[0] ? r->driver_note
								   : "perf_event programs, run by page faults")
								 : NULL;
	s.after_report = after_report;
	s.after_ctx = &found;
	s.answer = sb_kernel_answer;
	/* An error, or a run with no usable samples, outranks "measured in part". */
	int frc = sb_session_finish(&s, rc == SB_KERNEL_NO_PRIV_STACK ? 0 : rc);
	return frc ? frc : rc;
}

static int run(struct kernel_run *r, const struct kernel_plan *o)
{
	const struct sb_config *cfg = o->cfg;
	char why[512];
	if (cfg->dump_dir && sb_jit_dump_prepare(cfg->dump_dir, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_USAGE;
	}
	int cpu;
	enum sb_kernel_status st = sb_kernel_start(cfg->cpu, &cpu, why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return st;
	}
	r->driver = driver_opt >= 0 ? (enum sb_kernel_driver)driver_opt : SB_DRIVER_RAW_TP;
	sb_session_progress("stubbench kernel", "loading the programs");
	if ((st = load_and_try(r, o, cpu)) != SB_KERNEL_OK)
		return st;
	/* What the run finds before it measures (the JIT check, the returns,
	 * the counters): above the table with --table or --verbose; with the
	 * summary alone, kept for JSON only (a mismatch still says so on
	 * stderr); on stderr in the other formats. */
	FILE *info = cfg->format != SB_FORMAT_TABLE ? stderr : sb_session_full_report(cfg) ? stdout : NULL;
	if (!info && !(info = r->quiet_info = fopen("/dev/null", "w")))
		info = stderr;
	int fatal;
	st = check_jit(r, o, info, &fatal);
	if (fatal)
		return st;
	/* --driver=auto on a kernel that gives raw_tp programs no private
	 * stack but perf_event programs one: the programs again, as those. */
	if (st == SB_KERNEL_NO_PRIV_STACK && driver_opt < 0 && r->driver == SB_DRIVER_RAW_TP && r->probed &&
	    sb_private_stack_probe_type_gets(&r->probe, SB_PROBE_PERF_EVENT) == 1) {
		fprintf(stderr, "stubbench kernel: loading the programs as perf_event programs instead, each run "
			"by a page fault (--driver=perf_event)\n");
		unload_copies(r);
		r->driver = SB_DRIVER_PERF_EVENT;
		snprintf(r->driver_note, sizeof(r->driver_note), "perf_event programs, run by page faults: this "
			 "kernel gives raw_tp programs no private stack");
		if ((st = load_and_try(r, o, cpu)) != SB_KERNEL_OK) {
			/* Not to be had (perf_event_open refused, say): back to raw_tp,
			 * measured in part. */
			fprintf(stderr, "stubbench kernel: back to raw_tp programs\n");
			unload_copies(r);
			r->driver = SB_DRIVER_RAW_TP;
			r->driver_note[0] = 0;
			if ((st = load_and_try(r, o, cpu)) != SB_KERNEL_OK)
				return st;
		}
		st = check_jit(r, o, info, &fatal);
		if (fatal)
			return st;
	}
	if (st == SB_KERNEL_NO_PRIV_STACK)
		fprintf(stderr, "stubbench kernel: measuring the rest: the baseline programs against their twins, "
			"and every twin (exit status 6: measured in part)\n");
	/* A mismatch, JIT bytes we may not read, or no private stack: measure
	 * what can be, the numbers still mean something, and exit with the
	 * status. */
	int rc = st;
	struct sb_return_thunk thunk;
	aim_returns(r, o, info, &thunk);
	/* Placing the twins like the kernel needs the JIT's addresses and names. */
	int can_place = st != SB_KERNEL_NO_CAP;
	if (!can_place)
		fprintf(info, "placed twins: not measured (the JIT of this kernel cannot be read)\n");
	sb_kernel_fentry_available(why, sizeof(why));
	fprintf(info, "%s\n", why);
	if (sb_percpu_thread_init(why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	r->percpu_ready = 1;
	const struct sb_timer_info *ti = sb_timer_probe();
	if (cfg->verbose)
		fprintf(stderr, "stubbench kernel: timer %s: %s\n", sb_timer_kind_name(ti->kind), ti->reason);
	sb_session_progress("stubbench kernel", "placing the twins");
	struct sb_run_opts ro;
	sb_session_run_opts(cfg, &ro);
	ro.time_s /= 3.0 * (o->shapes[0] + o->shapes[1]);
	ro.stop = sb_kernel_interrupted;
	ro.between_processes = sb_new_frames_between; /* the placed twins' frames */
	int mrc = measure(r, o, cpu, can_place, &ro, info);
	if (mrc != SB_KERNEL_OK)
		return mrc;
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench kernel: private stack guard words of the twins were overwritten\n");
		rc = SB_KERNEL_FAILED;
	}
	/* Interrupted after the last measurement: still no results. */
	if (sb_kernel_interrupted())
		return SB_KERNEL_INTERRUPTED;
	return finish(r, o, &thunk, rc);
}

/* Every kernel mode ends here: a run that a signal stopped (it unwound and
 * unloaded everything) says so in one line and exits with 130, whatever
 * status the unwinding produced. */
static int interrupted_or(int rc)
{
	if (rc == SB_KERNEL_INTERRUPTED || sb_kernel_interrupted()) {
		fprintf(stderr, "stubbench kernel: interrupted; every BPF program unloaded\n");
		return SB_KERNEL_INTERRUPTED;
	}
	return rc;
}

/* --probe: which programs this kernel gives a private stack, read from
 * their JIT; as lines, or one JSON object with --format=json. */
static int run_probe(const struct sb_config *cfg)
{
	char why[512];
	enum sb_kernel_status st = sb_kernel_probe(why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return st;
	}
	struct sb_private_stack_probe p;
	if (sb_private_stack_probe_run(&p, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	if (cfg->format == SB_FORMAT_JSON) {
		sb_private_stack_probe_json(stdout, &p);
		fputc('\n', stdout);
	} else {
		sb_private_stack_probe_lines(stdout, &p);
	}
	return SB_KERNEL_OK;
}

static int run_kernel(struct sb_cli *cli)
{
	if (probe_only)
		return run_probe(&cli->cfg);
	if (cli->cfg.obj) {
		/* --obj runs in this process. */
		cli->cfg.processes = 1;
		return interrupted_or(sb_kernel_obj_run(&cli->cfg));
	}
	if (plan.htab)
		return interrupted_or(sb_kernel_htab_run(&cli->cfg));
	if (sb_plot_check_option("stubbench kernel", &cli->cfg.plot))
		return SB_KERNEL_USAGE;
	struct kernel_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	int rc = run(r, &plan);
	release(r);
	free(r);
	return interrupted_or(rc);
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

/* htab.c: loading, arms, JIT check and report of `stubbench kernel
 * --shape=htab`; see htab.h and bench/bpf/htab_shape.bpf.c. */
#include "kernel/htab.h"
#include "answer/answer.h"
#include "kernel/signals.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "jit/decode.h"
#include "jit/dump.h"
#include "jit/flavour.h"
#include "kernel/jit_check.h"
#include "kernel/jit_read.h"
#include "stubbench/timer.h"

#include "htab_shape.skel.h"

struct sb_htab_obj {
	struct htab_shape *skel;
	uint32_t batch_iters;
	enum sb_kernel_driver driver;
};

static const char *const prog_names[SB_HTAB_N_PROGS] = {"htab_baseline", "htab_private", "htab_nohelp",
							 "empty_syscall", "empty_raw_tp"};
static const char *const body_names[SB_HTAB_N_PROGS] = {"htab_body", "htab_body", "htab_body_nohelp", NULL,
							 NULL};

const char *sb_htab_prog_name(enum sb_htab_prog p) { return prog_names[p]; }
const char *sb_htab_body_name(enum sb_htab_prog p) { return body_names[p]; }

struct sb_htab_obj *sb_htab_load(uint32_t batch_iters, enum sb_kernel_status *status, char *err, size_t errlen)
{
	return sb_htab_load_as(batch_iters, SB_DRIVER_RAW_TP, status, err, errlen);
}

enum sb_kernel_driver sb_htab_driver(const struct sb_htab_obj *o) { return o->driver; }

struct sb_htab_obj *sb_htab_load_as(uint32_t batch_iters, enum sb_kernel_driver driver,
				    enum sb_kernel_status *status, char *err, size_t errlen)
{
	*status = SB_KERNEL_FAILED;
	struct sb_htab_obj *o = calloc(1, sizeof(*o));
	if (!o) {
		sb_set_err(err, errlen, "out of memory");
		return NULL;
	}
	o->batch_iters = batch_iters;
	o->skel = htab_shape__open();
	if (!o->skel) {
		sb_set_err(err, errlen, "cannot open the embedded htab BPF object: %s", sb_errno_cause(errno));
		free(o);
		return NULL;
	}
	o->skel->rodata->batch_iters = batch_iters;
	o->driver = driver;
	if (driver == SB_DRIVER_PERF_EVENT) {
		struct bpf_program *const raw[] = {o->skel->progs.htab_private, o->skel->progs.htab_nohelp,
						   o->skel->progs.empty_raw_tp};
		for (size_t i = 0; i < sizeof(raw) / sizeof(raw[0]); i++) {
			bpf_program__set_type(raw[i], BPF_PROG_TYPE_PERF_EVENT);
			bpf_program__set_expected_attach_type(raw[i], 0);
		}
	}
	int rc = htab_shape__load(o->skel);
	if (rc) {
		*status = sb_kernel_load_failed(rc, "htab BPF program", batch_iters, err, errlen);
		htab_shape__destroy(o->skel);
		free(o);
		return NULL;
	}
	*status = SB_KERNEL_OK;
	return o;
}

void sb_htab_unload(struct sb_htab_obj *o)
{
	if (!o)
		return;
	htab_shape__destroy(o->skel);
	free(o);
}

int sb_htab_prog_fd(const struct sb_htab_obj *o, enum sb_htab_prog p)
{
	struct bpf_program *const t[SB_HTAB_N_PROGS] = {o->skel->progs.htab_baseline, o->skel->progs.htab_private,
							o->skel->progs.htab_nohelp,
							o->skel->progs.empty_syscall,
							o->skel->progs.empty_raw_tp};
	return bpf_program__fd(t[p]);
}

uint64_t sb_htab_runs(const struct sb_htab_obj *o, enum sb_htab_prog p)
{
	if (p == SB_HTAB_BASELINE || p == SB_HTAB_PRIVATE)
		return o->skel->bss->hits;
	if (p == SB_HTAB_NOHELP)
		return o->skel->bss->hits_nohelp;
	return 0;
}

uint64_t sb_htab_nohelp_iters(const struct sb_htab_obj *o) { return o->skel->bss->iters_nohelp; }

/* Whether p runs by the object's driver (the raw_tp programs), not by a
 * syscall program's test run. */
static int by_driver(enum sb_htab_prog p)
{
	return p == SB_HTAB_PRIVATE || p == SB_HTAB_NOHELP || p == SB_HTAB_EMPTY_RAW_TP;
}

/* How many times a program run by a page fault has run. */
struct prog_of {
	const struct sb_htab_obj *o;
	enum sb_htab_prog p;
};

static uint64_t prog_hits(const void *arg)
{
	const struct prog_of *w = arg;
	if (w->p == SB_HTAB_EMPTY_RAW_TP)
		return w->o->skel->bss->empty_hits;
	return sb_htab_runs(w->o, w->p);
}

/* One run of p (timed with the harness's timer): the ticks, or UINT64_MAX
 * with -errno in *rc; *runs grows by every run made. */
static uint64_t run_timed(const struct sb_htab_obj *o, enum sb_htab_prog p, uint64_t *runs, int *rc);

int sb_htab_run_once(const struct sb_htab_obj *o, enum sb_htab_prog p)
{
	uint64_t runs = 0;
	int rc;
	run_timed(o, p, &runs, &rc);
	return rc;
}

/* Arms. sb_time_calls() times a stub: the test run goes through this one.
 * All programs run on the current CPU (the thread is pinned): the syscall
 * type takes no BPF_F_TEST_RUN_ON_CPU, and raw_tp on the current CPU runs
 * inline, so both paths are the same shape. */
static int run_fd = -1, run_rc;

static int test_run_stub(void)
{
	run_rc = sb_kernel_test_run(run_fd, -1);
	return 0;
}

static uint64_t run_timed(const struct sb_htab_obj *o, enum sb_htab_prog p, uint64_t *runs, int *rc)
{
	if (by_driver(p) && o->driver == SB_DRIVER_PERF_EVENT) {
		struct prog_of w = {o, p};
		return sb_bpf_run_timed(SB_DRIVER_PERF_EVENT, sb_htab_prog_fd(o, p), -1, prog_hits, &w, runs, rc);
	}
	run_fd = sb_htab_prog_fd(o, p);
	uint64_t t = sb_time_calls(test_run_stub, 1);
	*rc = run_rc;
	if (run_rc != 0)
		return UINT64_MAX;
	(*runs)++;
	return t;
}

static uint64_t run_arm(void *p, uint64_t batch)
{
	struct sb_htab_arm_ctx *c = p;
	size_t bi = 0;
	while (bi < c->n_batches && c->batches[bi] != batch)
		bi++;
	if (bi == c->n_batches || sb_kernel_interrupted())
		return UINT64_MAX;
	int rc;
	uint64_t t = run_timed(c->objs[bi], c->prog, &c->runs[bi], &rc);
	if (rc != 0) {
		c->last_error = rc;
		return UINT64_MAX;
	}
	return t;
}

void sb_htab_arms_build(struct sb_htab_arms *a, struct sb_htab_obj *const *objs, const uint64_t *batches,
			size_t n_batches, int with_private)
{
	/* Display order: overhead, baseline, private, no helpers, syscall path. */
	static const enum sb_htab_prog order[SB_HTAB_N_PROGS] = {SB_HTAB_EMPTY_RAW_TP, SB_HTAB_BASELINE,
								 SB_HTAB_PRIVATE, SB_HTAB_NOHELP,
								 SB_HTAB_EMPTY_SYSCALL};
	static const char *const codegen[SB_HTAB_N_PROGS] = {
		[SB_HTAB_BASELINE] = "baseline",
		[SB_HTAB_PRIVATE] = "private",
		[SB_HTAB_NOHELP] = "private-no-helpers",
		[SB_HTAB_EMPTY_SYSCALL] = "syscall-path",
	};
	static const char *const names[SB_HTAB_N_PROGS][2] = {
		[SB_HTAB_BASELINE] = {"baseline-htab", "no-private-stack"},
		[SB_HTAB_PRIVATE] = {"private-htab", "private-stack"},
		[SB_HTAB_NOHELP] = {"private-no-helpers-htab", "private-stack-no-helpers"},
		[SB_HTAB_EMPTY_SYSCALL] = {"syscall-path-htab", "syscall-path"},
		[SB_HTAB_EMPTY_RAW_TP] = {"empty-driver", "empty-driver"},
	};
	/* Two parts, each a path of its own: the syscall programs, then the
	 * perf_event ones. */
	static const enum sb_htab_prog order_pf[SB_HTAB_N_PROGS] = {SB_HTAB_EMPTY_SYSCALL, SB_HTAB_BASELINE,
								    SB_HTAB_EMPTY_RAW_TP, SB_HTAB_PRIVATE,
								    SB_HTAB_NOHELP};
	int pf = n_batches && objs[0]->driver == SB_DRIVER_PERF_EVENT;
	memset(a, 0, sizeof(*a));
	for (int k = 0; k < SB_HTAB_N_PROGS; k++) {
		enum sb_htab_prog p = pf ? order_pf[k] : order[k];
		if (pf && p == SB_HTAB_EMPTY_RAW_TP)
			a->n_first = a->n;
		if (!with_private && (p == SB_HTAB_PRIVATE || p == SB_HTAB_NOHELP))
			continue;
		size_t i = a->n++;
		struct sb_htab_arm_ctx *c = &a->ctx[i];
		struct sb_arm *arm = &a->arms[i];
		c->objs = objs;
		c->batches = batches;
		c->n_batches = n_batches;
		c->prog = p;
		arm->ctx = c;
		arm->ctx_size = sizeof(*c); /* runs per batch, checked against the maps */
		arm->sample = run_arm;
		arm->name = names[p][0];
		arm->seed_name = names[p][1];
		arm->is_overhead = p == SB_HTAB_EMPTY_RAW_TP || (pf && p == SB_HTAB_EMPTY_SYSCALL);
		arm->is_baseline = p == SB_HTAB_BASELINE;
		if (!arm->is_overhead)
			sb_cell_key_set(&arm->key, SB_SIDE_KERNEL, "htab", codegen[p], NULL, NULL, "htab", arm->name);
	}
}

void sb_htab_read_counters(const struct sb_htab_arms *a, uint64_t *out)
{
	const struct sb_htab_arm_ctx *c = &a->ctx[0];
	for (size_t b = 0; b < c->n_batches; b++) {
		out[2 * b] = sb_htab_runs(c->objs[b], SB_HTAB_PRIVATE);
		out[2 * b + 1] = sb_htab_nohelp_iters(c->objs[b]);
	}
}

int sb_htab_check_counters(const struct sb_htab_arms *a, const uint64_t *before, char *err, size_t errlen)
{
	const struct sb_htab_arm_ctx *c0 = &a->ctx[0];
	for (size_t b = 0; b < c0->n_batches; b++) {
		uint64_t runs = 0, nohelp_runs = 0;
		for (size_t i = 0; i < a->n; i++) {
			if (a->ctx[i].prog == SB_HTAB_BASELINE || a->ctx[i].prog == SB_HTAB_PRIVATE)
				runs += a->ctx[i].runs[b];
			if (a->ctx[i].prog == SB_HTAB_NOHELP)
				nohelp_runs = a->ctx[i].runs[b];
		}
		uint64_t got = sb_htab_runs(c0->objs[b], SB_HTAB_PRIVATE) - before[2 * b];
		uint64_t got_iters = sb_htab_nohelp_iters(c0->objs[b]) - before[2 * b + 1];
		if (got != runs) {
			snprintf(err, errlen, "htab_body (batch %llu): hits advanced by %llu, expected %llu test runs",
				 (unsigned long long)c0->batches[b], (unsigned long long)got, (unsigned long long)runs);
			return -1;
		}
		if (got_iters != nohelp_runs * c0->batches[b]) {
			snprintf(err, errlen, "htab_body_nohelp (batch %llu): loop ran %llu times, expected %llu runs x %llu",
				 (unsigned long long)c0->batches[b], (unsigned long long)got_iters,
				 (unsigned long long)nohelp_runs, (unsigned long long)c0->batches[b]);
			return -1;
		}
	}
	return 0;
}

/* Does the function show the private frame: the r9 setup, and push/pop r9
 * around its calls? */
static void frame_of(const struct sb_listing *l, int *setup, int *push_r9)
{
	*setup = *push_r9 = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		if (sb_jit_is_gs_add_r9(in))
			*setup = 1;
		if (in->len == 2 && in->bytes[0] == 0x41 && in->bytes[1] == 0x51)
			*push_r9 = 1;
	}
}

enum sb_kernel_status sb_htab_check_jit(const struct sb_htab_obj *o, const char *dump_dir, FILE *f, char *why,
					size_t whylen)
{
	char err[512], no_priv_what[256] = "";
	int no_priv = 0;
	enum sb_kernel_status st = SB_KERNEL_OK;
	snprintf(why, whylen, "ok");
	for (int p = 0; p < SB_HTAB_N_PROGS; p++) {
		struct sb_jit_image img;
		if (sb_jit_read(sb_htab_prog_fd(o, p), &img, err, sizeof(err))) {
			snprintf(why, whylen, "%s", err);
			if (strstr(err, "no permission"))
				return SB_KERNEL_NO_CAP;
			return strstr(err, "not JITed") ? SB_KERNEL_NO_JIT : SB_KERNEL_FAILED;
		}
		if (dump_dir && sb_jit_dump(dump_dir, &img, err, sizeof(err))) {
			snprintf(why, whylen, "%s", err);
			st = SB_KERNEL_FAILED;
		}
		int have_body = body_names[p] == NULL;
		for (size_t i = 0; i < img.n; i++) {
			const struct sb_jit_func *fn = &img.funcs[i];
			struct sb_listing l;
			if (sb_jit_decode(fn->bytes, fn->len, fn->name, &l, err, sizeof(err))) {
				snprintf(why, whylen, "jit %s.%s: %s", img.prog_name, fn->name, err);
				st = SB_KERNEL_FAILED;
				continue;
			}
			int setup, push;
			frame_of(&l, &setup, &push);
			if (sb_kernel_test_no_private_stack_of(sb_htab_prog_fd(o, p)))
				setup = push = 0;
			int is_body = body_names[p] && strcmp(fn->name, body_names[p]) == 0;
			/* The r9 frame belongs in the private body and nowhere else
			 * (the body without helpers has 96 bytes of stack too, but no
			 * calls to wrap). */
			int want = is_body && p != SB_HTAB_BASELINE;
			int want_push = want && p == SB_HTAB_PRIVATE;
			have_body |= is_body;
			fprintf(f, "jit %s.%s: %zu bytes, %zu instructions, %s\n", img.prog_name, fn->name, fn->len, l.n,
				setup ? (push ? "r9 frame (r9 setup, push/pop r9 around calls)" : "r9 frame (r9 setup)")
				      : "rbp frame");
			sb_listing_free(&l);
			if (want && !setup) {
				/* Said once, for the first such program; the rest still checked. */
				if (!no_priv)
					snprintf(no_priv_what, sizeof(no_priv_what), "%s.%s, a %s program's "
						 "function with 96 bytes of stack", img.prog_name, fn->name,
						 sb_kernel_driver_name(o->driver));
				no_priv = 1;
				continue;
			}
			if (setup != want || push != want_push) {
				snprintf(why, whylen, "%s.%s: r9 frame %s where it should %s: the variants are not what "
					 "they should be", img.prog_name, fn->name, setup ? "present" : "absent",
					 want ? "be" : "not be");
				st = SB_KERNEL_FAILED;
			}
		}
		if (!have_body && st == SB_KERNEL_OK) {
			snprintf(why, whylen, "%s has no JITed function %s (functions not named by BTF?)", img.prog_name,
				 body_names[p]);
			st = SB_KERNEL_FAILED;
		}
		sb_jit_image_free(&img);
	}
	if (no_priv && st == SB_KERNEL_OK) {
		snprintf(why, whylen, "%s", no_priv_what);
		st = SB_KERNEL_NO_PRIV_STACK;
	}
	return st;
}

/* The cell of the htab program whose key's codegen is codegen, at batch. */
static const struct sb_cell *htab_cell(const struct sb_results *r, const char *codegen, uint64_t batch)
{
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->batch == batch && c->arm && strcmp(c->arm->key.family, "htab") == 0 &&
		    strcmp(c->arm->key.codegen, codegen) == 0)
			return c;
	}
	return NULL;
}

void sb_htab_report(FILE *f, const struct sb_results *r, enum sb_kernel_driver driver)
{
	int pf = driver == SB_DRIVER_PERF_EVENT;
	fprintf(f, "\n# htab shape: core cycles per iteration (%s path removed; 95 %% CI)\n"
		   "# delta: private - baseline, %s;\n"
		   "# helpers: share of a private iteration outside the JITed body, 1 - no-helpers/private;\n"
		   "# syscall path: what the baseline's test-run path costs beyond %s, per iteration;\n"
		   "# delta + path: the delta with that difference taken out of the baseline (point estimate)\n",
		pf ? "each driver's own" : "raw_tp test-run",
		pf ? "each in a part of its own with its path removed (CIs in quadrature)"
		   : "from the interleaved ratio as the other shapes",
		pf ? "a page fault's (n/a: each path removed)" : "raw_tp's");
	fprintf(f, "%-6s %-10s %-10s %-26s %-12s %-12s %-10s %s\n", "batch", "baseline", "private", "delta",
		"syscall path", "delta + path", "no-helpers", "helpers");
	for (size_t b = 0; b < r->n_batches; b++) {
		uint64_t batch = r->cells[b].batch;
		const struct sb_cell *base = htab_cell(r, "baseline", batch), *priv = htab_cell(r, "private", batch),
				     *noh = htab_cell(r, "private-no-helpers", batch), *sys = htab_cell(r, "syscall-path", batch);
		if (!base || !priv || !base->n_samples || !priv->n_samples)
			continue;
		char d[64] = "n/a", share[16] = "n/a", nh[16] = "n/a", sp[16] = "n/a", dp[16] = "n/a";
		struct sb_estimate dd = sb_estimate_pct_to_cycles(&priv->delta_pct, base->cycles.mean);
		if (pf) {
			/* Two parts, each its own path removed: the difference of
			 * two independent figures, CIs in quadrature. */
			double b = base->cycles.mean, p = priv->cycles.mean;
			dd = sb_estimate_of(p - b, p - b - hypot(p - priv->cycles.ci_lo, base->cycles.ci_hi - b),
					    p - b + hypot(priv->cycles.ci_hi - p, b - base->cycles.ci_lo));
		}
		if (sb_estimate_known(&dd))
			sb_answer_estimate(d, sizeof(d), &dd, 1);
		if (noh && noh->n_samples) {
			snprintf(nh, sizeof(nh), "%.2f", noh->cycles.mean);
			if (priv->cycles.mean > 0)
				snprintf(share, sizeof(share), "%.1f %%",
					 100.0 * (1.0 - noh->cycles.mean / priv->cycles.mean));
		}
		if (sys && sys->n_samples) {
			snprintf(sp, sizeof(sp), "%+.2f", sys->cycles.mean);
			if (sb_estimate_known(&dd))
				snprintf(dp, sizeof(dp), "%+.2f", dd.value + sys->cycles.mean);
		}
		fprintf(f, "%-6llu %-10.2f %-10.2f %-26s %-12s %-12s %-10s %s\n", (unsigned long long)batch,
			base->cycles.mean, priv->cycles.mean, d, sp, dp, nh, share);
	}
}

/* kernel_obj_command.c: `stubbench kernel --obj=FILE --prog=NAME,...`: a
 * user's BPF object measured like the project's own programs. Loaded --loads
 * times per batch size (batch_iters set before load when the object has it), its
 * programs run with BPF_PROG_TEST_RUN, interleaved, the test-run cost of an
 * empty raw_tp program removed; the JIT of each program read back: flavour,
 * whether each function got a private stack (r9 frame), --dump-jit. */
#include "kernel_commands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stubbench/answer.h"
#include "stubbench/harness.h"
#include "stubbench/probe.h"
#include "stubbench/private_stack_probe.h"
#include "stubbench/jit_check.h"
#include "stubbench/signals.h"
#include "stubbench/json_writer.h"
#include "stubbench/mitigations.h"
#include "stubbench/decode.h"
#include "stubbench/dump.h"
#include "stubbench/flavour.h"
#include "stubbench/jit_read.h"
#include "stubbench/kernel_obj_answer.h"
#include "stubbench/output.h"
#include "stubbench/session.h"
#include "stubbench/pin.h"
#include "stubbench/rng.h"
#include "stubbench/timer.h"
#include "stubbench/user_obj.h"
#ifdef SB_AUTO_TWINS
#include "annotate.h"
#include "obj_auto_twins.h"
#include "stubbench/code_variant.h"
#include "stubbench/deprivatize.h"
#endif

struct obj_run {
	const struct sb_config *o;
	struct sb_user_obj *objs[SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES]; /* [load * n_batches + batch] */
	size_t n_objs, n_loads;
	struct sb_kernel_obj *empty[SB_KERNEL_MAX_LOADS]; /* the empty driver, loaded once per load */
	int empty_fds[SB_KERNEL_MAX_LOADS];
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	int has_batch_iters;
	char *jit_text;        /* what the JIT check found, one line per function */
	/* The first function with an rbp frame of 64 bytes or more of stack,
	 * where upstream gives a private stack ("" : none), and what the run
	 * then could not measure (the summary's line). */
	char no_priv_what[256];
	char not_measured[256];
	/* The kernel's own A/B: the programs with a private stack, loaded
	 * again as syscall programs (none), one object per load and batch. */
	const char *private_progs[SB_USER_MAX_PROGS];
	size_t n_private_progs;
	struct sb_user_obj *sys[SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES];
	size_t n_sys;
	int empty_sys_fds[SB_KERNEL_MAX_LOADS]; /* the empty syscall program, once per load (0: none) */
	/* A spacer before each load (src/kernel/spacer.c), kept loaded with it:
	 * the loads would otherwise sit a fixed distance apart and share page
	 * offsets (docs/kernel-run.md). */
	int spacers[2 * SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES];
	size_t n_spacers;
	struct sb_rng spacer_rng;
	struct sb_results res;
	struct sb_results sres; /* the syscall copies (the kernel's A/B) */
#ifdef SB_AUTO_TWINS
	struct sb_obj_twins twins; /* the programs' auto-twins, measured beside them */
	struct sb_results tres;
	struct sb_variant_arms private_arms[SB_USER_MAX_PROGS];
	struct sb_results pres[SB_USER_MAX_PROGS]; /* the private stack at identical layout, per twin */
	size_t n_pres;
	/* The first twin with a private stack, part by part against its
	 * de-privatized self (annotate.h); an: NULL without it. */
	struct annotate parts;
	const struct annotate *an;
	struct sb_results ares;
	/* The annotate group's copies of that twin and its de-privatized
	 * self ("PROG-parts", "PROG-parts:deprivatized"): rows of their own,
	 * not the private-stack group's. */
	struct sb_code_variant parts_cv[2];
	char parts_name[2][96];
	int n_parts_cv;
#endif
};

static void release(struct obj_run *r)
{
	for (size_t i = 0; i < r->n_objs; i++)
		sb_user_obj_unload(r->objs[i]);
	for (size_t i = 0; i < SB_KERNEL_MAX_LOADS; i++)
		sb_kernel_unload(r->empty[i]);
	for (size_t i = 0; i < r->n_sys; i++)
		sb_user_obj_unload(r->sys[i]);
	for (size_t i = 0; i < SB_KERNEL_MAX_LOADS; i++)
		if (r->empty_sys_fds[i] > 0)
			close(r->empty_sys_fds[i]);
	for (size_t i = 0; i < r->n_spacers; i++)
		close(r->spacers[i]);
	sb_results_free(&r->res);
	sb_results_free(&r->sres);
	free(r->jit_text);
#ifdef SB_AUTO_TWINS
	sb_obj_twins_free(&r->twins);
	sb_results_free(&r->tres);
	sb_results_free(&r->ares);
	sb_ablation_free(&r->parts.ab);
	for (int i = 0; i < r->n_parts_cv; i++)
		sb_code_variant_free(&r->parts_cv[i]);
#endif
}

/* Function f's JIT flavour (whether it sets up r9, a private stack,
 * among it) into *fl: 0, or -1 when it does not decode. */
static int func_flavour(const struct sb_jit_func *f, struct sb_jit_flavour *fl)
{
	struct sb_listing l;
	char err[256];
	memset(fl, 0, sizeof(*fl));
	if (sb_jit_decode(f->bytes, f->len, f->name, &l, err, sizeof(err)) != 0)
		return -1;
	sb_jit_detect_flavour(&l, fl);
	sb_listing_free(&l);
	/* The test hook: an r9 frame seen as none, of a stack not known (-1). */
	if (sb_kernel_test_no_private_stack() && fl->private_stack) {
		fl->private_stack = 0;
		fl->stack_bytes = -1;
	}
	return 0;
}

/* Each program's JIT: its flavour, and per function its size and whether
 * it sets up r9 (a private stack). Lines into f; JSON into j. */
static int check_jit(struct obj_run *r, FILE *f, FILE *j)
{
	char err[512];
	int rc = 0;
	fputs(",\n  \"user_object\": {\"path\": ", j);
	sb_json_string(j, r->o->obj);
	fprintf(j, ", \"batch_iters\": %s, \"programs\": [", r->has_batch_iters ? "true" : "false");
	for (size_t p = 0; p < r->o->n_progs; p++) {
		int fd = sb_user_obj_prog_fd(r->objs[0], r->o->progs[p]);
		struct sb_jit_image img;
		fprintf(j, "%s\n    {\"name\": ", p ? "," : "");
		sb_json_string(j, r->o->progs[p]);
		fprintf(j, ", \"id\": %u, \"functions\": [", sb_kernel_prog_id(fd));
		if (sb_jit_read(fd, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", r->o->progs[p], err);
			fputs("], \"jit_flavour\": null}", j);
			rc = -1;
			continue;
		}
		if (r->o->dump_dir && sb_jit_dump(r->o->dump_dir, &img, err, sizeof(err)) != 0) {
			fprintf(f, "jit %s: %s\n", r->o->progs[p], err);
			rc = -1;
		}
		char desc[256] = "unknown";
		int private = 0;
		for (size_t i = 0; i < img.n; i++) {
			struct sb_jit_flavour fl;
			int decoded = func_flavour(&img.funcs[i], &fl) == 0;
			if (decoded && i == 0) {
				struct sb_jit_flavour shown = fl;
				shown.private_stack = 0;
				sb_jit_flavour_describe(&shown, desc, sizeof(desc));
			}
			private |= decoded && fl.private_stack;
			/* An rbp frame of round_up(depth, 16) >= 64 bytes: where v6.13+
			 * upstream gives a private stack to raw_tp programs. */
			int big = decoded && !fl.private_stack && (fl.stack_bytes >= 49 || fl.stack_bytes < 0);
			char frame[96];
			if (!decoded)
				snprintf(frame, sizeof(frame), "not decodable");
			else if (fl.private_stack)
				snprintf(frame, sizeof(frame), "private stack (r9 frame)");
			else if (fl.stack_bytes < 0)
				snprintf(frame, sizeof(frame), "no private stack (the test hook's)");
			else
				snprintf(frame, sizeof(frame), "no private stack (rbp frame, %d bytes of stack)",
					 fl.stack_bytes);
			if (big && !r->no_priv_what[0] && fl.stack_bytes < 0)
				snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s (the test hook's)",
					 img.prog_name, img.funcs[i].name);
			else if (big && !r->no_priv_what[0])
				snprintf(r->no_priv_what, sizeof(r->no_priv_what), "%s.%s, whose rbp frame holds %d bytes",
					 img.prog_name, img.funcs[i].name, fl.stack_bytes);
			fprintf(f, "jit %s.%s: %zu bytes, %s\n", img.prog_name, img.funcs[i].name, img.funcs[i].len,
				frame);
			fprintf(j, "%s{\"name\": ", i ? ", " : "");
			sb_json_string(j, img.funcs[i].name);
			fprintf(j, ", \"bytes\": %zu, \"private_stack\": %s, \"rbp_stack_bytes\": ", img.funcs[i].len,
				!decoded ? "null" : fl.private_stack ? "true" : "false");
			if (decoded && !fl.private_stack && fl.stack_bytes >= 0)
				fprintf(j, "%d}", fl.stack_bytes);
			else
				fputs("null}", j);
		}
		fprintf(f, "jit %s: flavour %s\n", img.prog_name, desc);
		if (private)
			r->private_progs[r->n_private_progs++] = r->o->progs[p];
		fputs("], \"jit_flavour\": ", j);
		sb_json_string(j, desc);
		fputs("}", j);
		sb_jit_image_free(&img);
	}
	fputs("]", j);
	return rc;
}

static void num_or_null(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

/* The private stack's figures of each twin that has one, per batch: per
 * iteration and per run (x the batch, batch_iters' value): the twin
 * against its de-privatized self (total, codegen, layout) and the
 * kernel's own A/B. JSON: `, "private_stack": [...]`; table: lines. */
static void private_stack_figures(const struct obj_run *r, FILE *f, int json)
{
#ifdef SB_AUTO_TWINS
	if (json)
		fputs(",\n    \"private_stack\": [", f);
	else if (r->n_pres)
		fprintf(f, "# the private stack, cycles per iteration and per run (x batch_iters), 95 %% CI: the twin "
			   "against its de-privatized self (total, codegen, layout), the kernel's A/B (raw_tp - "
			   "syscall, these loads)\n");
	int first = 1;
	for (size_t g = 0; g < r->n_pres; g++)
		for (size_t i = 0; i < r->pres[g].n_cells; i++) {
			const struct sb_cell *c = &r->pres[g].cells[i];
			size_t n = c->arm ? strlen(c->arm->name) : 0;
			if (n < 6 || strcmp(c->arm->name + n - 5, "-twin") != 0)
				continue;
			char prog[96], sys[112];
			snprintf(prog, sizeof(prog), "%.*s", (int)(n - 5), c->arm->name);
			snprintf(sys, sizeof(sys), "%s@syscall", prog);
			const struct sb_cell *k = sb_results_cell(&r->res, prog, c->batch),
					    *ks = sb_results_cell(&r->sres, sys, c->batch);
			struct sb_estimate kc = k ? sb_cell_cycles(k) : sb_estimate_absent("no kernel run"),
					   ksc = ks ? sb_cell_cycles(ks) : sb_estimate_absent("no syscall copy");
			struct sb_estimate e[4] = {c->delta_cycles, c->matched_cycles, c->layout_cycles,
						   sb_estimate_difference(&kc, &ksc)};
			static const char *const names[4] = {"total", "codegen", "layout", "kernel_ab"};
			if (json) {
				fprintf(f, "%s{\"prog\": ", first ? "" : ", ");
				sb_json_string(f, prog);
				fprintf(f, ", \"batch\": %llu, \"per_iteration\": {\"unit\": \"cycles\"",
					(unsigned long long)c->batch);
				for (int q = 0; q < 4; q++)
					sb_json_estimate_member(f, names[q], "cycles", &e[q]);
				fputs("}, \"per_run\": {\"unit\": \"cycles\"", f);
				for (int q = 0; q < 4; q++) {
					struct sb_estimate run = sb_estimate_scaled(&e[q], (double)c->batch);
					sb_json_estimate_member(f, names[q], "cycles", &run);
				}
				fputs("}}", f);
			} else {
				fprintf(f, "%-16s %6llu", prog, (unsigned long long)c->batch);
				for (int q = 0; q < 4; q++) {
					char it[64], run[64];
					struct sb_estimate pr = sb_estimate_scaled(&e[q], (double)c->batch);
					sb_answer_estimate(it, sizeof(it), &e[q], 1);
					sb_answer_estimate(run, sizeof(run), &pr, 1);
					fprintf(f, "  %s %s (%s per run)", names[q], it, run);
				}
				fputc('\n', f);
			}
			first = 0;
		}
	if (json)
		fputs("]", f);
#else
	(void)r, (void)f, (void)json;
#endif
}

/* Cost per run (per iteration x batch_iters), for the JSON and the table;
 * no number where a cell has no samples behind it. */
static void per_run(const struct obj_run *r, FILE *f, int json)
{
	if (json)
		fputs(",\n    \"cycles_per_run\": [", f);
	else
		fprintf(f, "# core cycles per run (per iteration x batch_iters), 95 %% CI\n");
	int first = 1;
	for (size_t i = 0; i < r->res.n_cells; i++) {
		const struct sb_cell *c = &r->res.cells[i];
		if (!c->arm)
			continue;
		struct sb_estimate cyc = sb_cell_cycles(c);
		struct sb_estimate run = sb_estimate_scaled(&cyc, (double)c->batch);
		if (json) {
			fprintf(f, "%s{\"prog\": ", first ? "" : ", ");
			sb_json_string(f, c->arm->name);
			fprintf(f, ", \"batch\": %llu, \"mean\": ", (unsigned long long)c->batch);
			num_or_null(f, run.value);
			fputs(", \"ci95\": [", f);
			num_or_null(f, run.lo);
			fputs(", ", f);
			num_or_null(f, run.hi);
			fputs("]}", f);
		} else if (!sb_estimate_known(&run)) {
			fprintf(f, "%-24s %6llu %10s\n", c->arm->name, (unsigned long long)c->batch, "-");
		} else {
			fprintf(f, "%-24s %6llu %10.2f [%.2f, %.2f]\n", c->arm->name, (unsigned long long)c->batch,
				run.value, run.lo, run.hi);
		}
		first = 0;
	}
	if (json)
		fputs("]", f);
#ifdef SB_AUTO_TWINS
	sb_obj_twins_report(&r->twins, &r->res, &r->tres, f, json);
#endif
	private_stack_figures(r, f, json);
	if (json)
		fputs("}", f);
#ifdef SB_AUTO_TWINS
	if (r->an && json)
		annotate_json(f, r->an);
	else if (r->an) {
		fprintf(f, "# the private stack of %s, part by part (stubbench annotate, docs/annotate.md)\n",
			r->an->variant);
		annotate_summary(f, r->an, SB_ANSWER_MAX_LINES);
		annotate_listing(f, r->an);
	}
#endif
}

struct json_ctx {
	const struct obj_run *r;
	const char *jit_json;
};

static void json_extra(FILE *f, const void *ctx)
{
	const struct json_ctx *c = ctx;
	fputs(c->jit_json, f);
	per_run(c->r, f, 1);
}

/* The cost per run under the table. */
static void after_report(FILE *info, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)all;
	if (fmt == SB_FORMAT_TABLE)
		per_run(ctx, info, 0);
}

/* A spacer of 0-4 KB of JITed code before the next load, so that it starts
 * at a page offset of its own. 0, or -1 with why (sized errlen). */
static int spacer(struct obj_run *r, char *why, size_t errlen)
{
	if (r->n_spacers == sizeof(r->spacers) / sizeof(r->spacers[0]))
		return 0;
	int fd = sb_kernel_spacer_load((size_t)sb_rng_below(&r->spacer_rng, SB_KERNEL_SPACER_MAX_BYTES + 1));
	if (fd < 0) {
		snprintf(why, errlen, "a spacer program before a load failed: %s", strerror(-fd));
		return -1;
	}
	r->spacers[r->n_spacers++] = fd;
	return 0;
}

/* The object checked and loaded --loads times per batch size (batch_iters
 * set), each load at code addresses of its own, the empty driver loaded and
 * test-run on the CPU. Returns SB_KERNEL_OK, or a status said on stderr. */
static int load_all(struct obj_run *r, int *cpu_out, FILE *info)
{
	const struct sb_config *o = r->o;
	char why[1024];
	enum sb_kernel_status st;
	if (sb_user_obj_check(o->obj, (const char *const *)o->progs, o->n_progs, &r->has_batch_iters, why,
			      sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_USAGE;
	}
	int cpu;
	st = sb_kernel_start(o->cpu, &cpu, why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return st;
	}
	*cpu_out = cpu;
	/* Without batch_iters a run's work is fixed: one "batch" of one run. */
	if (r->has_batch_iters) {
		memcpy(r->batches, o->batches, o->n_batches * sizeof(*o->batches));
		r->n_batches = o->n_batches;
	} else {
		r->batches[0] = 1;
		r->n_batches = 1;
		fprintf(info, "%s has no batch_iters global: one batch, a run is an iteration\n", o->obj);
	}
	r->n_loads = o->loads ? (size_t)o->loads : 1;
	sb_rng_seed(&r->spacer_rng, o->seed ^ 0x5bace5bace);
	for (size_t b = 0; b < r->n_loads * r->n_batches; b++) {
		if (spacer(r, why, sizeof(why)) != 0) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return SB_KERNEL_FAILED;
		}
		r->objs[b] = sb_user_obj_load(o->obj, (uint32_t)r->batches[b % r->n_batches], &st, why, sizeof(why));
		if (!r->objs[b]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->n_objs++;
	}
	fprintf(info, "loads: %s %zu time%s per batch size, each after a spacer, a block running one (--loads)\n",
		o->obj, r->n_loads, r->n_loads == 1 ? "" : "s");
	for (size_t l = 0; l < r->n_loads; l++) {
		r->empty[l] = sb_kernel_load(1, 0, &st, why, sizeof(why));
		if (!r->empty[l]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->empty_fds[l] = sb_kernel_empty_fd(r->empty[l]);
	}
	int trc = sb_kernel_test_run(r->empty_fds[0], cpu);
	if (trc != 0) {
		fprintf(stderr, "stubbench kernel: BPF_PROG_TEST_RUN of a raw_tp program refused on CPU %d: %s\n", cpu,
			strerror(-trc));
		return SB_KERNEL_NO_TEST_RUN;
	}
	return SB_KERNEL_OK;
}

/* 1 when a function of prog's JIT in obj sets up r9 (a private stack), 0
 * when none does, -1 when the JIT cannot be read. */
static int jit_private(struct sb_user_obj *obj, const char *prog)
{
	struct sb_jit_image img;
	char err[512];
	if (sb_jit_read(sb_user_obj_prog_fd(obj, prog), &img, err, sizeof(err)) != 0)
		return -1;
	int private = 0;
	for (size_t i = 0; i < img.n && !private; i++) {
		struct sb_jit_flavour fl;
		private = func_flavour(&img.funcs[i], &fl) == 0 && fl.private_stack;
	}
	sb_jit_image_free(&img);
	return private;
}

#ifdef SB_AUTO_TWINS
/* Each function of prog that got a private stack, de-privatized
 * (sb_deprivatize), against the same function as the JIT emitted it in
 * the syscall copy, addresses masked: one line each into info. */
static void compare_deprivatized(struct sb_user_obj *raw, struct sb_user_obj *sys, const char *prog, FILE *info)
{
	struct sb_jit_image a, b;
	char err[512];
	if (sb_jit_read(sb_user_obj_prog_fd(raw, prog), &a, err, sizeof(err)))
		return;
	if (sb_jit_read(sb_user_obj_prog_fd(sys, prog), &b, err, sizeof(err))) {
		sb_jit_image_free(&a);
		return;
	}
	for (size_t i = 0; i < a.n; i++) {
		const struct sb_jit_func *k = sb_jit_find(&b, a.funcs[i].name);
		struct sb_twin t;
		struct sb_listing l;
		if (!k || sb_deprivatize(a.funcs[i].bytes, a.funcs[i].len, NULL, &t, err, sizeof(err)))
			continue;
		if (sb_jit_decode(k->bytes, k->len, k->name, &l, err, sizeof(err)) == 0) {
			char where[256] = "";
			sb_jit_mask_listing(&l);
			long d = sb_twin_compare(&l, t.code, t.len, where, sizeof(where));
			if (d < 0)
				fprintf(info, "kernel A/B: %s.%s de-privatized equals its JIT as a syscall program (%zu "
					"instructions, addresses masked)\n", prog, k->name, l.n);
			else
				fprintf(info, "kernel A/B: %s.%s de-privatized differs from its JIT as a syscall program: "
					"%s\n", prog, k->name, where);
			sb_listing_free(&l);
		}
		sb_twin_free(&t);
	}
	sb_jit_image_free(&a);
	sb_jit_image_free(&b);
}
#endif

/* The kernel's own A/B of the programs with a private stack: each loaded
 * again as a syscall program, which the JIT gives none, once per load and
 * batch, with an empty syscall program per load for its test-run path. One line into
 * info; without it the run goes on. Returns 1 when there is an A/B. */
static int load_syscall_copies(struct obj_run *r, int cpu, FILE *info)
{
	const struct sb_config *o = r->o;
	char why[1024];
	enum sb_kernel_status st;
	if (!r->n_private_progs)
		return 0;
	for (size_t b = 0; b < r->n_loads * r->n_batches; b++) {
		uint32_t batch = (uint32_t)r->batches[b % r->n_batches];
		if (spacer(r, why, sizeof(why)) != 0) {
			fprintf(info, "kernel A/B: none: %s\n", why);
			return 0;
		}
		if (!(r->sys[b] = sb_user_obj_load_as_syscall(o->obj, batch, r->private_progs, r->n_private_progs, &st,
							       why, sizeof(why)))) {
			fprintf(info, "kernel A/B: none: %s\n", why);
			return 0;
		}
		r->n_sys++;
	}
	for (size_t i = 0; i < r->n_private_progs; i++)
		if (jit_private(r->sys[0], r->private_progs[i]) != 0) {
			fprintf(info, "kernel A/B: none: %s as a syscall program still has a private stack, or no JIT "
				"to read\n", r->private_progs[i]);
			return 0;
		}
	for (size_t l = 0; l < r->n_loads; l++)
		if ((r->empty_sys_fds[l] = sb_user_obj_empty_syscall(why, sizeof(why))) < 0) {
			r->empty_sys_fds[l] = 0;
			fprintf(info, "kernel A/B: none: %s\n", why);
			return 0;
		}
	st = sb_user_obj_check_runs(r->sys[0], r->private_progs, r->n_private_progs, cpu, 0, why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(info, "kernel A/B: none: as a syscall program: %s\n", why);
		return 0;
	}
	fprintf(info, "kernel A/B: %s loaded again as syscall program%s (no private stack)\n",
		r->n_private_progs == 1 ? r->private_progs[0] : "the programs with a private stack",
		r->n_private_progs == 1 ? "" : "s");
#ifdef SB_AUTO_TWINS
	for (size_t i = 0; i < r->n_private_progs; i++)
		compare_deprivatized(r->objs[0], r->sys[0], r->private_progs[i], info);
#endif
	return 1;
}

#ifdef SB_AUTO_TWINS
/* The first twin with a private stack, part by part (annotate): its parts
 * against its de-privatized self, each NOPed and removed, at identical
 * layout. One line into info where there are none, or the other twins'
 * parts are not measured. Returns as annotate_measure, 0 without parts. */
static int measure_parts(struct obj_run *r, const struct sb_config *cfg, FILE *info)
{
	const struct sb_obj_twin *o = NULL;
	size_t with = 0;
	for (size_t i = 0; i < r->twins.n; i++)
		if (r->twins.t[i].has_depriv && r->twins.t[i].n_placed) {
			o = o ? o : &r->twins.t[i];
			with++;
		}
	if (!o)
		return 0;
	char err[512];
	const struct sb_code_variant *from[2] = {&o->twin.cv, &o->depriv.cv};
	snprintf(r->parts_name[0], sizeof(r->parts_name[0]), "%.60s-parts", o->prog);
	snprintf(r->parts_name[1], sizeof(r->parts_name[1]), "%.60s-parts:deprivatized", o->prog);
	for (; r->n_parts_cv < 2; r->n_parts_cv++) {
		struct sb_code_func f[SB_CODE_VARIANT_MAX_FUNCS];
		const struct sb_code_variant *c = from[r->n_parts_cv];
		size_t n = sb_code_variant_funcs(c, f);
		struct sb_code_variant *to = &r->parts_cv[r->n_parts_cv];
		if (sb_code_variant_make(&c->v, r->parts_name[r->n_parts_cv], NULL, f, n, to, err, sizeof(err))) {
			fprintf(info, "annotate %s: no cost per part: %s\n", o->prog, err);
			return 0;
		}
		to->v.family = c->v.family;
	}
	if (annotate_parts_of_code(&r->parts, &r->parts_cv[0], &r->parts_cv[1], err, sizeof(err))) {
		fprintf(info, "annotate %s: no cost per part: %s\n", o->prog, err);
		return 0;
	}
	if (with > 1)
		fprintf(info, "annotate %s: the first program with a private stack only (--prog=NAME for another)\n",
			o->prog);
	int rc = annotate_measure(cfg, "stubbench kernel", &r->parts, &r->parts_cv[0].v, &r->parts_cv[1].v,
				  &r->ares);
	r->an = r->parts.n_att ? &r->parts : NULL;
	return rc;
}
#endif

static int run(struct obj_run *r)
{
	const struct sb_config *o = r->o;
	char why[1024];
	enum sb_kernel_status st;
	int cpu = -1;
	/* What the run finds before it measures: above the full table
	 * (--table, --verbose); on stderr otherwise, so that the summary is
	 * the first thing on stdout. */
	FILE *info = o->format == SB_FORMAT_TABLE && sb_session_full_report(o) ? stdout : stderr;
	int lrc = load_all(r, &cpu, info);
	if (lrc != SB_KERNEL_OK)
		return lrc;
	/* The JIT first: its dumps are written even for programs that
	 * BPF_PROG_TEST_RUN then refuses. */
	char *jit_json = NULL;
	size_t len;
	FILE *j = open_memstream(&jit_json, &len);
	if (!j) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	int rc = check_jit(r, info, j) == 0 ? SB_KERNEL_OK : SB_KERNEL_FAILED;
	fclose(j);
	/* A function with the stack for a private stack, and none in any
	 * program: why, in one line; the rest measured, status 6. */
	if (!r->n_private_progs && r->no_priv_what[0]) {
		struct sb_private_stack_probe probe;
		int probed = sb_kernel_say_no_private_stack(r->no_priv_what, info, &probe);
		sb_kernel_not_measured_as("the private stack's cost", probed ? &probe : NULL, r->not_measured,
					  sizeof(r->not_measured));
		if (rc == SB_KERNEL_OK)
			rc = SB_KERNEL_NO_PRIV_STACK;
	}
	if (o->dump_dir)
		fprintf(info, "jit: dumps written to %s\n", o->dump_dir);
	/* At the largest batch, one run each: a program whose run would hold
	 * the measurement far past --time is refused before it starts. */
	size_t big = 0;
	for (size_t b = 1; b < r->n_batches; b++)
		if (r->batches[b] > r->batches[big])
			big = b;
	st = sb_user_obj_check_runs(r->objs[big], (const char *const *)o->progs, o->n_progs, cpu,
				    o->time_s > 0 ? o->time_s / 8 : 0, why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		free(jit_json);
		fprintf(stderr, "stubbench kernel: %s: %s\n", o->obj, why);
		return st;
	}
	static struct sb_user_arms arms;
	sb_user_arms_build(&arms, r->objs, r->n_loads, r->batches, r->n_batches, (const char *const *)o->progs,
			   o->n_progs, r->empty_fds, cpu);
	static struct sb_user_arms sys_arms;
	int ab = load_syscall_copies(r, cpu, info);
	if (ab)
		sb_user_arms_build_syscall(&sys_arms, r->sys, r->n_loads, r->batches, r->n_batches, r->private_progs,
					   r->n_private_progs, r->empty_sys_fds, cpu);
	sb_timer_probe();
	/* The run's batch sizes: the object's own without batch_iters. */
	static struct sb_config cfg;
	cfg = *o;
	memcpy(cfg.batches, r->batches, r->n_batches * sizeof(*r->batches));
	cfg.n_batches = r->n_batches;
	/* The programs measured, not the built-in variants. */
	static char progs[SB_CONFIG_MAX_PROGS * 64];
	progs[0] = '\0';
	for (size_t i = 0; i < o->n_progs; i++)
		snprintf(progs + strlen(progs), sizeof(progs) - strlen(progs), "%s%s", i ? "," : "", o->progs[i]);
	cfg.variants = progs;
	size_t n_private = 0;
#ifdef SB_AUTO_TWINS
	sb_obj_twins_make(&r->twins, r->objs, r->n_loads, r->batches, r->n_batches, (const char *const *)o->progs,
			  o->n_progs, r->has_batch_iters, info);
	static struct sb_group groups[SB_USER_MAX_PROGS];
	static const struct sb_variant *others[SB_USER_MAX_PROGS], *padded[SB_USER_MAX_PROGS];
	n_private = sb_obj_twins_private_groups(&r->twins, groups, r->private_arms, r->pres, others, padded,
						SB_USER_MAX_PROGS);
#endif
	/* With twins of a private stack, the kernel's runs take half the time
	 * and the twins against their de-privatized selves the rest (--time
	 * bounds the process's age: wall_clock.h). */
	struct sb_config kcfg = cfg;
	if (n_private)
		kcfg.time_s = cfg.time_s / 2;
	struct sb_run_opts ro;
	sb_session_run_opts(&kcfg, &ro);
	ro.processes = 1; /* the programs' counters are read in this process */
	struct sb_run_part parts[3] = {{.arms = arms.arms, .n_arms = arms.n, .opts = &ro, .out = &r->res}};
	size_t n_parts = 1;
	if (ab)
		parts[n_parts++] = (struct sb_run_part){.arms = sys_arms.arms, .n_arms = sys_arms.n, .opts = &ro,
							.out = &r->sres};
#ifdef SB_AUTO_TWINS
	if (r->twins.n_arms)
		parts[n_parts++] = (struct sb_run_part){.arms = r->twins.arms, .n_arms = r->twins.n_arms, .opts = &ro,
							.out = &r->tres};
#endif
	/* The parts share the time: a part's time_s is its share (schedule.c). */
	ro.time_s /= (double)n_parts;
	if (sb_run_parts(parts, n_parts, why, sizeof(why)) != 0) {
		free(jit_json);
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
		for (size_t i = 0; i < arms.n; i++)
			if (arms.ctx[i].last_error)
				snprintf(why, sizeof(why), "BPF_PROG_TEST_RUN of %s failed: %s",
					 arms.ctx[i].prog ? arms.ctx[i].prog : "the empty driver",
					 strerror(-arms.ctx[i].last_error));
		fprintf(stderr, "stubbench kernel: %s: measurement failed: %s\n", o->obj, why);
		return SB_KERNEL_FAILED;
	}
	int prc = 0;
#ifdef SB_AUTO_TWINS
	if (n_private) {
		/* --padded: each twin and its de-privatized self at one table of
		 * placements (session.h), to three quarters of --time; the
		 * first one's parts (annotate) the rest. */
		struct sb_config pcfg = cfg;
		pcfg.padded = 1;
		pcfg.time_s = cfg.time_s * 3 / 4;
		prc = sb_measure_groups(&pcfg, "stubbench kernel", groups, n_private);
		r->n_pres = n_private;
		if (prc == 0)
			prc = measure_parts(r, &cfg, info);
	}
#endif
	static struct json_ctx jc;
	jc = (struct json_ctx){r, jit_json};
	struct sb_session s;
	sb_session_init(&s, "stubbench kernel", &cfg);
	static struct sb_return_thunk host;
	sb_return_thunk_from_sysfs(&host);
	s.meta.thunk = &host;
	s.meta.tool = "stubbench kernel --obj";
	s.answer = sb_kernel_obj_answer;
	s.meta.json_extra = json_extra;
	s.meta.json_extra_ctx = &jc;
	s.meta.not_measured = r->not_measured[0] ? r->not_measured : NULL;
	s.after_report = after_report;
	s.after_ctx = r;
	sb_session_add(&s, &r->res, NULL);
	if (ab)
		sb_session_add_section(&s, &r->sres, "syscall", "the programs with a private stack loaded as syscall "
				       "programs (none): the kernel's own A/B");
#ifdef SB_AUTO_TWINS
	if (r->twins.n_arms)
		sb_session_add_section(&s, &r->tres, "auto-twin", "auto-twins, placed like the loads");
	for (size_t i = 0; i < r->n_pres; i++)
		sb_session_add_section(&s, &r->pres[i], "private-stack",
				       "the private stack: each twin against its de-privatized self, identical layout");
	if (r->an)
		sb_session_add_section(&s, &r->ares, "parts", "the private stack part by part: its ablations");
#endif
	/* An error or a failed measurement outranks "measured in part". */
	int frc = sb_session_finish(&s, rc && rc != SB_KERNEL_NO_PRIV_STACK ? rc : prc != 0);
	rc = frc ? frc : rc;
	free(jit_json);
	return rc;
}

int sb_kernel_obj_run(const struct sb_config *o)
{
	struct obj_run *r = calloc(1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "stubbench kernel: out of memory\n");
		return SB_KERNEL_FAILED;
	}
	r->o = o;
	int rc = run(r);
	release(r);
	free(r);
	return rc;
}

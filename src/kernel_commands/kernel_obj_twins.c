/* kernel_obj_twins.c: the auto-twins of `stubbench kernel --obj`; see
 * kernel_obj_twins.h. */
#include "kernel_obj_twins.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "twins/deprivatize.h"
#include "kernel/jit_check.h"
#include "harness/harness.h"
#include "output/json_doc.h"
#include "answer/kernel_verdict.h"
#include "jit/ksyms.h"
#include "variants/percpu.h"
#include "kernel/signals.h"
#include "stubbench/timer.h"
#include "variants/twin_variants.h"

#define KALLSYMS "/proc/kallsyms"
#define PAGE 4096u

/* Where the kernel's returns go: the thunk the main function's jmp names. */
static enum sb_thunk kernel_thunk(const struct sb_jit_image *img, const struct sb_ksyms *ks)
{
	struct sb_jit_target tg[64];
	size_t n;
	char err[200];
	for (size_t i = 0; i < img->n; i++)
		if (sb_jit_resolve_targets(img, &img->funcs[i], ks, tg, 64, &n, err, sizeof(err)) == 0) {
			enum sb_thunk th = sb_jit_return_thunk(&img->funcs[i], tg, n);
			if (th != SB_THUNK_UNKNOWN)
				return th;
		}
	return SB_THUNK_UNKNOWN;
}

/* The twin placed like one load: each function at its kernel function's
 * page offset (the helper stubs at 0). */
static int place_like(struct sb_obj_twin *o, const struct sb_jit_image *load, size_t index, char *err, size_t errlen)
{
	struct sb_placed_variant p;
	if (sb_place_collect(&o->twin.cv.v, &p, err, errlen))
		return -1;
	unsigned offs[SB_PLACE_MAX_FUNCS] = {0};
	for (size_t i = 0; i < p.n_funcs; i++)
		for (size_t k = 0; k < o->twin.cv.n_funcs; k++) {
			const struct sb_jit_func *f = sb_jit_find(load, o->twin.func_name[k]);
			if (p.old_addr[i] == o->twin.cv.addr[k] && f)
				offs[i] = (unsigned)(f->ksym % PAGE);
		}
	struct sb_place_policy like = {.page_offsets = offs, .n_offsets = p.n_funcs, .tag = "load"};
	return sb_place(&o->twin.cv.v, &like, (unsigned)index + 1, &o->placed[index], err, errlen);
}


/* A twin of o's program de-privatized (padded: at the twin's layout),
 * made from spec with that image into *out, named name. Returns 0, or -1
 * with why. */
static int make_deprivatized(struct sb_obj_twin *o, struct sb_auto_twin_spec s, int padded, const char *name,
			     struct sb_jit_image *img, struct sb_auto_twin *out, char *why, size_t whylen)
{
	char err[300];
	long n = sb_deprivatize_image(&o->src.img, padded, img, err, sizeof(err));
	if (n <= 0) {
		snprintf(why, whylen, "%s", n < 0 ? err : "no function de-privatized");
		sb_jit_image_free(img); /* none de-privatized: the copies it made */
		return -1;
	}
	s.name = name;
	s.img = img;
	if (sb_auto_twin_make(&s, out, err, sizeof(err))) {
		snprintf(why, whylen, "%s", err);
		sb_jit_image_free(img);
		return -1;
	}
	out->batch_size = o->twin.batch_size;
	out->cv.v.family = "user-obj";
	return 0;
}

/* The de-privatized twin of a twin with a private stack, and its padded
 * form; why said in o->depriv_why where there is none. A padded form that
 * cannot be made leaves the codegen cost against the de-privatized twin
 * (said). */
static void make_depriv(struct sb_obj_twin *o, const struct sb_auto_twin_spec *s)
{
	snprintf(o->depriv_name, sizeof(o->depriv_name), "%s:deprivatized", o->twin_name);
	snprintf(o->padded_name, sizeof(o->padded_name), "%s:padded", o->twin_name);
	o->has_depriv = make_deprivatized(o, *s, 0, o->depriv_name, &o->depriv_img, &o->depriv, o->depriv_why,
					  sizeof(o->depriv_why)) == 0;
	if (o->has_depriv)
		o->has_padded = make_deprivatized(o, *s, 1, o->padded_name, &o->padded_img, &o->padded,
						  o->padded_why, sizeof(o->padded_why)) == 0;
}

static void make_one(struct sb_obj_twin *o, struct sb_user_obj *const *objs, size_t n_loads, const uint64_t *batches,
		     size_t n_batches, int has_batch_iters, const struct sb_ksyms *ks)
{
	char err[300];
	if (sb_auto_twin_source_read(sb_user_obj_prog_fd(objs[0], o->prog), &o->src, err, sizeof(err))) {
		snprintf(o->why, sizeof(o->why), "%s", err);
		return;
	}
	unsigned size = 0;
	struct sb_auto_twin_slot bound = sb_auto_twin_source_global(&o->src, "batch_iters", &size);
	snprintf(o->arm_name, sizeof(o->arm_name), "%s-twin@loads", o->prog);
	snprintf(o->twin_name, sizeof(o->twin_name), "%s-twin", o->prog);
	struct sb_auto_twin_spec s = {
		.name = o->twin_name, .img = &o->src.img, .maps = o->src.maps, .n_maps = o->src.n_maps,
		.refs = o->src.refs, .n_refs = o->src.n_refs, .ks = ks, .thunk = kernel_thunk(&o->src.img, ks),
		.tmpl = sb_twin_variant(has_batch_iters ? "in-loop" : "per-run", "baseline"),
		.batch_iters = has_batch_iters ? bound : (struct sb_auto_twin_slot){-1, 0}, .counter = {-1, 0}};
	if (has_batch_iters && bound.map < 0) {
		snprintf(o->why, sizeof(o->why), "its batch_iters global is in no map the program uses");
		return;
	}
	if (s.thunk == SB_THUNK_UNKNOWN) {
		snprintf(o->why, sizeof(o->why), "its returns reach no known return thunk");
		return;
	}
	if (sb_auto_twin_make(&s, &o->twin, err, sizeof(err))) {
		snprintf(o->why, sizeof(o->why), "%s", err);
		return;
	}
	o->made = 1;
	o->twin.cv.v.family = "user-obj";
	o->twin.batch_size = size ? size : 4;
	sb_auto_twin_describe(&o->twin, o->desc, sizeof(o->desc));
	if (sb_auto_twin_check_path(&o->twin, batches[0], &o->path, err, sizeof(err))) {
		o->path.comparable = 0;
		snprintf(o->path.why, sizeof(o->path.why), "%.200s", err);
	}
	if (!o->path.comparable)
		return;
	if (o->twin.n_private && !sb_kernel_test_no_private_stack_of(sb_user_obj_prog_fd(objs[0], o->prog)))
		make_depriv(o, &s);
	for (size_t b = 0; b < n_loads * n_batches; b++) {
		struct sb_auto_twin_source load;
		if (sb_auto_twin_source_read(sb_user_obj_prog_fd(objs[b], o->prog), &load, err, sizeof(err)) ||
		    place_like(o, &load.img, b, err, sizeof(err))) {
			snprintf(o->why, sizeof(o->why), "placing it like load %zu of batch %llu: %s", b / n_batches + 1,
				 (unsigned long long)batches[b % n_batches], err);
			if (load.img.funcs)
				sb_auto_twin_source_free(&load);
			return;
		}
		sb_auto_twin_source_free(&load);
		o->n_placed++;
	}
}

static uint64_t sample_twin(void *p, uint64_t batch)
{
	struct sb_obj_twin_ctx *c = p;
	long bi = sb_batch_index(c->batches, c->n_batches, batch);
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	if (!c->t)
		return sb_time_calls(sb_empty_stub, c->in_loop ? 1 : batch);
	const struct sb_variant *v = &c->t->placed[c->load * c->n_batches + (size_t)bi].v;
	if (!c->in_loop)
		return sb_time_calls(v->main, batch);
	/* The loop bound's own width: a 4-byte global gets 4 bytes. */
	memcpy((void *)v->batch_iters, &batch, c->t->twin.batch_size);
	return sb_time_calls(v->main, 1);
}

/* A block's state: the load its copy is placed like. */
static void select_load(void *p, size_t state)
{
	struct sb_obj_twin_ctx *c = p;
	c->load = state % c->n_loads;
}

static void add_arm(struct sb_obj_twins *t, struct sb_obj_twin *o, size_t n_loads, const uint64_t *batches,
		    size_t n_batches, int in_loop)
{
	struct sb_obj_twin_ctx *c = &t->ctx[t->n_arms];
	struct sb_arm *a = &t->arms[t->n_arms];
	*c = (struct sb_obj_twin_ctx){o, batches, n_batches, in_loop, n_loads ? n_loads : 1, 0};
	a->ctx = c;
	a->sample = sample_twin;
	if (o && c->n_loads > 1) {
		a->n_states = c->n_loads;
		a->set_state = select_load;
	}
	a->name = a->seed_name = o ? o->arm_name : "overhead";
	a->is_overhead = o == NULL;
	a->is_baseline = t->n_arms == 1;
	if (o)
		sb_cell_key_set(&a->key, SB_SIDE_PLACED_TWIN, "user-obj", o->prog, NULL, NULL, NULL, o->arm_name);
	t->n_arms++;
}

void sb_obj_twins_make(struct sb_obj_twins *t, struct sb_user_obj *const *objs, size_t n_loads,
		       const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
		       int has_batch_iters, FILE *info)
{
	memset(t, 0, sizeof(*t));
	char err[300];
	if (sb_percpu_thread_init(err, sizeof(err))) {
		fprintf(info, "auto-twins: none: %s\n", err);
		return;
	}
	t->percpu_ready = 1;
	struct sb_ksyms ks;
	int have_ks = sb_ksyms_load(KALLSYMS, &ks, err, sizeof(err)) == 0;
	if (!have_ks)
		fprintf(info, "auto-twins: helpers not named (every helper stub returns 0): %s\n", err);
	for (size_t p = 0; p < n_progs && p < SB_USER_MAX_PROGS; p++) {
		struct sb_obj_twin *o = &t->t[t->n++];
		o->prog = progs[p];
		make_one(o, objs, n_loads, batches, n_batches, has_batch_iters, have_ks ? &ks : NULL);
		if (!o->made)
			fprintf(info, "auto-twin %s: none: %s\n", o->prog, o->why);
		else if (!o->path.comparable)
			fprintf(info, "auto-twin %s: not comparable: %s\n", o->prog, o->path.why);
		else if (o->n_placed < n_loads * n_batches)
			fprintf(info, "auto-twin %s: not measured: %s\n", o->prog, o->why);
		else
			fprintf(info, "auto-twin %s: %s; the kernel's path (%llu instructions per run at batch %llu)\n",
				o->prog, o->desc, (unsigned long long)o->path.stubbed, (unsigned long long)batches[0]);
		if (o->made && o->src.note[0])
			fprintf(info, "auto-twin %s: %s\n", o->prog, o->src.note);
		if (o->has_depriv && o->has_padded)
			fprintf(info, "auto-twin %s: de-privatized twins made (its own layout and the twin's), for "
				"the private stack's cost\n", o->prog);
		else if (o->has_depriv)
			fprintf(info, "auto-twin %s: de-privatized for the private stack's cost; not at the twin's "
				"layout, so no layout cost apart: %s\n", o->prog, o->padded_why);
		else if (o->depriv_why[0])
			fprintf(info, "auto-twin %s: no de-privatized twin, so no private stack cost: %s\n", o->prog,
				o->depriv_why);
	}
	if (have_ks)
		sb_ksyms_free(&ks);
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].made && t->t[i].path.comparable && t->t[i].n_placed == n_loads * n_batches) {
			if (t->n_arms == 0)
				add_arm(t, NULL, n_loads, batches, n_batches, has_batch_iters);
			add_arm(t, &t->t[i], n_loads, batches, n_batches, has_batch_iters);
		}
}

void sb_obj_twins_free(struct sb_obj_twins *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct sb_obj_twin *o = &t->t[i];
		for (size_t b = 0; b < o->n_placed; b++)
			sb_place_free(&o->placed[b]);
		if (o->made)
			sb_auto_twin_free(&o->twin);
		if (o->has_depriv) {
			sb_auto_twin_free(&o->depriv);
			sb_jit_image_free(&o->depriv_img);
		}
		if (o->has_padded) {
			sb_auto_twin_free(&o->padded);
			sb_jit_image_free(&o->padded_img);
		}
		if (o->src.img.funcs)
			sb_auto_twin_source_free(&o->src);
	}
	if (t->percpu_ready)
		sb_percpu_thread_fini();
	memset(t, 0, sizeof(*t));
}

size_t sb_obj_twins_private_groups(struct sb_obj_twins *t, struct sb_group *groups,
				   struct sb_variant_arms *arms, struct sb_results *res,
				   const struct sb_variant **others, const struct sb_variant **padded,
				   const struct sb_obj_twin **twin_of, size_t max)
{
	size_t n = 0;
	for (size_t i = 1; i < t->n_arms && n < max; i++) {
		struct sb_obj_twin *o = t->ctx[i].t;
		if (!o || !o->has_depriv)
			continue;
		others[n] = &o->twin.cv.v;
		padded[n] = o->has_padded ? &o->padded.cv.v : NULL;
		twin_of[n] = o;
		groups[n] = (struct sb_group){.baseline = &o->depriv.cv.v, .others = &others[n], .n_others = 1,
					      .padded = &padded[n], .arms = &arms[n], .res = &res[n]};
		n++;
	}
	return n;
}

/* Twin o against its program in array twins_doc (json_doc.h), or (NULL)
 * lines into f. */
static void report_one(const struct sb_obj_twin *o, const struct sb_results *kernel, const struct sb_results *twins,
		       FILE *f, struct sb_doc *twins_doc)
{
	const char *state = !o->made ? "none" : !o->path.comparable ? "not comparable" : "measured";
	const char *why = !o->made ? o->why : !o->path.comparable ? o->path.why : "";
	struct sb_doc *batches = NULL;
	if (twins_doc) {
		struct sb_doc *t = sb_doc_object(twins_doc, NULL);
		sb_doc_string(t, "prog", o->prog);
		sb_doc_string(t, "state", state);
		sb_doc_string(t, "why", why);
		sb_doc_uint(t, "insns_stubbed", o->path.stubbed);
		sb_doc_uint(t, "insns_real", o->path.real);
		batches = sb_doc_array(t, "batches");
	} else if (!o->made || !o->path.comparable) {
		fprintf(f, "auto-twin %s: %s: %s\n", o->prog, state, why);
		return;
	}
	for (size_t i = 0; twins && i < twins->n_cells; i++) {
		const struct sb_cell *tc = &twins->cells[i];
		if (!tc->arm || strcmp(tc->arm->name, o->arm_name) != 0)
			continue;
		const struct sb_cell *kc = sb_results_cell(kernel, o->prog, tc->batch);
		struct sb_estimate te = sb_cell_cycles(tc), ke = kc ? sb_cell_cycles(kc) : sb_estimate_absent("no run");
		struct sb_verdict_of v = sb_kernel_verdict(&te, &ke);
		const char *vn = sb_verdict_name(v.verdict);
		if (twins_doc) {
			struct sb_doc *b = sb_doc_object(batches, NULL);
			sb_doc_uint(b, "batch", tc->batch);
			sb_doc_estimate(b, "twin", "cycles", &te);
			sb_doc_estimate(b, "kernel", "cycles", &ke);
			sb_doc_string_or_null(b, "verdict", vn);
		} else if (sb_estimate_has_ci(&te) && sb_estimate_has_ci(&ke) && ke.value > 0) {
			fprintf(f, "auto-twin %s, batch %llu: %.2f [%.2f, %.2f] cycles/iteration, kernel %.2f [%.2f, "
				"%.2f]: %+.0f %%, %s\n", o->prog, (unsigned long long)tc->batch, te.value, te.lo, te.hi,
				ke.value, ke.lo, ke.hi, 100.0 * (te.value - ke.value) / ke.value, vn ? vn : "no verdict");
		} else {
			fprintf(f, "auto-twin %s, batch %llu: no figure with a CI on one side\n", o->prog,
				(unsigned long long)tc->batch);
		}
	}
}

void sb_obj_twins_report(const struct sb_obj_twins *t, const struct sb_results *kernel,
			 const struct sb_results *twins, FILE *f, struct sb_doc *uo)
{
	struct sb_doc *twins_doc = NULL;
	if (uo) {
		sb_doc_break(uo, "\n    ");
		twins_doc = sb_doc_array(uo, "auto_twins");
	} else {
		fprintf(f, "# auto-twins (the JIT image run in user space, placed like the loads) vs the kernel: "
			   "%s\n", SB_VERDICT_RULE);
	}
	for (size_t i = 0; i < t->n; i++)
		report_one(&t->t[i], kernel, twins, f, twins_doc);
}

/* kernel_obj_private.c: the private stack's cost in a `stubbench kernel
 * --obj` run, from its programs' auto-twins (kernel_obj_twins.h): each
 * twin placed like the loads beside the kernel's runs, each twin with a
 * private stack against its de-privatized self at identical layout, the
 * first one part by part (kernel_obj_parts.c); see kernel_obj.h. */
#include "kernel_obj.h"

#include <stdlib.h>
#include <string.h>

#include "kernel_obj_twins.h"
#include "answer/answer.h"
#include "jit/decode.h"
#include "twins/deprivatize.h"
#include "stubbench/estimate.h"
#include "jit/flavour.h"
#include "kernel/jit_read.h"
#include "output/json_doc.h"
#include "jit/listing.h"

struct sb_obj_private {
	struct sb_obj_twins twins; /* the programs' auto-twins, measured beside them */
	struct sb_results tres;    /* their runs, placed like the loads */
	/* One group per twin with a private stack: the twin (twin_of) against
	 * its de-privatized self, at identical layout, into res. */
	struct sb_group groups[SB_USER_MAX_PROGS];
	const struct sb_variant *others[SB_USER_MAX_PROGS], *padded[SB_USER_MAX_PROGS];
	const struct sb_obj_twin *twin_of[SB_USER_MAX_PROGS];
	struct sb_variant_arms arms[SB_USER_MAX_PROGS];
	struct sb_results res[SB_USER_MAX_PROGS];
	size_t n_groups;
	size_t n_measured;          /* the groups with results (after sb_obj_private_measure) */
	struct sb_obj_parts *parts; /* the first twin's parts (NULL: none measured) */
};

size_t sb_obj_private_make(struct sb_obj_run *r, FILE *info)
{
	struct sb_obj_private *p = calloc(1, sizeof(*p));
	if (!p) {
		fprintf(info, "auto-twins: none: out of memory\n");
		return 0;
	}
	r->priv = p;
	sb_obj_twins_make(&p->twins, r->objs, r->n_loads, r->batches, r->n_batches, (const char *const *)r->cfg->kernel.progs,
			  r->cfg->kernel.n_progs, r->has_batch_iters, info);
	p->n_groups = sb_obj_twins_private_groups(&p->twins, p->groups, p->arms, p->res, p->others, p->padded,
						  p->twin_of, SB_USER_MAX_PROGS);
	return p->n_groups;
}

void sb_obj_private_add_part(struct sb_obj_run *r, struct sb_arm_set *parts, size_t *n, const struct sb_run_opts *ro)
{
	struct sb_obj_private *p = r->priv;
	if (p && p->twins.n_arms)
		parts[(*n)++] = (struct sb_arm_set){.arms = p->twins.arms, .n_arms = p->twins.n_arms, .opts = ro,
						     .out = &p->tres};
}

int sb_obj_private_measure(struct sb_obj_run *r, const struct sb_config *cfg, FILE *info)
{
	struct sb_obj_private *p = r->priv;
	if (!p || !p->n_groups)
		return 0;
	/* --padded: each twin and its de-privatized self at one table of
	 * placements (session.h), to three quarters of --time; the first
	 * one's parts (annotate) the rest. */
	struct sb_config pcfg = *cfg;
	pcfg.measure.padded = 1;
	pcfg.measure.contain = 1; /* the twins run the JIT images read from the object's programs */
	pcfg.measure.share = SB_SHARE_OBJ_PRIVATE;
	int rc = sb_measure_groups(&pcfg, "stubbench kernel", p->groups, p->n_groups);
	p->n_measured = p->n_groups;
	if (rc == 0)
		rc = sb_obj_parts_measure(&p->parts, &p->twins, cfg, info);
	return rc;
}

void sb_obj_private_sections(struct sb_obj_run *r, struct sb_session *s)
{
	struct sb_obj_private *p = r->priv;
	if (!p)
		return;
	if (p->twins.n_arms)
		sb_session_add_section(s, &p->tres, "auto-twin", "auto-twins, placed like the loads");
	for (size_t i = 0; i < p->n_measured; i++)
		sb_session_add_section(s, &p->res[i], "private-stack",
				       "the private stack: each twin against its de-privatized self, identical layout");
	sb_obj_parts_section(p->parts, s);
}

/* The arm of a that runs variant v, or NULL. */
static const struct sb_arm *arm_running(const struct sb_variant_arms *a, const struct sb_variant *v)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->ctx[i].v == v)
			return &a->arms[i];
	return NULL;
}

/* The private stack of prog at c's batch: the twin's cell c against its
 * de-privatized self (total, codegen, layout) and the kernel's own A/B,
 * per iteration and per run (x the batch, batch_iters' value): an object
 * of array figures (json_doc.h), or (NULL) a table line into f. */
static void private_stack_cell(const struct sb_obj_run *r, const char *prog, const struct sb_cell *c, FILE *f,
			       struct sb_doc *figures)
{
	char sys[112];
	snprintf(sys, sizeof(sys), "%s@syscall", prog);
	const struct sb_cell *k = sb_results_cell(&r->res, prog, c->batch), *ks = sb_results_cell(&r->sres, sys, c->batch);
	struct sb_estimate kc = k ? sb_cell_cycles(k) : sb_estimate_absent("no kernel run"),
			   ksc = ks ? sb_cell_cycles(ks) : sb_estimate_absent("no syscall copy");
	struct sb_estimate e[4] = {c->delta_cycles, c->matched_cycles, c->layout_cycles,
				   sb_estimate_difference(&kc, &ksc)};
	static const char *const names[4] = {"total", "codegen", "layout", "kernel_ab"};
	if (figures) {
		struct sb_doc *o = sb_doc_object(figures, NULL);
		sb_doc_string(o, "prog", prog);
		sb_doc_uint(o, "batch", c->batch);
		struct sb_doc *it = sb_doc_object(o, "per_iteration");
		sb_doc_string(it, "unit", "cycles");
		for (int q = 0; q < 4; q++)
			sb_doc_estimate(it, names[q], "cycles", &e[q]);
		struct sb_doc *per_run = sb_doc_object(o, "per_run");
		sb_doc_string(per_run, "unit", "cycles");
		for (int q = 0; q < 4; q++) {
			struct sb_estimate run = sb_estimate_scaled(&e[q], (double)c->batch);
			sb_doc_estimate(per_run, names[q], "cycles", &run);
		}
		return;
	}
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

/* The private stack's figures of each twin that has one, batch by batch:
 * uo's member "private_stack" (json_doc.h), or (uo NULL) lines into f. */
static void private_stack_figures(const struct sb_obj_run *r, FILE *f, struct sb_doc *uo)
{
	const struct sb_obj_private *p = r->priv;
	struct sb_doc *figures = NULL;
	if (uo) {
		sb_doc_break(uo, "\n    ");
		figures = sb_doc_array(uo, "private_stack");
	} else if (p->n_measured) {
		fprintf(f, "# the private stack, cycles per iteration and per run (x batch_iters), 95 %% CI: the twin "
			   "against its de-privatized self (total, codegen, layout), the kernel's A/B (raw_tp - "
			   "syscall, these loads)\n");
	}
	for (size_t g = 0; g < p->n_measured; g++) {
		const struct sb_arm *twin = arm_running(&p->arms[g], &p->twin_of[g]->twin.cv.v);
		for (size_t i = 0; twin && i < p->res[g].n_cells; i++) {
			if (p->res[g].cells[i].arm != twin)
				continue;
			private_stack_cell(r, p->twin_of[g]->prog, &p->res[g].cells[i], f, figures);
		}
	}
}

void sb_obj_private_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *uo)
{
	if (!r->priv)
		return;
	sb_obj_twins_report(&r->priv->twins, &r->res, &r->priv->tres, f, uo);
	private_stack_figures(r, f, uo);
}

void sb_obj_private_parts_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *doc)
{
	if (r->priv)
		sb_obj_parts_report(r->priv->parts, f, doc);
}

void sb_obj_compare_deprivatized(struct sb_user_obj *raw, struct sb_user_obj *sys, const char *prog, FILE *info)
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

void sb_obj_private_free(struct sb_obj_run *r)
{
	struct sb_obj_private *p = r->priv;
	if (!p)
		return;
	sb_obj_twins_free(&p->twins);
	sb_results_free(&p->tres);
	sb_obj_parts_free(p->parts);
	free(p);
	r->priv = NULL;
}

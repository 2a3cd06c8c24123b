/* kernel_obj_parts.c: the private stack of a `stubbench kernel --obj`
 * run's first twin with one, part by part, as `stubbench annotate` takes a
 * variant apart (annotate.h, docs/annotate.md); see kernel_obj.h. */
#include "kernel_obj.h"

#include <stdlib.h>

#include "commands/annotate.h"
#include "kernel_obj_twins.h"
#include "answer/answer.h"
#include "jit/code_variant.h"

struct sb_obj_parts {
	struct sb_annotate an;            /* the twin's parts against its de-privatized self */
	struct sb_results res;         /* their ablations' runs */
	/* The annotate group's copies of the twin and its de-privatized self
	 * ("PROG-parts", "PROG-parts:deprivatized"): rows of their own, not
	 * the private-stack group's. */
	struct sb_code_variant cv[2];
	char name[2][96];
	int n_cv;
};

/* The first twin of t with a de-privatized self, placed like the loads;
 * *with: how many twins have one. NULL when none has. */
static const struct sb_obj_twin *first_with_parts(const struct sb_obj_twins *t, size_t *with)
{
	const struct sb_obj_twin *o = NULL;
	*with = 0;
	for (size_t i = 0; i < t->n; i++)
		if (t->t[i].has_depriv && t->t[i].n_placed) {
			o = o ? o : &t->t[i];
			(*with)++;
		}
	return o;
}

/* p's copies of o's twin and of its de-privatized self, and their parts.
 * 0, or -1 with err. */
static int make_parts(struct sb_obj_parts *p, const struct sb_obj_twin *o, char *err, size_t errlen)
{
	const struct sb_code_variant *from[2] = {&o->twin.cv, &o->depriv.cv};
	snprintf(p->name[0], sizeof(p->name[0]), "%.60s-parts", o->prog);
	snprintf(p->name[1], sizeof(p->name[1]), "%.60s-parts:deprivatized", o->prog);
	for (; p->n_cv < 2; p->n_cv++) {
		struct sb_code_func f[SB_CODE_VARIANT_MAX_FUNCS];
		const struct sb_code_variant *c = from[p->n_cv];
		size_t n = sb_code_variant_funcs(c, f);
		struct sb_code_variant *to = &p->cv[p->n_cv];
		if (sb_code_variant_make(&c->v, p->name[p->n_cv], NULL, f, n, to, err, errlen))
			return -1;
		to->v.family = c->v.family;
	}
	return sb_annotate_parts_of_code(&p->an, &p->cv[0], &p->cv[1], err, errlen);
}

int sb_obj_parts_measure(struct sb_obj_parts **out, const struct sb_obj_twins *t, const struct sb_config *cfg,
			 FILE *info)
{
	size_t with;
	const struct sb_obj_twin *o = first_with_parts(t, &with);
	*out = NULL;
	if (!o)
		return 0;
	struct sb_obj_parts *p = calloc(1, sizeof(*p));
	if (!p) {
		fprintf(info, "annotate %s: no cost per part: out of memory\n", o->prog);
		return 0;
	}
	*out = p;
	char err[512];
	if (make_parts(p, o, err, sizeof(err)) != 0) {
		fprintf(info, "annotate %s: no cost per part: %s\n", o->prog, err);
		return 0;
	}
	if (with > 1)
		fprintf(info, "annotate %s: the first program with a private stack only (--prog=NAME for another)\n",
			o->prog);
	return sb_annotate_measure(cfg, "stubbench kernel", &p->an, &p->cv[0].v, &p->cv[1].v, &p->res);
}

/* The parts with figures: p's attribution, or NULL. */
static const struct sb_annotate *measured(const struct sb_obj_parts *p)
{
	return p && p->an.n_att ? &p->an : NULL;
}

void sb_obj_parts_section(struct sb_obj_parts *p, struct sb_session *s)
{
	if (measured(p))
		sb_session_add_section(s, &p->res, "parts", "the private stack part by part: its ablations");
}

void sb_obj_parts_report(const struct sb_obj_parts *p, FILE *f, struct sb_doc *doc)
{
	const struct sb_annotate *an = measured(p);
	if (an && doc) {
		sb_annotate_doc(doc, an);
	} else if (an) {
		fprintf(f, "# the private stack of %s, part by part (stubbench annotate, docs/annotate.md)\n",
			an->variant);
		sb_annotate_summary(f, an, SB_ANSWER_MAX_LINES);
		sb_annotate_listing(f, an);
	}
}

void sb_obj_parts_free(struct sb_obj_parts *p)
{
	if (!p)
		return;
	sb_results_free(&p->res);
	sb_ablation_free(&p->an.ab);
	for (int i = 0; i < p->n_cv; i++)
		sb_code_variant_free(&p->cv[i]);
	free(p);
}

/* annotate_baseline.c: the baseline annotate compares a variant with; see
 * annotate_baseline.h. */
#include "twins/annotate_baseline.h"

#include <stdio.h>
#include <string.h>

#include "stubbench/registry.h"
#include "variants/variant_baseline.h"
#include "base/error.h"

/* The twin with each private-stack function de-privatized, runnable. */
static int deprivatized_twin(const struct sb_variant *v, struct sb_annotate_baseline *b, char *err, size_t errlen)
{
	char why[256], name[112];
	long n = sb_code_variant_funcs_of(v, b->funcs, SB_CODE_VARIANT_MAX_FUNCS, err, errlen);
	if (n <= 0)
		return -1;
	b->n_funcs = (size_t)n;
	for (size_t f = 0; f < b->n_funcs; f++) {
		struct sb_deprivatize_opts o = {.stack_depth = -1};
		b->funcs[f].name = NULL;
		if (sb_deprivatize(b->funcs[f].code, b->funcs[f].len, &o, &b->twins[f], why, sizeof(why)) != 0)
			continue; /* no private stack: the function as it is */
		b->funcs[f].code = b->twins[f].code;
		b->funcs[f].len = b->twins[f].len;
	}
	snprintf(name, sizeof(name), "%s:deprivatized", v->name);
	if (sb_code_variant_make(v, name, "the twin with its private stacks made rbp frames (sb_deprivatize)",
				 b->funcs, b->n_funcs, &b->cv, err, errlen) != 0)
		return -1;
	b->made = 1;
	b->v = &b->cv.v;
	return 0;
}

int sb_annotate_baseline(const struct sb_variant *v, struct sb_annotate_baseline *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (strcmp(sb_variant_family(v), "twin") == 0)
		return deprivatized_twin(v, out, err, errlen);
	out->v = sb_variant_baseline_of(v);
	if (!out->v)
		return sb_set_err(err, errlen, "%s (family %s) has no baseline to annotate it against", v->name,
				  sb_variant_family(v)), -1;
	long n = sb_code_variant_funcs_of(out->v, out->funcs, SB_CODE_VARIANT_MAX_FUNCS, err, errlen);
	if (n <= 0)
		return -1;
	out->n_funcs = (size_t)n;
	return 0;
}

void sb_annotate_baseline_free(struct sb_annotate_baseline *b)
{
	if (b->made)
		sb_code_variant_free(&b->cv);
	for (size_t f = 0; f < SB_CODE_VARIANT_MAX_FUNCS; f++)
		if (b->twins[f].code)
			sb_twin_free(&b->twins[f]);
	memset(b, 0, sizeof(*b));
}

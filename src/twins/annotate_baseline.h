/* annotate_baseline.h: the baseline `stubbench annotate` compares a variant
 * with (docs/annotate.md): a lab alternative's is the lab's mainline of its
 * shape and return (mainline's: the lab's baseline); a kernel twin's is the
 * twin itself with each function that has a private stack de-privatized
 * (sb_deprivatize), made runnable; any other variant's is the registry's
 * (sb_variant_baseline_of). */
#ifndef STUBBENCH_ANNOTATE_BASELINE_H
#define STUBBENCH_ANNOTATE_BASELINE_H

#include <stddef.h>

#include "jit/code_variant.h"
#include "twins/deprivatize.h"

struct sb_annotate_baseline {
	const struct sb_variant *v;                      /* the baseline */
	struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS]; /* its functions, main first */
	size_t n_funcs;
	struct sb_code_variant cv;                       /* a twin's, made at run time */
	struct sb_twin twins[SB_CODE_VARIANT_MAX_FUNCS]; /* the de-privatized functions */
	int made;
};

/* The baseline of v and its functions. Returns 0, or -1 with err (no
 * baseline: family named; a twin that cannot be de-privatized or made). */
int sb_annotate_baseline(const struct sb_variant *v, struct sb_annotate_baseline *out, char *err, size_t errlen);

void sb_annotate_baseline_free(struct sb_annotate_baseline *b);

#endif

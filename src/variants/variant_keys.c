/* variant_keys.c: a variant's key and the variants found by key; see
 * variant_keys.h. */
#include "variants/variant_keys.h"

#include <string.h>

#include "variants/lab_variants.h"
#include "variants/return_names.h"

/* The seeds' three codegens, from what the code has: a private stack in
 * the program and its subprog (private), in the program only (hybrid), or
 * none (baseline). */
static const char *seed_codegen(const struct sb_variant *v)
{
	if (!v->area)
		return "baseline";
	for (size_t i = 0; i < sb_function_count(); i++) {
		const struct sb_function *f = sb_function_at(i);
		if (v->callee && f->addr == v->callee)
			return f->area ? "private" : "hybrid";
	}
	return "hybrid";
}

/* A baseline padded to another variant's layout: of the padded
 * families, its family_info the record of the variant it pads. */
static int is_padded(const struct sb_variant *v)
{
	return (sb_variant_in_family(v, "replica-padded") || sb_variant_in_family(v, "replica-host-padded")) &&
	       v->family_info;
}

const struct sb_variant *sb_variant_padded_baseline_of(const struct sb_variant *v)
{
	for (size_t i = 0; v && i < sb_variant_count(); i++) {
		const struct sb_variant *p = sb_variant_at(i);
		if (is_padded(p) && p->family_info == v)
			return p;
	}
	return NULL;
}

void sb_variant_key(const struct sb_variant *v, struct sb_cell_key *k)
{
	/* A copy's family_info is its original's (sb_lab_info_of() says NULL). */
	const struct sb_lab_info *li = sb_variant_in_family(v, "lab") ? v->family_info : NULL;
	const char *codegen = v->name;
	enum sb_cell_side side = SB_SIDE_REPLICA;
	if (li) {
		codegen = sb_lab_alt_name(li->alt);
		side = SB_SIDE_LAB;
	} else if (sb_variant_in_family(v, "replica") || sb_variant_in_family(v, "replica-host") ||
		   sb_variant_in_family(v, "twin")) {
		codegen = seed_codegen(v);
		side = sb_variant_in_family(v, "twin") ? SB_SIDE_TWIN : SB_SIDE_REPLICA;
	} else if (sb_variant_in_family(v, "user-obj")) {
		/* An auto-twin of a user's program (kernel --obj), by its name. */
		side = SB_SIDE_TWIN;
	} else if (is_padded(v)) {
		/* The baseline laid out as the variant its record pads. */
		codegen = strcmp(seed_codegen(v->family_info), "private") == 0 ? "padded-private" : "padded-hybrid";
	}
	sb_cell_key_set(k, side, v->family, codegen, v->flavour_name, li ? sb_lab_return_name(li->ret) : sb_variant_return_name(v),
			v->shape, v->name);
}

const struct sb_variant *sb_variant_of_family(const char *family, const char *codegen, const char *shape)
{
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		struct sb_cell_key k;
		if (!sb_variant_in_family(v, family))
			continue;
		sb_variant_key(v, &k);
		if (strcmp(k.codegen, codegen) == 0 && strcmp(k.shape, shape) == 0)
			return v;
	}
	return NULL;
}

/* twin_variants.c: which kernel function each twin copies
 * (asm/twins_v6_18.asm declares them with SB_FUNCTION_RECORD, family
 * "twin" of the registry with SB_VARIANT), and the twin of a kernel arm. */
#include "variants/twin_variants.h"
#include "stubbench/registry.h"
#include "variants/variant_keys.h"

#include <stdio.h>
#include <string.h>

size_t sb_twin_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < sb_function_count(); i++)
		n += sb_function_at(i)->prog != NULL;
	return n;
}

const struct sb_function *sb_twin_find(const char *prog, const char *func)
{
	for (size_t i = 0; i < sb_function_count(); i++) {
		const struct sb_function *r = sb_function_at(i);
		if (r->prog && strcmp(r->prog, prog) == 0 && strcmp(r->func, func) == 0)
			return r;
	}
	return NULL;
}

const struct sb_variant *sb_twin_variant(const char *shape, const char *variant)
{
	return sb_variant_of_family("twin", variant, shape);
}

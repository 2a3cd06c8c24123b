/* registry.c: every family of variants, for the CLI, tests and front ends.
 * A new family defines its struct sb_variant_table beside its stubs and
 * adds one line here. */
#include "stubbench/variants.h"

#include <string.h>

extern const struct sb_variant_table sb_replica_variants;
extern const struct sb_variant_table sb_twin_variants;
extern const struct sb_variant_table sb_lab_variants;

static const struct sb_variant_table *const tables[] = {
	&sb_replica_variants,
	&sb_twin_variants,
	&sb_lab_variants,
};

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

size_t sb_variant_count(void)
{
	size_t n = 0;
	for (size_t t = 0; t < N_TABLES; t++)
		n += tables[t]->n;
	return n;
}

const struct sb_variant *sb_variant_at(size_t i)
{
	for (size_t t = 0; t < N_TABLES; t++) {
		if (i < tables[t]->n)
			return &tables[t]->variants[i];
		i -= tables[t]->n;
	}
	return NULL;
}

const char *sb_variant_family(const struct sb_variant *v)
{
	for (size_t t = 0; t < N_TABLES; t++)
		if (v >= tables[t]->variants && v < tables[t]->variants + tables[t]->n)
			return tables[t]->family;
	return NULL;
}

const struct sb_variant *sb_variant_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		if (strcmp(v->name, name) == 0 || (v->seed_name && strcmp(v->seed_name, name) == 0))
			return v;
	}
	return NULL;
}

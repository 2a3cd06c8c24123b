/* cell_key.c: the structured identity of a cell; see cell_key.h. */
#include "stubbench/cell_key.h"

#include <stdio.h>
#include <string.h>

static const char *const side_names[SB_N_SIDES] = {
	[SB_SIDE_NONE] = NULL,
	[SB_SIDE_REPLICA] = "replica",
	[SB_SIDE_LAB] = "lab",
	[SB_SIDE_TWIN] = "twin",
	[SB_SIDE_PLACED_TWIN] = "placed-twin",
	[SB_SIDE_KERNEL] = "kernel",
};

const char *sb_cell_side_name(enum sb_cell_side side)
{
	return (unsigned)side < SB_N_SIDES ? side_names[side] : NULL;
}

enum sb_cell_side sb_cell_side_from_name(const char *name)
{
	for (int s = SB_SIDE_NONE + 1; name && s < SB_N_SIDES; s++)
		if (strcmp(name, side_names[s]) == 0)
			return (enum sb_cell_side)s;
	return SB_SIDE_NONE;
}

void sb_cell_key_set(struct sb_cell_key *k, enum sb_cell_side side, const char *family, const char *codegen,
		     const char *flavour, const char *ret, const char *shape, const char *origin)
{
	memset(k, 0, sizeof(*k));
	k->side = side;
	k->placement = -1;
	snprintf(k->family, sizeof(k->family), "%s", family ? family : "");
	snprintf(k->codegen, sizeof(k->codegen), "%s", codegen ? codegen : "");
	snprintf(k->flavour, sizeof(k->flavour), "%s", flavour ? flavour : "");
	snprintf(k->ret, sizeof(k->ret), "%s", ret ? ret : "");
	snprintf(k->shape, sizeof(k->shape), "%s", shape ? shape : "");
	snprintf(k->origin, sizeof(k->origin), "%s", origin ? origin : "");
}

int sb_cell_key_same_code(const struct sb_cell_key *a, const struct sb_cell_key *b)
{
	return a->side != SB_SIDE_NONE && a->side == b->side && strcmp(a->family, b->family) == 0 &&
	       strcmp(a->codegen, b->codegen) == 0 && strcmp(a->flavour, b->flavour) == 0 &&
	       strcmp(a->ret, b->ret) == 0 && strcmp(a->shape, b->shape) == 0;
}

int sb_cell_key_cmp_code(const struct sb_cell_key *a, const struct sb_cell_key *b)
{
	int c = (int)a->side - (int)b->side;
	if (!c)
		c = strcmp(a->family, b->family);
	if (!c)
		c = strcmp(a->codegen, b->codegen);
	if (!c)
		c = strcmp(a->flavour, b->flavour);
	if (!c)
		c = strcmp(a->ret, b->ret);
	if (!c)
		c = strcmp(a->shape, b->shape);
	return c;
}

int sb_cell_key_equal(const struct sb_cell_key *a, const struct sb_cell_key *b)
{
	return sb_cell_key_same_code(a, b) && a->placement == b->placement;
}

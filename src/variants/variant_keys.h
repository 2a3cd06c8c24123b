/* variant_keys.h: what a variant's code is, as a cell's key (cell_key.h),
 * and the variants found by their keys. */
#ifndef STUBBENCH_VARIANT_KEYS_H
#define STUBBENCH_VARIANT_KEYS_H

#include "stubbench/cell_key.h"
#include "stubbench/registry.h"

/* The key of variant v as the registry has it: side, family, codegen (a
 * lab alternative, the seeds' baseline/private/hybrid from where the code
 * keeps its private stacks, else the variant's name), flavour, return and
 * shape from its record; at no placement. */
void sb_variant_key(const struct sb_variant *v, struct sb_cell_key *k);

/* The registry variant of family whose key has codegen and shape (the
 * twin of a kernel program, the host-flavour copy of a seed replica), or
 * NULL. */
const struct sb_variant *sb_variant_of_family(const char *family, const char *codegen, const char *shape);

/* The baseline padded to v's layout (family "replica-padded" or
 * "replica-host-padded": the baseline's bytes with the kernel's NOP forms
 * where v has its extra instructions), or NULL when v has none. */
const struct sb_variant *sb_variant_padded_baseline_of(const struct sb_variant *v);

#endif

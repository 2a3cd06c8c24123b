/* twin_variants.h: the "twin" replicas of this machine's JITed kernel programs
 * (asm/twins_v6_18.asm, family "twin" of the registry) and the function
 * records saying which kernel function each one copies. The stubs are
 * reached through those records and the registry, not by name. */
#ifndef STUBBENCH_TWIN_VARIANTS_H
#define STUBBENCH_TWIN_VARIANTS_H

#include <stddef.h>

#include "stubbench/registry.h"

/* How many functions are twins of a kernel function (records with prog). */
size_t sb_twin_count(void);
/* The twin of function func of program prog (addr, size, prog, func), or
 * NULL. */
const struct sb_function *sb_twin_find(const char *prog, const char *func);
/* The registry variant twinning a kernel arm: ("per-run", "private"). */
const struct sb_variant *sb_twin_variant(const char *shape, const char *variant);

#endif

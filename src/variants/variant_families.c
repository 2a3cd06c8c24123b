/* variant_families.c: the families of variants as the registry lists them;
 * see variant_families.h. */
#include "variants/variant_families.h"

#include <stddef.h>

/* The seed's replicas, the kernel's twins, the codegen lab. */
static const char *const listed_first[] = {"replica", "twin", "lab", NULL};
/* Code the tests plant instructions in (asm/test_*.asm). */
static const char *const hidden[] = {"test", NULL};

const struct sb_variant_family_listing sb_variant_family_listing = {listed_first, hidden};

/* variant_baseline.h: the baseline a variant is compared with. */
#ifndef STUBBENCH_VARIANT_BASELINE_H
#define STUBBENCH_VARIANT_BASELINE_H

#include "stubbench/registry.h"

/* The baseline v is compared with: "baseline" for the seed's replicas,
 * "host-baseline" for the host flavour's, "baseline" for a test variant,
 * the padded one's variant's for a padded baseline; for a lab alternative
 * the lab's mainline of the same return and shape (for mainline, the
 * lab's baseline; none for the baseline and the placement control); NULL
 * for other families. */
const struct sb_variant *sb_variant_baseline_of(const struct sb_variant *v);

#endif

/* variant_baseline.c: the baseline a variant is compared with, by its
 * family (variant_baseline.h). Apart from the registry, which it reads,
 * so that the registry does not depend on the lab's variants that read it
 * in turn. */
#include "stubbench/variant_baseline.h"
#include "stubbench/lab_variants.h"
#include "stubbench/registry.h"

#include <string.h>

const struct sb_variant *sb_variant_baseline_of(const struct sb_variant *v)
{
	const char *family = v ? sb_variant_family(v) : NULL;
	if (family && strcmp(family, "replica") == 0)
		return sb_variant_find("baseline");
	if (family && strcmp(family, "replica-host") == 0)
		return sb_variant_find("host-baseline");
	/* A test variant is a seed replica with an instruction planted. */
	if (family && strcmp(family, "test") == 0)
		return sb_variant_find("baseline");
	/* A padded baseline: the baseline of the variant it pads. */
	if (family && (strcmp(family, "replica-padded") == 0 || strcmp(family, "replica-host-padded") == 0))
		return sb_variant_baseline_of(v->family_info);
	/* A lab alternative against mainline (what it changes in the JIT as
	 * it is); mainline against the lab's baseline. */
	if (family && strcmp(family, "lab") == 0) {
		const struct sb_lab_info *info = sb_lab_info_of(v);
		if (!info || info->alt == SB_LAB_BASELINE || info->alt == SB_LAB_PLACEMENT_CONTROL)
			return NULL; /* the placement control: the baseline's own bytes */
		return sb_lab_find(info->alt == SB_LAB_MAINLINE ? SB_LAB_BASELINE : SB_LAB_MAINLINE, info->ret,
				   info->in_loop);
	}
	return NULL;
}

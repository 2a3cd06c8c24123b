/* variant_baseline.c: the baseline a variant is compared with, by its
 * family (variant_baseline.h). Apart from the registry, which it reads,
 * so that the registry does not depend on the lab's variants that read it
 * in turn. */
#include "variants/variant_baseline.h"
#include "variants/lab_variants.h"
#include "stubbench/registry.h"

const struct sb_variant *sb_variant_baseline_of(const struct sb_variant *v)
{
	if (sb_variant_in_family(v, "replica"))
		return sb_variant_find("baseline");
	if (sb_variant_in_family(v, "replica-host"))
		return sb_variant_find("host-baseline");
	/* A test variant is a seed replica with an instruction planted. */
	if (sb_variant_in_family(v, "test"))
		return sb_variant_find("baseline");
	/* A padded baseline: the baseline of the variant it pads. */
	if (sb_variant_in_family(v, "replica-padded") || sb_variant_in_family(v, "replica-host-padded"))
		return sb_variant_baseline_of(v->family_info);
	/* A lab alternative against mainline (what it changes in the JIT as
	 * it is); mainline against the lab's baseline. */
	if (sb_variant_in_family(v, "lab")) {
		const struct sb_lab_info *info = sb_lab_info_of(v);
		if (!info || info->alt == SB_LAB_BASELINE || info->alt == SB_LAB_PLACEMENT_CONTROL)
			return NULL; /* the placement control: the baseline's own bytes */
		return sb_lab_find(info->alt == SB_LAB_MAINLINE ? SB_LAB_BASELINE : SB_LAB_MAINLINE, info->ret,
				   info->in_loop);
	}
	return NULL;
}

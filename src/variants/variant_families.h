/* variant_families.h: how the registry (registry.h) lists the families of
 * variants. The registry knows no family by name: it orders and hides the
 * variants as this listing, given to it as data, says. */
#ifndef STUBBENCH_VARIANT_FAMILIES_H
#define STUBBENCH_VARIANT_FAMILIES_H

struct sb_variant_family_listing {
	/* Listed ahead of every other family, in this order; the others follow
	 * in the order their records lie. NULL-terminated. */
	const char *const *first;
	/* Listed only after sb_registry_show_test_variants(). NULL-terminated. */
	const char *const *hidden;
};

extern const struct sb_variant_family_listing sb_variant_family_listing;

#endif

/* registry.c: every variant, as its .asm file declares it.
 *
 * SB_VARIANT (asm/records.inc) puts one struct sb_variant per variant into
 * section sb_variants and SB_FUNCTION_RECORD one struct sb_function per
 * described function into sb_functions; the linker concatenates the
 * sections of every object and marks them with __start_ and __stop_
 * symbols. The asm objects are linked into every program as objects (not
 * from an archive, see CMakeLists.txt), so no variant can be left out, and
 * these references keep the sections under --gc-sections. */
#include "stubbench/registry.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "stubbench/parse.h"
#include "variants/variant_families.h"

extern const struct sb_variant __start_sb_variants[] __attribute__((weak));
extern const struct sb_variant __stop_sb_variants[] __attribute__((weak));
extern const struct sb_function __start_sb_functions[] __attribute__((weak));
extern const struct sb_function __stop_sb_functions[] __attribute__((weak));

/* The record sizes the asm emits (SB_VARIANT_RECORD_SIZE,
 * SB_FUNCTION_RECORD_SIZE in asm/records.inc). */
_Static_assert(sizeof(struct sb_variant) == 160, "struct sb_variant is the SB_VARIANT record");
_Static_assert(sizeof(struct sb_function) == 72, "struct sb_function is the SB_FUNCTION_RECORD record");

static const struct sb_variant **order;
static size_t n_variants;
static int with_hidden_families;

/* The place of v's family among names (NULL-terminated), or the number of
 * names when it is none of them (always for v NULL). */
static size_t family_place(const struct sb_variant *v, const char *const *names)
{
	size_t i = 0;
	while (names[i] && !sb_variant_in_family(v, names[i]))
		i++;
	return i;
}

static int is_hidden(const struct sb_variant *v)
{
	const char *const *hidden = sb_variant_family_listing.hidden;
	return hidden[family_place(v, hidden)] != NULL;
}

/* Runs before main, so the order is there before any thread looks. */
__attribute__((constructor)) static void sb_registry_init(void)
{
	if (!__start_sb_variants)
		return;
	size_t n = (size_t)(__stop_sb_variants - __start_sb_variants);
	order = malloc(n * sizeof(*order));
	if (!order)
		return;
	const char *const *first = sb_variant_family_listing.first;
	size_t n_first = family_place(NULL, first);
	for (size_t rank = 0; rank <= n_first; rank++)
		for (size_t i = 0; i < n; i++)
			if (family_place(&__start_sb_variants[i], first) == rank &&
			    (with_hidden_families || !is_hidden(&__start_sb_variants[i])))
				order[n_variants++] = &__start_sb_variants[i];
}

void sb_registry_show_test_variants(void)
{
	if (with_hidden_families)
		return;
	with_hidden_families = 1;
	free(order);
	order = NULL;
	n_variants = 0;
	sb_registry_init();
}

size_t sb_variant_count(void)
{
	return n_variants;
}

const struct sb_variant *sb_variant_at(size_t i)
{
	return i < n_variants ? order[i] : NULL;
}

const char *sb_variant_family(const struct sb_variant *v)
{
	return v ? v->family : NULL;
}

int sb_variant_in_family(const struct sb_variant *v, const char *family)
{
	return v && v->family && strcmp(v->family, family) == 0;
}

const struct sb_variant *sb_variant_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < n_variants; i++) {
		const struct sb_variant *v = order[i];
		if (strcmp(v->name, name) == 0 || (v->seed_name && strcmp(v->seed_name, name) == 0))
			return v;
	}
	return NULL;
}

int sb_variants_select(const char *list, const char *all_family, const struct sb_variant **out, size_t max,
		       size_t *n, char *err, size_t errlen)
{
	*n = 0;
	if (strcmp(list, "all") == 0) {
		for (size_t i = 0; i < sb_variant_count() && *n < max; i++)
			if (sb_variant_in_family(sb_variant_at(i), all_family))
				out[(*n)++] = sb_variant_at(i);
		return 0;
	}
	char *buf, **items;
	int n_items = sb_parse_names("--variant", list, &buf, &items, err, errlen);
	if (n_items < 0)
		return -1;
	int rc = 0;
	/* Every name is looked at before the count: a long list is read whole. */
	for (int i = 0; i < n_items && rc == 0; i++) {
		const struct sb_variant *v = sb_variant_find(items[i]);
		if (!v) {
			snprintf(err, errlen, "--variant: unknown variant '%s' (see --list)", items[i]);
			rc = -1;
		}
		for (int k = 0; rc == 0 && k < i; k++)
			if (sb_variant_find(items[k]) == v) {
				snprintf(err, errlen, "--variant: '%s' and '%s' name the same variant", items[k], items[i]);
				rc = -1;
			}
	}
	if (rc == 0 && (size_t)n_items > max) {
		snprintf(err, errlen, "--variant: more than %zu variants", max);
		rc = -1;
	}
	for (int i = 0; i < n_items && rc == 0; i++)
		out[(*n)++] = sb_variant_find(items[i]);
	free(buf);
	free(items);
	return rc;
}

size_t sb_function_count(void)
{
	if (!__start_sb_functions)
		return 0;
	return (size_t)(__stop_sb_functions - __start_sb_functions);
}

const struct sb_function *sb_function_at(size_t i)
{
	return i < sb_function_count() ? &__start_sb_functions[i] : NULL;
}

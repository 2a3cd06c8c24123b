/* golden_check.c: see golden_check.h. */
#include "golden_check.h"

#include <stdio.h>

#include "base/code_symbols.h"
#include "jit/listing.h"

int golden_check(const char *data_dir, const char *sym, const void *addr, const char *file,
		 struct sb_listing *l, char *why, size_t whylen)
{
	char path[1024], where[256];
	snprintf(path, sizeof(path), "%s/%s", data_dir, file);
	if (sb_listing_parse_file(path, l, why, whylen) != 0)
		return -1;
	uintptr_t value;
	size_t size;
	if (sb_code_function_by_name(sym, &value, &size) != 0) {
		snprintf(why, whylen, "%s is not an ELF function symbol with a size in the program", sym);
		return -1;
	}
	if (value != (uintptr_t)addr) {
		snprintf(why, whylen, "%s: symbol value %#lx != %p", sym, (unsigned long)value, addr);
		return -1;
	}
	if (size != l->size) {
		snprintf(why, whylen, "%s: symbol size %zu, listing %zu bytes", sym, size, l->size);
		return -1;
	}
	if (sb_listing_compare(l, addr, size, where, sizeof(where)) >= 0) {
		snprintf(why, whylen, "%s vs %s: %s", sym, file, where);
		return -1;
	}
	return 0;
}

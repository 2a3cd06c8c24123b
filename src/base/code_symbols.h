/* code_symbols.h: the function symbols of the running program (read once
 * from /proc/self/exe with libelf): where each stub starts and how long it
 * is, for code placement and the golden tests. */
#ifndef STUBBENCH_CODE_SYMBOLS_H
#define STUBBENCH_CODE_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* The size of the function symbol starting at addr, 0 when there is none;
 * its name in *name (may be NULL) when found. */
size_t sb_code_function_size(uintptr_t addr, const char **name);

/* The function symbol called name: its address and size. Returns 0, or -1
 * when the program has no function (STT_FUNC with a size) of that name. */
int sb_code_function_by_name(const char *name, uintptr_t *addr, size_t *size);

/* A function made at run time (code_variant.h), found by the two above
 * from now on. Returns 0, or -1 when memory runs out or a function already
 * starts at addr. */
int sb_code_symbols_add(uintptr_t addr, size_t size, const char *name);
/* Forgets the function added at addr. */
void sb_code_symbols_remove(uintptr_t addr);

#endif

/* elf_symbols.h: symbol sizes of the running test program, read with libelf. */
#ifndef STUBBENCH_TEST_ELF_SYMBOLS_H
#define STUBBENCH_TEST_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* Finds a symbol of the ELF file at path; returns 0 and fills value/size, or
 * -1 when it is not there. Type is STT_FUNC etc. */
int elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size, int *type);

#endif

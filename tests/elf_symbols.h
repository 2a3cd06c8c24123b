/* elf_symbols.h: symbol sizes of the running test program, read with libelf. */
#ifndef STUBBENCH_TEST_ELF_SYMBOLS_H
#define STUBBENCH_TEST_ELF_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

/* Finds a symbol of the ELF file at path; returns 0 and fills value/size, or
 * -1 when it is not there. Type is STT_FUNC etc. */
int elf_symbol(const char *path, const char *name, uint64_t *value, uint64_t *size, int *type);

struct sb_listing;

/* The golden check shared by the replica and lab tests: parses
 * data_dir/file (a listing) into *l and checks that sym is an ELF function
 * symbol of the running program at addr, as long as the listing and equal
 * to it byte for byte with the address fields masked. Returns 0, or -1 with
 * what differs in why (*l stays parsed when the file was readable; free it
 * with sb_listing_free when l->insns is set). */
int golden_check(const char *data_dir, const char *sym, const void *addr, const char *file,
		 struct sb_listing *l, char *why, size_t whylen);

#endif

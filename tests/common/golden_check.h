/* golden_check.h: the golden check shared by the replica and lab tests. */
#ifndef STUBBENCH_TEST_GOLDEN_CHECK_H
#define STUBBENCH_TEST_GOLDEN_CHECK_H

#include <stddef.h>

struct sb_listing;

/* Parses data_dir/file (a listing) into *l and checks that sym is an ELF function
 * symbol of the running program at addr, as long as the listing and equal
 * to it byte for byte with the address fields masked. Returns 0, or -1 with
 * what differs in why (*l stays parsed when the file was readable; free it
 * with sb_listing_free when l->insns is set). */
int golden_check(const char *data_dir, const char *sym, const void *addr, const char *file,
		 struct sb_listing *l, char *why, size_t whylen);

#endif

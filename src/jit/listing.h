/* listing.h: objdump-style JIT listings ("13: 49 b9 70 ...   movabs r9,...")
 * as test data, and byte comparison with address fields masked. */
#ifndef STUBBENCH_LISTING_H
#define STUBBENCH_LISTING_H

#include <stddef.h>
#include <stdint.h>

#define SB_INSN_MAX 15

struct sb_insn {
	size_t off;                  /* offset in the function */
	size_t len;                  /* bytes */
	uint8_t bytes[SB_INSN_MAX];
	uint8_t cmp[SB_INSN_MAX];    /* 1 = compared, 0 = address field (masked) */
	char text[96];               /* the mnemonic as listed */
};

struct sb_listing {
	struct sb_insn *insns;
	size_t n;
	size_t size;                 /* total bytes */
};

/* Marks the address fields of one instruction as not compared: the imm64 of
 * movabs (REX.W B8+r) and the rel32 of call/jmp (e8/e9). */
void sb_insn_mask_addresses(struct sb_insn *insn);

/* Parses a listing file; lines starting with '#' and blank lines are skipped.
 * Checks that every offset follows from the previous instruction's length.
 * Returns 0, or -1 with a message naming the file and line in err. */
int sb_listing_parse_file(const char *path, struct sb_listing *out, char *err, size_t errlen);
int sb_listing_parse_text(const char *text, const char *name, struct sb_listing *out,
			  char *err, size_t errlen);
void sb_listing_free(struct sb_listing *l);

/* Compares code with the listing, address fields masked. Returns -1 when
 * equal, else the index of the first differing instruction (n when the
 * lengths differ past the last instruction); describes it in where. */
long sb_listing_compare(const struct sb_listing *l, const uint8_t *code, size_t len,
			char *where, size_t wlen);

#endif

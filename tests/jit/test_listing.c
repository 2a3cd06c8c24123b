/* The listing parser and the masked comparison on known text. */
#include <string.h>

#include "check.h"
#include "jit/listing.h"

static const char *good =
	"# comment\n"
	"0:  f3 0f 1e fa             endbr64\n"
	"4:  49 b9 70 a6 c1 08 7e    movabs r9,0x607e08c1a670\n"
	"b: 60 00 00\n"
	"\n"
	"e:  65 4c 03 0c 25 00 1a    add    r9,QWORD PTR gs:0x21a00\n"
	"15: 02 00\n"
	"17: e8 46 23 51 e1          call   0xffffffffe1512389\n"
	"1c: c3                      ret\n";

int main(void)
{
	struct sb_listing l;
	char err[256], where[256];

	CHECK(sb_listing_parse_text(good, "good", &l, err, sizeof(err)) == 0, "%s", err);
	CHECK(l.n == 5, "%zu instructions", l.n);
	CHECK(l.size == 0x1d, "size %#zx", l.size);
	CHECK(l.insns[1].len == 10 && l.insns[2].len == 9, "continuation lines not joined");
	CHECK(strcmp(l.insns[2].text, "add    r9,QWORD PTR gs:0x21a00") == 0, "text '%s'", l.insns[2].text);
	/* Masks: imm64 of movabs and rel32 of call, nothing else. */
	CHECK(l.insns[1].cmp[0] && l.insns[1].cmp[1] && !l.insns[1].cmp[2] && !l.insns[1].cmp[9],
	      "movabs mask");
	CHECK(l.insns[2].cmp[5] && l.insns[2].cmp[8], "gs displacement must be compared");
	CHECK(l.insns[3].cmp[0] && !l.insns[3].cmp[1] && !l.insns[3].cmp[4], "call mask");

	uint8_t code[0x1d];
	size_t k = 0;
	for (size_t i = 0; i < l.n; i++)
		for (size_t b = 0; b < l.insns[i].len; b++)
			code[k++] = l.insns[i].bytes[b];
	CHECK(sb_listing_compare(&l, code, sizeof(code), where, sizeof(where)) == -1, "%s", where);
	/* Other addresses in masked fields still match. */
	code[6] ^= 0xff;
	code[0x19] ^= 0x55;
	CHECK(sb_listing_compare(&l, code, sizeof(code), where, sizeof(where)) == -1, "%s", where);
	/* A changed gs displacement is a mismatch, located at instruction 2. */
	code[0x13] ^= 1;
	CHECK(sb_listing_compare(&l, code, sizeof(code), where, sizeof(where)) == 2, "%s", where);
	CHECK(strstr(where, "0xe") && strstr(where, "gs:0x21a00"), "where: %s", where);
	code[0x13] ^= 1;
	/* Changed opcode of the ret. */
	code[0x1c] = 0xc2;
	CHECK(sb_listing_compare(&l, code, sizeof(code), where, sizeof(where)) == 4, "%s", where);
	code[0x1c] = 0xc3;
	/* Longer and shorter code. */
	uint8_t longer[0x1e];
	memcpy(longer, code, sizeof(code));
	longer[0x1d] = 0xcc;
	CHECK(sb_listing_compare(&l, longer, sizeof(longer), where, sizeof(where)) == 5, "%s", where);
	CHECK(sb_listing_compare(&l, code, 0x1a, where, sizeof(where)) == 3, "%s", where);
	sb_listing_free(&l);

	/* Errors name the input and the line. */
	CHECK(sb_listing_parse_text("0: 90 nop\n2: 90   nop\n", "gap", &l, err, sizeof(err)) == -1,
	      "an offset gap was accepted");
	CHECK(strstr(err, "gap:2") != NULL, "err '%s'", err);
	CHECK(sb_listing_parse_text("0: zz  nop\n", "bad", &l, err, sizeof(err)) == -1,
	      "a line without bytes was accepted");
	CHECK(strstr(err, "bad:1") != NULL, "err '%s'", err);
	CHECK(sb_listing_parse_text("# nothing\n", "empty", &l, err, sizeof(err)) == -1,
	      "an empty listing was accepted");
	CHECK(sb_listing_parse_text("0: 00 00\n", "cont", &l, err, sizeof(err)) == -1,
	      "a continuation without an instruction was accepted");
	CHECK(sb_listing_parse_file("/nonexistent/x.lst", &l, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent/x.lst"), "missing file: '%s'", err);
	return check_report("test_listing");
}

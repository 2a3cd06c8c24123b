/* twin_listing.c: a twin's code against the kernel's listing, and as a
 * listing of its own (deprivatize.h). */
#include "twins/deprivatize.h"
#include "jit/dump.h"
#include "base/error.h"

#include <Zydis/Zydis.h>
#include <stdlib.h>
#include <string.h>

long sb_twin_compare(const struct sb_listing *kernel, const uint8_t *code, size_t len,
		     char *where, size_t wlen)
{
	struct sb_listing l = *kernel;
	l.insns = malloc((kernel->n ? kernel->n : 1) * sizeof(*l.insns));
	if (!l.insns) {
		sb_set_err(where, wlen, "out of memory");
		return 0;
	}
	memcpy(l.insns, kernel->insns, kernel->n * sizeof(*l.insns));
	for (size_t i = 0; i < l.n; i++) {
		struct sb_insn *in = &l.insns[i];
		if (in->len != 5 || (in->bytes[0] != 0xe8 && in->bytes[0] != 0xe9))
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		int64_t target = (int64_t)in->off + 5 + rel;
		if (target >= 0 && (uint64_t)target < l.size)
			memset(in->cmp, 1, in->len); /* an internal target is compared */
	}
	long r = sb_listing_compare(&l, code, len, where, wlen);
	free(l.insns);
	return r;
}

int sb_twin_print(FILE *f, const uint8_t *code, size_t len, char *err, size_t errlen)
{
	struct sb_listing l = {0};
	size_t cap = 0;
	int rc = -1;
	ZydisDecoder dec;
	ZydisFormatter fmt;
	if (!ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64)) ||
	    !ZYAN_SUCCESS(ZydisFormatterInit(&fmt, ZYDIS_FORMATTER_STYLE_INTEL)) ||
	    !ZYAN_SUCCESS(ZydisFormatterSetProperty(&fmt, ZYDIS_FORMATTER_PROP_HEX_UPPERCASE, ZYAN_FALSE))) {
		sb_set_err(err, errlen, "zydis: cannot set up a decoder and formatter");
		return -1;
	}
	for (size_t off = 0; off < len;) {
		ZydisDecodedInstruction d;
		ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
		if (!ZYAN_SUCCESS(ZydisDecoderDecodeFull(&dec, code + off, len - off, &d, ops))) {
			sb_set_err(err, errlen, "+%#zx: cannot decode byte %02x", off, code[off]);
			goto out;
		}
		if (l.n == cap) {
			cap = cap ? 2 * cap : 64;
			struct sb_insn *ni = realloc(l.insns, cap * sizeof(*ni));
			if (!ni) {
				sb_set_err(err, errlen, "out of memory");
				goto out;
			}
			l.insns = ni;
		}
		struct sb_insn *in = &l.insns[l.n++];
		memset(in, 0, sizeof(*in));
		in->off = off;
		in->len = d.length;
		memcpy(in->bytes, code + off, in->len);
		if (!ZYAN_SUCCESS(ZydisFormatterFormatInstruction(&fmt, &d, ops, d.operand_count_visible, in->text,
								  sizeof(in->text), off, NULL)))
			snprintf(in->text, sizeof(in->text), "(?)");
		off += in->len;
		l.size = off;
	}
	rc = sb_jit_write_listing(f, &l);
	if (rc)
		sb_set_err(err, errlen, "cannot write the listing");
out:
	free(l.insns);
	return rc;
}

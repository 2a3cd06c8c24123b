/* decode.c: x86-64 bytes to a listing, with capstone doing the
 * decoding (Intel syntax, as the seeds' listings). */
#include "jit/decode.h"
#include "jit/flavour.h"
#include "base/error.h"

#include <capstone/capstone.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int sb_jit_decode(const uint8_t *code, size_t len, const char *name, struct sb_listing *out,
		  char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		sb_set_err(err, errlen, "capstone: cannot open an x86-64 decoder");
		return -1;
	}
	cs_insn *ci = cs_malloc(cs);
	size_t cap = 0;
	const uint8_t *p = code;
	size_t left = len;
	uint64_t addr = 0;
	int rc = 0;
	while (left > 0) {
		uint64_t at = addr;
		if (!cs_disasm_iter(cs, &p, &left, &addr, ci)) {
			sb_set_err(err, errlen, "%s+%#" "llx" ": cannot decode byte %02x", name,
				(unsigned long long)at, code[at]);
			rc = -1;
			break;
		}
		if (out->n == cap) {
			cap = cap ? 2 * cap : 32;
			struct sb_insn *ni = realloc(out->insns, cap * sizeof(*ni));
			if (!ni) {
				sb_set_err(err, errlen, "out of memory");
				rc = -1;
				break;
			}
			out->insns = ni;
		}
		struct sb_insn *in = &out->insns[out->n++];
		memset(in, 0, sizeof(*in));
		in->off = (size_t)at;
		in->len = ci->size;
		memcpy(in->bytes, ci->bytes, ci->size);
		snprintf(in->text, sizeof(in->text), "%.31s%s%.62s", ci->mnemonic, ci->op_str[0] ? " " : "",
			 ci->op_str);
		sb_jit_mask_insn(in);
		out->size += ci->size;
	}
	cs_free(ci, 1);
	cs_close(&cs);
	if (rc)
		sb_listing_free(out);
	return rc;
}

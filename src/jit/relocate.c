/* relocate.c: moving JIT-style code to another address, re-aiming its
 * rel32 calls and jumps (capstone finds the instruction boundaries). */
#include "jit/relocate.h"
#include "jit/decode.h"
#include "base/error.h"

#include <stdarg.h>
#include <string.h>

static int is_rel8_jump(const struct sb_insn *in)
{
	uint8_t b = in->bytes[0];
	return in->len == 2 && ((b >= 0x70 && b <= 0x7f) || b == 0xeb);
}

static int is_rel32_branch(const struct sb_insn *in)
{
	const uint8_t *b = in->bytes;
	return (in->len == 5 && (b[0] == 0xe8 || b[0] == 0xe9)) ||
	       (in->len == 6 && b[0] == 0x0f && b[1] >= 0x80 && b[1] <= 0x8f);
}

int sb_jit_relocate(const uint8_t *code, size_t len, uintptr_t old_addr, uint8_t *dst, uintptr_t new_addr,
		    const struct sb_code_map *map, size_t n_map, char *err, size_t errlen)
{
	struct sb_listing l;
	if (sb_jit_decode(code, len, "relocate", &l, err, errlen))
		return -1;
	memcpy(dst, code, len);
	int rc = 0;
	for (size_t i = 0; i < l.n && rc == 0; i++) {
		const struct sb_insn *in = &l.insns[i];
		uintptr_t next_old = old_addr + in->off + in->len;
		if (is_rel8_jump(in)) {
			uintptr_t t = next_old + (intptr_t)(int8_t)in->bytes[1];
			if (t < old_addr || t >= old_addr + len) {
				sb_set_err(err, errlen, "+0x%zx: short jump out of the function", in->off);
				rc = -1;
			}
			continue;
		}
		if (!is_rel32_branch(in))
			continue;
		size_t at = in->len - 4;
		int32_t rel;
		memcpy(&rel, in->bytes + at, 4);
		uintptr_t t = next_old + (intptr_t)rel, nt = t;
		if (t >= old_addr && t < old_addr + len)
			nt = new_addr + (t - old_addr); /* inside this function */
		else
			for (size_t m = 0; m < n_map; m++)
				if (t >= map[m].old_addr && t < map[m].old_addr + map[m].len)
					nt = map[m].new_addr + (t - map[m].old_addr);
		intptr_t nrel = (intptr_t)nt - (intptr_t)(new_addr + in->off + in->len);
		if (nrel != (int32_t)nrel) {
			sb_set_err(err, errlen, "+0x%zx: target %#lx out of rel32 reach from %#lx", in->off,
				(unsigned long)nt, (unsigned long)new_addr);
			rc = -1;
			continue;
		}
		int32_t r32 = (int32_t)nrel;
		memcpy(dst + in->off + at, &r32, 4);
	}
	sb_listing_free(&l);
	return rc;
}

/* thunk_apply.c: returns of replica code re-aimed at another return thunk
 * replica, in place (as the kernel's apply_returns() patches every
 * "jmp __x86_return_thunk" at boot) or in a placed copy; see
 * return_thunks.h. */
#define _GNU_SOURCE
#include "jit/return_thunks.h"
#include "base/code_symbols.h"
#include "base/error.h"
#include "jit/decode.h"
#include "stubbench/registry.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int sb_jit_retarget_returns(uint8_t *code, size_t len, uintptr_t at, const void *from, const void *to, char *err,
			    size_t errlen)
{
	struct sb_listing l;
	if (sb_jit_decode(code, len, "retarget", &l, err, errlen))
		return -1;
	int n = 0;
	for (size_t i = 0; i < l.n && n >= 0; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len != 5 || in->bytes[0] != 0xe9)
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		uintptr_t next = at + in->off + 5;
		if (next + (intptr_t)rel != (uintptr_t)from)
			continue;
		uint8_t *p = code + in->off;
		if (!to) {
			static const uint8_t ret_int3[5] = {0xc3, 0xcc, 0xcc, 0xcc, 0xcc};
			memcpy(p, ret_int3, 5);
		} else {
			intptr_t nrel = (intptr_t)to - (intptr_t)next;
			if (nrel != (int32_t)nrel) {
				sb_set_err(err, errlen, "+%#zx: return thunk %p out of rel32 reach", in->off, to);
				n = -1;
				break;
			}
			int32_t r32 = (int32_t)nrel;
			memcpy(p + 1, &r32, 4);
		}
		n++;
	}
	sb_listing_free(&l);
	return n;
}

static enum sb_thunk applied = SB_THUNK_ITS;

enum sb_thunk sb_thunk_applied(void)
{
	return applied;
}

/* One function of the program's text, patched in place. */
static int patch(uintptr_t addr, const void *from, const void *to, char *err, size_t errlen)
{
	size_t len = sb_code_function_size(addr, NULL);
	if (!addr || !len)
		return 0;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = addr & ~(page - 1), hi = (addr + len + page - 1) & ~(page - 1);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		sb_set_err(err, errlen, "cannot make the replicas' code writable to patch their returns: %s",
			   strerror(errno));
		return -1;
	}
	int n = sb_jit_retarget_returns((uint8_t *)addr, len, addr, from, to, err, errlen);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC) && n >= 0) {
		sb_set_err(err, errlen, "cannot make the replicas' code executable again: %s", strerror(errno));
		return -1;
	}
	return n;
}

static int in_families(const char *family, const char *const *families, size_t n)
{
	for (size_t i = 0; family && i < n; i++)
		if (strcmp(family, families[i]) == 0)
			return 1;
	return 0;
}

int sb_thunk_apply(enum sb_thunk t, const char *const *families, size_t n_families, char *err, size_t errlen)
{
	if (t == applied)
		return 0;
	if (applied == SB_THUNK_RET) {
		sb_set_err(err, errlen, "the replicas' returns are plain ret already: no thunk to re-aim");
		return -1;
	}
	const void *from = sb_thunk_entry(applied, err, errlen);
	const void *to = sb_thunk_entry(t, err, errlen);
	if (!from || (!to && t != SB_THUNK_RET))
		return -1;
	int total = 0;
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		if (!in_families(v->family, families, n_families) || v->return_thunk != (const void *)sb_its_return_thunk)
			continue;
		int a = patch((uintptr_t)v->program, from, to, err, errlen);
		int b = a < 0 ? 0 : patch((uintptr_t)v->callee, from, to, err, errlen);
		if (a < 0 || b < 0)
			return -1;
		total += a + b;
	}
	/* The twins' other functions (the per-run drivers). */
	if (in_families("twin", families, n_families))
		for (size_t i = 0; i < sb_function_count(); i++) {
			const struct sb_function *f = sb_function_at(i);
			if (!f->prog || f->jmp_target != (const void *)sb_its_return_thunk)
				continue;
			int n = patch((uintptr_t)f->addr, from, to, err, errlen);
			if (n < 0)
				return -1;
			total += n;
		}
	applied = t;
	return total;
}

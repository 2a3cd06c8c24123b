/* return_thunks.c: the return thunk replicas by thunk, and the SRSO alias
 * pair placed at the kernel's address relationship; see return_thunks.h. */
#define _GNU_SOURCE
#include "jit/return_thunks.h"
#include "base/code_symbols.h"
#include "base/error.h"
#include "jit/relocate.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static const struct sb_thunk_code codes[] = {
	{"its_return_thunk", "sb_its_return_thunk", (const void *)sb_its_return_thunk, -1, NULL},
	{"srso_untrain_ret", "sb_srso_untrain_ret", (const void *)sb_srso_untrain_ret, -1, NULL},
	{"srso_return_thunk", "sb_srso_return_thunk", (const void *)sb_srso_return_thunk, -1, NULL},
	{"srso_alias_untrain_ret", "sb_srso_alias_untrain_ret", (const void *)sb_srso_alias_untrain_ret, -1, NULL},
	{"srso_alias_safe_ret", "sb_srso_alias_safe_ret", (const void *)sb_srso_alias_safe_ret, -1, NULL},
	{"srso_alias_return_thunk", "sb_srso_alias_return_thunk", (const void *)sb_srso_alias_return_thunk, -1, NULL},
	{"retbleed_untrain_ret", "sb_retbleed_untrain_ret", (const void *)sb_retbleed_untrain_ret, -1, NULL},
	{"call_depth_return_thunk", "sb_call_depth_return_thunk", (const void *)sb_call_depth_return_thunk, 3,
	 "the replica addresses the depth gs:[disp32], the kernel gs:[rip+disp32]"},
};

size_t sb_thunk_codes(const struct sb_thunk_code **out)
{
	*out = codes;
	return sizeof(codes) / sizeof(codes[0]);
}

#define SRSO_ALIAS_BITS 0x104104UL /* bits 2, 8, 14, 20 (vmlinux.lds.S) */
#define TWO_MIB (2UL << 20)

static struct sb_srso_alias_placed alias;

const struct sb_srso_alias_placed *sb_srso_alias_place(char *err, size_t errlen)
{
	if (alias.map)
		return &alias;
	uintptr_t t[3] = {(uintptr_t)sb_srso_alias_untrain_ret, (uintptr_t)sb_srso_alias_safe_ret,
			  (uintptr_t)sb_srso_alias_return_thunk};
	size_t len[3];
	for (int i = 0; i < 3; i++)
		if (!(len[i] = sb_code_function_size(t[i], NULL))) {
			sb_set_err(err, errlen, "the SRSO alias thunk replicas have no function symbols");
			return NULL;
		}
	/* 2 MiB aligned, 64 MiB above the program's code, within rel32 reach
	 * of it and of placed copies of it. */
	size_t map_len = SRSO_ALIAS_BITS + 4096;
	uintptr_t start = ((t[0] + (64UL << 20)) & ~(TWO_MIB - 1));
	void *m = MAP_FAILED;
	uintptr_t base = 0;
	for (int i = 0; i < 256 && m == MAP_FAILED; i++) {
		base = start + (uintptr_t)i * TWO_MIB;
		m = mmap((void *)base, map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0);
		if (m != MAP_FAILED && (uintptr_t)m != base) {
			munmap(m, map_len);
			m = MAP_FAILED;
		}
	}
	if (m == MAP_FAILED) {
		sb_set_err(err, errlen, "no 2 MiB aligned memory near the program for the SRSO alias thunks: %s",
			   strerror(errno));
		return NULL;
	}
	memset(m, 0xcc, map_len);
	uintptr_t to[3] = {base, base | SRSO_ALIAS_BITS, (base | SRSO_ALIAS_BITS) + (t[2] - t[1])};
	struct sb_code_map map[3];
	for (int i = 0; i < 3; i++)
		map[i] = (struct sb_code_map){t[i], len[i], to[i]};
	for (int i = 0; i < 3; i++)
		if (sb_jit_relocate((const uint8_t *)t[i], len[i], t[i], (uint8_t *)to[i], to[i], map, 3, err, errlen)) {
			munmap(m, map_len);
			return NULL;
		}
	if (mprotect(m, map_len, PROT_READ | PROT_EXEC)) {
		sb_set_err(err, errlen, "mprotect of the SRSO alias thunks: %s", strerror(errno));
		munmap(m, map_len);
		return NULL;
	}
	alias = (struct sb_srso_alias_placed){to[0], to[1], to[2], m, map_len};
	return &alias;
}

int sb_thunk_is_replica(uintptr_t addr)
{
	if (alias.map && (addr == alias.return_thunk || addr == alias.safe_ret || addr == alias.untrain_ret))
		return 1;
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if ((uintptr_t)codes[i].addr == addr)
			return 1;
	return addr == (uintptr_t)sb_srso_safe_ret || addr == (uintptr_t)sb_retbleed_return_thunk;
}

const void *sb_thunk_entry(enum sb_thunk t, char *err, size_t errlen)
{
	switch (t) {
	case SB_THUNK_ITS: return (const void *)sb_its_return_thunk;
	case SB_THUNK_SRSO: return (const void *)sb_srso_return_thunk;
	case SB_THUNK_RETBLEED: return (const void *)sb_retbleed_return_thunk;
	case SB_THUNK_CALL_DEPTH: return (const void *)sb_call_depth_return_thunk;
	case SB_THUNK_SRSO_ALIAS: {
		const struct sb_srso_alias_placed *p = sb_srso_alias_place(err, errlen);
		return p ? (const void *)p->return_thunk : NULL;
	}
	case SB_THUNK_RET:
		return NULL;
	default:
		sb_set_err(err, errlen, "no replica of the return thunk '%s'", sb_thunk_name(t));
		return NULL;
	}
}

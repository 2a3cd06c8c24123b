/* return_thunks.h: the return thunk replicas of asm/return_thunks.asm
 * (Linux v6.17/6.18 arch/x86/lib/retpoline.S), by the thunk they copy.
 *
 * Code that returns through "jmp rel32" to a thunk (the twins, the lab's
 * rethunk flavour, placed copies) takes another thunk by re-aiming that
 * jmp (sb_jit_relocate with a map) at sb_thunk_entry(), or, for plain ret,
 * by writing "ret; int3 int3 int3 int3" over it as the kernel's
 * apply_returns() does. */
#ifndef STUBBENCH_RETURN_THUNKS_H
#define STUBBENCH_RETURN_THUNKS_H

#include <stddef.h>
#include <stdint.h>

#include "base/mitigations.h"
#include "variants/return_names.h"

/* A replica and the kernel function it copies, for checks against the
 * kernel's own text. */
struct sb_thunk_code {
	const char *kernel_sym;   /* "srso_untrain_ret" */
	const char *replica_sym;  /* "sb_srso_untrain_ret" */
	const void *addr;         /* the replica (the template, for the alias thunks) */
	long known_diff;          /* offset of a deliberate difference from the kernel's bytes, or -1 */
	const char *why_diff;     /* what it is */
};
size_t sb_thunk_codes(const struct sb_thunk_code **out);

/* srso_alias_untrain_ret, srso_alias_safe_ret and srso_alias_return_thunk
 * copied where the kernel's linker script puts them: untrain 2 MiB
 * aligned, safe_ret at untrain | 0x104104 (bits 2, 8, 14, 20), the return
 * thunk right after it; within rel32 reach of the program's code. */
struct sb_srso_alias_placed {
	uintptr_t untrain_ret, safe_ret, return_thunk;
	void *map;
	size_t map_len;
};
/* Places the copies once per process and returns them (NULL with one line
 * in err when no memory near the program can be had). */
const struct sb_srso_alias_placed *sb_srso_alias_place(char *err, size_t errlen);

/* Where a "jmp rel32" return must go to reach thunk t: the replica's entry
 * (the placed copy for the SRSO alias thunk). NULL for SB_THUNK_RET (write
 * ret over the jmp) and, with one line in err, for a thunk without a
 * replica (unknown, __x86_return_thunk). */
const void *sb_thunk_entry(enum sb_thunk t, char *err, size_t errlen);

/* Is addr the entry of a thunk replica (the placed SRSO alias copy
 * included)? Code placement leaves those where they are, as the kernel's
 * thunks stay in its text while JITed code moves. */
int sb_thunk_is_replica(uintptr_t addr);

/* In code (writable, running at address at), every "jmp rel32" to from
 * re-aimed at to, or with to NULL overwritten by "ret; int3 int3 int3
 * int3" as apply_returns() does on a kernel without return thunks.
 * Returns how many, or -1 with one line in err (undecodable code, a target
 * out of rel32 reach). */
int sb_jit_retarget_returns(uint8_t *code, size_t len, uintptr_t at, const void *from, const void *to, char *err,
			    size_t errlen);

/* The host's thunk for code that copies the running kernel: every
 * function of the variants of the given families (their programs and
 * subprogs, and for twins the drivers their records name) is patched in
 * place, as the kernel patches its returns at boot, so that its returns
 * reach the replica of thunk t; placed copies made afterwards copy that.
 * The asm jumps to sb_its_return_thunk until then. Returns how many
 * returns now go to t, or -1 with one line in err (no replica of t, the
 * text cannot be made writable, returns already turned into ret). */
int sb_thunk_apply(enum sb_thunk t, const char *const *families, size_t n_families, char *err, size_t errlen);
/* The thunk sb_thunk_apply() last applied (SB_THUNK_ITS before). */
enum sb_thunk sb_thunk_applied(void);

#endif

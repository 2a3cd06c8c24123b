/* relocate.h: code copied to run at another address. */
#ifndef STUBBENCH_RELOCATE_H
#define STUBBENCH_RELOCATE_H

#include <stddef.h>
#include <stdint.h>

/* Code moved to another address (relocate.c), as the kernel's
 * bpf_jit_binary_pack_alloc() places every JITed function at a random
 * offset of its first 64-byte chunk. */
struct sb_code_map {
	uintptr_t old_addr;  /* where the function is now */
	size_t len;
	uintptr_t new_addr;  /* where its copy will run */
};
/* Copies len bytes of code from code (running at old_addr) to dst (to run
 * at new_addr), re-aiming every rel32 call/jmp: a target inside a function
 * of map goes to that function's new place, any other target (the return
 * thunk) stays where it is; rel8 jumps must stay inside the function.
 * Returns 0, or -1 with the offending instruction in err. */
int sb_jit_relocate(const uint8_t *code, size_t len, uintptr_t old_addr, uint8_t *dst, uintptr_t new_addr,
		    const struct sb_code_map *map, size_t n_map, char *err, size_t errlen);

#endif

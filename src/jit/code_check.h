/* code_check.h: code read from a user's file (a listing, a JIT dump, a
 * BPF object's JIT image) checked before any of it runs: every byte must
 * decode, and nothing may be what the x86-64 BPF JIT never emits (system
 * calls, interrupts, ud2, hlt, I/O, privileged and far control flow), an
 * int3 that is not padding after a jmp or ret, an indirect jump or call,
 * a jump into the middle of an instruction or to itself, or a jump out of
 * the function other than a rel32 jmp (the return thunk's, which a twin
 * aims). Calls leave through rel32 and are aimed at stubs. What the
 * check cannot see (a load from a bad address, a loop that never ends
 * through its data) is not claimed: docs/hostile-inputs.md. */
#ifndef STUBBENCH_CODE_CHECK_H
#define STUBBENCH_CODE_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* Returns 0, or -1 with one line in err naming what+offset, the
 * instruction and why it is refused. STUBBENCH_TEST_SKIP_CODE_CHECK=1 in
 * the environment (a test hook) makes it take everything. */
int sb_code_check(const uint8_t *code, size_t len, const char *what, char *err, size_t errlen);

#endif

/* insn_trace.h: the instructions one call of a stub executes inside given
 * code ranges, counted by single-stepping it with ptrace in a forked child
 * (no PMU, no valgrind needed). The child inherits this thread's memory
 * and GS base, so a stub runs there as it would here. */
#ifndef STUBBENCH_INSN_TRACE_H
#define STUBBENCH_INSN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/registry.h"

/* Calls fn() once in a child, single-stepping it; *count: the steps whose
 * instruction pointer lay in one of [lo[i], hi[i]). At most max_steps
 * steps in all. Returns 0, or -1 with one line in err (ptrace refused,
 * the child killed by a signal: "SIGSEGV at 0x..."; the step limit). */
int sb_insn_trace_count(sb_stub_fn fn, const uintptr_t *lo, const uintptr_t *hi, size_t n, uint64_t max_steps,
			uint64_t *count, char *err, size_t errlen);

#endif

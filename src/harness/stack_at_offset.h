/* stack_at_offset.h: a call with the stack at a chosen page offset, and a
 * stub that reads where a twin's rbp frame falls (asm/stack_at_offset.asm).
 * The sampler calls an arm's sample this way when sb_run_opts.fixed_stack
 * is set (run_opts.h). */
#ifndef STUBBENCH_STACK_AT_OFFSET_H
#define STUBBENCH_STACK_AT_OFFSET_H

#include <stdint.h>

/* fn(ctx, batch) called with rsp at page offset `offset` (its low 4 bits
 * ignored: rsp stays 16-byte aligned at the call), 16 to 4096 + 16 bytes
 * below the caller's stack. */
uint64_t sb_call_at_stack_offset(uint64_t (*fn)(void *ctx, uint64_t batch), void *ctx, uint64_t batch,
				 uint64_t offset);

/* A stub (the stub ABI) with the twins' prologue, push rbp; mov rbp, rsp,
 * that stores its rbp in sb_frame_probe_rbp. */
int sb_frame_probe_stub(void);
extern volatile uint64_t sb_frame_probe_rbp;

#endif

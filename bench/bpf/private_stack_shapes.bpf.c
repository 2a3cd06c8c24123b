// SPDX-License-Identifier: GPL-2.0
/* private_stack_shapes.bpf.c: the programs of `stubbench kernel`.
 *
 * The same work as the seed 001 benchmark (progs/private_stack.c: hits++
 * and three calls of a do-nothing subprog), in the two shapes of the seeds,
 * and in three variants chosen through stack sizes, since a v6.13+ kernel
 * gives a JITed function a private stack when round_up(stack_depth, 16) >= 64
 * (BPF_PRIV_STACK_MIN_SIZE), per function:
 *
 *   baseline  every function uses 8 bytes of stack: rbp frames everywhere
 *   private   "prog" and subprog use 64 bytes: both get a private stack
 *   hybrid    "prog" uses 64 bytes, subprog 8 (the seed 000 review's case)
 *
 * A function's stack is "really used": it stores a value at fp-8 or fp-64
 * and loads it back, the same two instructions in every variant, so the variants differ only in where the
 * frame is (rbp or r9) and in the JIT's r9 setup and push/pop r9.
 *
 * Shapes:
 *   per-run  (seed 001, v2)  run_<v>: a small-stack raw_tp driver loops
 *            batch_iters times calling the global function prog_<v>, which
 *            bumps hits_<v> and calls sub_<v> three times: r9 is set up once
 *            per iteration.
 *   in-loop  (seed 003, v1)  loop_<v>: the raw_tp program is itself the
 *            "prog": it loops batch_iters times, bumping loop_hits_<v> and
 *            calling sub_<v> three times: r9 is set up once per run.
 *   empty    a driver that counts its runs and returns: the syscall and
 *            dispatch cost of BPF_PROG_TEST_RUN (or of the page fault that
 *            triggers it as a perf_event program), subtracted from the others.
 *
 * Every program is SEC("raw_tp"); the loader may load them all as
 * perf_event programs instead (src/kernel/run_once.c), for kernels
 * that give a private stack to that type alone.
 *
 * Only UAPI and libbpf headers, so the build needs no kernel BTF.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "touch_stack.h"

char _license[] SEC("license") = "GPL";

/* Iterations per BPF_PROG_TEST_RUN, set by the loader before load (frozen,
 * so the verifier knows the loop bound). */
const volatile __u32 batch_iters = 1;

#define SMALL_STACK 8 /* bytes: below the private stack threshold */
#define BIG_STACK 64  /* bytes: private stack on v6.13+ */


/* The subprog of the seed ("func1() { return 0; }") with a frame that is
 * really used. noinline and the asm keep clang from inlining or dropping
 * the calls. */
static __attribute__((noinline)) __u64 sub_small(__u64 x)
{
	return TOUCH_STACK(x, 8);
}

static __attribute__((noinline)) __u64 sub_big(__u64 x)
{
	return TOUCH_STACK(x, 64);
}

/* per-run: the global function "prog" (verified once, JITed as its own
 * function) and the driver that calls it batch_iters times. */
#define DEFINE_PER_RUN(variant, prog_stack, sub)                         \
	__u64 hits_##variant = 0;                                        \
	__attribute__((noinline)) int prog_##variant(__u64 x)            \
	{                                                                \
		x = TOUCH_STACK(x, prog_stack);                          \
		hits_##variant++;                                        \
		sub(x);                                                  \
		sub(x);                                                  \
		sub(x);                                                  \
		return 0;                                                \
	}                                                                \
	SEC("raw_tp")                                                    \
	int run_##variant(void *ctx)                                     \
	{                                                                \
		for (__u32 i = 0; i < batch_iters; i++)                  \
			prog_##variant(i);                               \
		return 0;                                                \
	}

DEFINE_PER_RUN(baseline, 8, sub_small)
DEFINE_PER_RUN(private, 64, sub_big)
DEFINE_PER_RUN(hybrid, 64, sub_small)

/* in-loop: the raw_tp program holds the loop and the calls. */
#define DEFINE_IN_LOOP(variant, prog_stack, sub)                         \
	__u64 loop_hits_##variant = 0;                                   \
	SEC("raw_tp")                                                    \
	int loop_##variant(void *ctx)                                    \
	{                                                                \
		__u64 n = TOUCH_STACK(batch_iters, prog_stack);          \
		for (__u64 i = 0; i < n; i++) {                          \
			loop_hits_##variant++;                           \
			sub(i);                                          \
			sub(i);                                          \
			sub(i);                                          \
		}                                                        \
		return 0;                                                \
	}

DEFINE_IN_LOOP(baseline, 8, sub_small)
DEFINE_IN_LOOP(private, 64, sub_big)
DEFINE_IN_LOOP(hybrid, 64, sub_small)

/* Runs of the empty driver: with the perf_event driver (a page fault
 * triggers the program) the only sign that it ran. */
__u64 empty_hits = 0;

SEC("raw_tp")
int empty_driver(void *ctx)
{
	empty_hits++;
	return 0;
}

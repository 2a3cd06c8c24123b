// SPDX-License-Identifier: GPL-2.0
/* private_stack_probe.bpf.c: which programs this kernel gives a private
 * stack (src/kernel/private_stack_probe.c).
 *
 * One program per (program type, shape). Every program is loaded on its
 * own and its JIT read back: a function with a private stack sets up r9
 * (movabs r9 + add r9, gs:[...]). Upstream (v6.13+, kernel/bpf/verifier.c
 * bpf_enable_priv_stack) gives one to kprobe, tracepoint, perf_event and
 * raw_tracepoint programs, per function, where round_up(stack, 16) >= 64,
 * and to none whose call tree has a tail call; a kernel build may differ,
 * which is what this object finds out.
 *
 * Program names: <type>_<shape>, shapes:
 *   s64    a static subprog with 64 bytes of stack (the threshold)
 *   s256   a static subprog with 256 bytes
 *   m64    the program itself with 64 bytes, no subprog
 *   g64    a global subprog with 64 bytes (verified on its own, as
 *          stubbench kernel's prog_<variant>)
 *   tail   m64 plus a tail call: upstream gives it none
 * The function holding the big stack is named big_<shape> (or is the
 * program itself for m64 and tail), so the reader knows which function
 * must show r9.
 *
 * Only UAPI and libbpf headers, so the build needs no kernel BTF.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "touch_stack.h"

char _license[] SEC("license") = "GPL";


struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} probe_jumps SEC(".maps");

__u64 probe_sink = 0;

static __attribute__((noinline)) __u64 big_s64(__u64 x)
{
	return TOUCH_STACK(x, 64);
}

static __attribute__((noinline)) __u64 big_s256(__u64 x)
{
	return TOUCH_STACK(x, 256);
}

__attribute__((noinline)) int big_g64(__u64 x)
{
	probe_sink += TOUCH_STACK(x, 64);
	return 0;
}

#define PROBE_PROGS(type, sec)                                           \
	SEC(sec) int type##_s64(void *ctx)                               \
	{                                                                \
		probe_sink += big_s64(probe_sink);                       \
		return 0;                                                \
	}                                                                \
	SEC(sec) int type##_s256(void *ctx)                              \
	{                                                                \
		probe_sink += big_s256(probe_sink);                      \
		return 0;                                                \
	}                                                                \
	SEC(sec) int type##_m64(void *ctx)                               \
	{                                                                \
		probe_sink += TOUCH_STACK(probe_sink, 64);               \
		return 0;                                                \
	}                                                                \
	SEC(sec) int type##_g64(void *ctx)                               \
	{                                                                \
		big_g64(probe_sink);                                     \
		return 0;                                                \
	}                                                                \
	SEC(sec) int type##_tail(void *ctx)                              \
	{                                                                \
		probe_sink += TOUCH_STACK(probe_sink, 64);               \
		bpf_tail_call(ctx, &probe_jumps, 0);                     \
		return 0;                                                \
	}

PROBE_PROGS(raw_tp, "raw_tp")
PROBE_PROGS(tracepoint, "tp/syscalls/sys_enter_getpid")
PROBE_PROGS(kprobe, "kprobe/do_nanosleep")
PROBE_PROGS(perf_event, "perf_event")

// SPDX-License-Identifier: GPL-2.0
/* twin_pair.bpf.c: functions the x86-64 JIT emits both with and without a
 * private stack, for the de-privatized twin tests: each global function is
 * called from a raw_tp driver (private stack when its frame is >= 64 bytes)
 * and from a syscall driver (never a private stack), so the kernel JITs the
 * same function both ways.
 *   deep_frame  320 bytes of stack: frame offsets below -0x80 (disp32 forms)
 *   long_loop   a loop around eight helper calls with stack stores between,
 *               longer than a rel8 jump reaches (rel32 jumps both ways)
 *   stack_args  a stack buffer handed to a helper (mov rX, r9; add rX, -N) */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

const volatile __u32 batch_iters = 1;
__u64 sink;

__attribute__((noinline)) int deep_frame(int n)
{
	__u64 v, w;
	asm volatile("*(u64 *)(r10 - 320) = %[in]\n\t"
		     "*(u64 *)(r10 - 136) = %[in]\n\t"
		     "*(u64 *)(r10 - 8) = %[in]\n\t"
		     "%[out] = *(u64 *)(r10 - 320)\n\t"
		     "%[tmp] = *(u64 *)(r10 - 136)"
		     : [out] "=&r"(v), [tmp] "=&r"(w)
		     : [in] "r"((__u64)n)
		     : "memory");
	sink += v + w;
	return 0;
}

__attribute__((noinline)) int long_loop(int n)
{
	volatile __u64 buf[10] = {};
	for (__u32 i = 0; i < batch_iters && i < 1000; i++) {
		buf[0] = bpf_get_prandom_u32();
		buf[1] = bpf_get_smp_processor_id();
		buf[2] = bpf_ktime_get_ns();
		buf[3] = bpf_get_prandom_u32();
		buf[4] = bpf_get_smp_processor_id();
		buf[5] = bpf_ktime_get_ns();
		buf[6] = bpf_get_prandom_u32();
		buf[7] = bpf_get_smp_processor_id();
	}
	sink += buf[0] + buf[7] + n;
	return 0;
}

__attribute__((noinline)) int stack_args(int n)
{
	char buf[72] = {};
	buf[n & 63] = 1;
	bpf_probe_read_kernel(buf + 8, 64, buf);
	sink += buf[9];
	return 0;
}

SEC("raw_tp")
int pair_private(void *ctx)
{
	return deep_frame(1) + long_loop(2) + stack_args(3);
}

SEC("syscall")
int pair_baseline(void *ctx)
{
	return deep_frame(1) + long_loop(2) + stack_args(3);
}

// SPDX-License-Identifier: GPL-2.0
/* user_prog.bpf.c: a BPF object as a user would write one, for testing
 * `stubbench kernel --obj=FILE --prog=NAME`: nothing from the project's own
 * programs. Two raw_tp programs loop batch_iters times (a read-only global
 * the loader may set before load); "with_frame" calls a function whose
 * 96-byte buffer earns it a private stack on v6.13+ x86-64, "no_frame"
 * calls one that needs 8 bytes. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

const volatile __u32 batch_iters = 1;
__u64 calls_with_frame, calls_no_frame;

static __attribute__((noinline)) __u64 sum_big(__u64 x)
{
	__u64 v;
	asm volatile("*(u64 *)(r10 - 96) = %[in]\n\t"
		     "%[out] = *(u64 *)(r10 - 96)"
		     : [out] "=r"(v)
		     : [in] "r"(x)
		     : "memory");
	return v + 1;
}

static __attribute__((noinline)) __u64 sum_small(__u64 x)
{
	__u64 v;
	asm volatile("*(u64 *)(r10 - 8) = %[in]\n\t"
		     "%[out] = *(u64 *)(r10 - 8)"
		     : [out] "=r"(v)
		     : [in] "r"(x)
		     : "memory");
	return v + 1;
}

SEC("raw_tp")
int with_frame(void *ctx)
{
	__u64 acc = 0;
	for (__u32 i = 0; i < batch_iters; i++)
		acc += sum_big(i);
	calls_with_frame += batch_iters;
	return acc == 0;
}

SEC("raw_tp")
int no_frame(void *ctx)
{
	__u64 acc = 0;
	for (__u32 i = 0; i < batch_iters; i++)
		acc += sum_small(i);
	calls_no_frame += batch_iters;
	return acc == 0;
}

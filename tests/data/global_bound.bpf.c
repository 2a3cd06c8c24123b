// SPDX-License-Identifier: GPL-2.0
/* global_bound.bpf.c: a loop whose bound is a global, for `stubbench diff`'s
 * check of paths read from memory the twin zeroes (tests/twins/diff_globals.sh).
 * "work" loops `loop_n` times (a .data global, 64 at load; at most 4096);
 * the twin of its JIT image reads 0 there unless --global sets it. Built
 * twice: OLD as it is, NEW with -DNEW_BODY (one more instruction a turn);
 * tests/data/global_bound_{old,new}.work.lst are their --dump-jit. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

__u32 loop_n = 64;
__u64 total;

SEC("raw_tp")
int work(void *ctx)
{
	__u32 n = *(volatile __u32 *)&loop_n;
	__u64 acc = 0;
	if (n > 4096)
		n = 4096;
	for (__u32 k = 0; k < n; k++) {
#ifdef NEW_BODY
		acc += k ^ 5;
#else
		acc += k;
#endif
		asm volatile("" : "+r"(acc)); /* a loop, not its closed form */
	}
	total += acc;
	return 0;
}

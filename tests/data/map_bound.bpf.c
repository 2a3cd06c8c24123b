// SPDX-License-Identifier: GPL-2.0
/* map_bound.bpf.c: a program whose loop bound comes from a map, for the
 * auto-twins' path check (tests/twins/auto_twin_live.sh): "from_map" loops
 * `bound` times, a global in .data (a map the program reads at run time,
 * 50 at load); its twin's stubbed buffers hold 0 there, so the twin takes
 * another path than the kernel and must be reported not comparable.
 * "fixed" loops a constant 50 times: its twin takes the kernel's path. */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

__u32 bound = 50;
__u64 total_from_map, total_fixed;

SEC("raw_tp")
int from_map(void *ctx)
{
	__u32 n = *(volatile __u32 *)&bound;
	__u64 acc = 0;
	if (n > 64)
		n = 64;
	for (__u32 k = 0; k < n; k++) {
		acc += k;
		asm volatile("" : "+r"(acc)); /* a loop, not its closed form */
	}
	total_from_map += acc;
	return 0;
}

SEC("raw_tp")
int fixed(void *ctx)
{
	__u64 acc = 0;
	for (__u32 k = 0; k < 50; k++) {
		acc += k;
		asm volatile("" : "+r"(acc));
	}
	total_fixed += acc;
	return 0;
}

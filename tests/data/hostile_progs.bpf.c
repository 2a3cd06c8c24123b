// SPDX-License-Identifier: GPL-2.0
/* hostile_progs.bpf.c: BPF objects that `stubbench kernel --obj` must
 * refuse with a message saying why (tests/security/hostile_errors.sh), one object
 * per macro:
 *   REJECTED         a raw_tp program the verifier rejects (a load through
 *                    a scalar)
 *   NOT_TEST_RUN     a kprobe and a tracepoint program, types that
 *                    BPF_PROG_TEST_RUN cannot run (error 524)
 *   BATCH_U8         batch_iters a 1-byte integer
 *   BATCH_ARRAY      batch_iters an array
 *   BATCH_MUTABLE    batch_iters not const (in .data)
 *   BATCH_NOT_VOLATILE batch_iters const but not volatile
 *   LONG_RUN         one bpf_loop of 8M iterations a run (bpf_loop's
 *                    most): a run far longer than a short --time allows */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

#if defined(BATCH_U8)
const volatile __u8 batch_iters = 1;
#define ITERS batch_iters
#elif defined(BATCH_ARRAY)
const volatile __u32 batch_iters[2] = {1, 1};
#define ITERS batch_iters[0]
#elif defined(BATCH_MUTABLE)
__u32 batch_iters = 1;
#define ITERS batch_iters
#elif defined(BATCH_NOT_VOLATILE)
const __u32 batch_iters = 1;
#define ITERS batch_iters
#else
const volatile __u32 batch_iters = 1;
#define ITERS batch_iters
#endif

__u64 runs;

#if defined(REJECTED)
SEC("raw_tp")
int rejected(void *ctx)
{
	__u64 v;
	asm volatile("r1 = 0\n\t"
		     "%[out] = *(u64 *)(r1 + 0)"
		     : [out] "=r"(v)
		     :
		     : "r1");
	return (int)v;
}
#elif defined(NOT_TEST_RUN)
SEC("kprobe/do_nanosleep")
int on_kprobe(void *ctx)
{
	runs += ITERS;
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_getpid")
int on_tracepoint(void *ctx)
{
	runs += ITERS;
	return 0;
}
#elif defined(LONG_RUN)
static long spin(__u64 i, void *ctx)
{
	runs += i & 1;
	return 0;
}

SEC("raw_tp")
int long_run(void *ctx)
{
	bpf_loop(1 << 23, spin, NULL, 0);
	return 0;
}
#else
SEC("raw_tp")
int counts(void *ctx)
{
	for (__u32 i = 0; i < ITERS; i++)
		runs++;
	return 0;
}
#endif

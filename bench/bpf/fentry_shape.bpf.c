// SPDX-License-Identifier: GPL-2.0
/* fentry_shape.bpf.c: the seed 001 v2 program as it was (progs/private_stack.c
 * of "[PATCH bpf-next v2 2/2] selftests/bpf: Benchmark runtime performance
 * with private stack"): a raw_tp driver calls bpf_get_numa_node_id()
 * batch_iters times, and an fentry program on that helper bumps hits and
 * calls a do-nothing subprog three times.
 *
 * `stubbench kernel` only tries to load it, to say in one line whether the
 * seed's exact shape is available on this kernel (fentry needs BTF and is
 * refused with EPERM on some machines); the measured shapes are the raw_tp
 * ones of private_stack_shapes.bpf.c.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

unsigned long hits = 0;
const volatile int batch_iters = 0;

SEC("raw_tp")
int trigger_driver(void *ctx)
{
	for (int i = 0; i < batch_iters; i++)
		(void)bpf_get_numa_node_id(); /* attach point for benchmarking */
	return 0;
}

__attribute__((weak)) int func1(void)
{
	return 0;
}

SEC("fentry/bpf_get_numa_node_id")
int bench_trigger_fentry_batch(void *ctx)
{
	hits++;
	(void)func1();
	(void)func1();
	(void)func1();
	return 0;
}

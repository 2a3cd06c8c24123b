// SPDX-License-Identifier: GPL-2.0
/* htab_shape.bpf.c: the programs of `stubbench kernel --shape=htab`.
 *
 * The body of seed 003's v1 benchmark (progs/private_stack.c): a struct
 * data_t key and value on the stack (96 bytes: the JIT gives the function a
 * private stack), hits++, and batch_iters times bpf_map_lookup_elem, on a
 * miss bpf_map_update_elem, then bpf_map_delete_elem on a 10-entry
 * BPF_MAP_TYPE_HASH. Every helper call of the private variant is wrapped in
 * push/pop r9 and every key/value access is r9-relative.
 *
 * How the baseline gets the same body without a private stack: on v6.13+
 * the verifier asks for a private stack only for kprobe, tracepoint,
 * perf_event and raw_tracepoint programs (and tracing/LSM/struct_ops with
 * recursion checks), per function with >= 64 bytes of stack, and the
 * v1 patch's BPF_F_DISABLE_PRIVATE_STACK flag never landed. So the body is
 * one global function, htab_body(), and two small drivers call it:
 *
 *   htab_private   SEC("raw_tp"): htab_body is JITed with r9 frame (on a
 *                  kernel that gives raw_tp none, loaded as a perf_event
 *                  program, run by a page fault: src/kernel/run_once.c)
 *   htab_baseline  SEC("syscall"): a type that never gets a private stack
 *                  yet runs with BPF_PROG_TEST_RUN without packet data;
 *                  htab_body keeps the rbp frame (sub rsp, 0x60)
 *
 * libbpf gives each program its own copy of the global function; the
 * verifier checks it once per program, the JIT emits it as a function of
 * its own, so the two JITed htab_body differ only in their frame (r9 setup,
 * [r9-..] vs [rbp-..], push/pop r9 around the three helper calls). The
 * drivers have no stack and never get a private stack. Both test-run paths
 * (raw_tp and syscall) are a few dozen instructions of rcu/migrate
 * bookkeeping; their own cost is measured with the empty drivers.
 *
 *   htab_nohelp    SEC("raw_tp"): the same body with the three helper
 *                  calls replaced by compiler barriers that keep the key and
 *                  value stored: what one iteration costs in the JITed body
 *                  alone, so that the share spent in the helpers (kernel
 *                  code outside the JITed body) can be told.
 *
 * Only UAPI and libbpf headers, so the build needs no kernel BTF.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

struct data_t {
	unsigned int d[12];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10);
	__type(key, struct data_t);
	__type(value, struct data_t);
} htab SEC(".maps");

/* Iterations per BPF_PROG_TEST_RUN, set by the loader before load. */
const volatile __u32 batch_iters = 1;

/* Runs of each body (the seed's hits++), and iterations of the body without
 * helpers (the check that its loop ran). */
__u64 hits = 0;
__u64 hits_nohelp = 0;
__u64 iters_nohelp = 0;
/* Runs of the empty raw_tp driver: where it runs as a perf_event program,
 * the check that a page fault ran it exactly once. */
__u64 empty_hits = 0;

/* Global: verified and JITed as a function of its own in each program. */
__attribute__((noinline)) int htab_body(int unused)
{
	struct data_t key = {}, value = {};
	struct data_t *pvalue;

	hits++;
	key.d[10] = 5;
	value.d[8] = 10;
	for (__u32 i = 0; i < batch_iters; i++) {
		pvalue = bpf_map_lookup_elem(&htab, &key);
		if (!pvalue)
			bpf_map_update_elem(&htab, &key, &value, 0);
		bpf_map_delete_elem(&htab, &key);
	}
	return unused;
}

/* The body without the helpers: the barriers take the buffers' addresses,
 * so the stores to key and value stay, as does the loop. */
__attribute__((noinline)) int htab_body_nohelp(int unused)
{
	struct data_t key = {}, value = {};

	hits_nohelp++;
	key.d[10] = 5;
	value.d[8] = 10;
	for (__u32 i = 0; i < batch_iters; i++) {
		asm volatile("" : : "r"(&key), "r"(&value) : "memory");
		iters_nohelp++;
	}
	return unused;
}

SEC("raw_tp")
int htab_private(void *ctx)
{
	return htab_body(0);
}

SEC("syscall")
int htab_baseline(void *ctx)
{
	return htab_body(0);
}

SEC("raw_tp")
int htab_nohelp(void *ctx)
{
	return htab_body_nohelp(0);
}

/* The test-run paths' own cost: raw_tp (the overhead the harness removes)
 * and syscall (the baseline's path, reported beside). */
SEC("raw_tp")
int empty_raw_tp(void *ctx)
{
	empty_hits++;
	return 0;
}

SEC("syscall")
int empty_syscall(void *ctx)
{
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* stack_offset_probe.bpf.c: where a program's frame sits on the kernel's
 * (normal) stack, for the run that drives `stubbench kernel`'s programs
 * (src/kernel/stack_offset_probe.c).
 *
 * The program stores the address of one of its own stack slots in a
 * global (a .bss map value, which root may read: storing a pointer needs
 * the privilege that lets pointers leak). The slot is at a fixed offset
 * from the BPF frame pointer r10, which the x86-64 JIT maps to rbp: the
 * reader finds that offset in the program's instructions and derives the
 * page offset of the program's rbp frame. 8 bytes of stack: below the
 * private stack threshold, so the frame is on the normal stack.
 *
 * SEC("raw_tp"); the reader loads it as a perf_event program where the
 * run's programs are run by page faults.
 *
 * Only UAPI and libbpf headers, so the build needs no kernel BTF.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char _license[] SEC("license") = "GPL";

__u64 probe_slot_addr = 0; /* &slot, as the kernel ran it */
__u64 probe_runs = 0;      /* runs of the program */

SEC("raw_tp")
int stack_offset_probe(void *ctx)
{
	volatile __u64 slot = 1;
	probe_slot_addr = (__u64)(long)&slot;
	probe_runs++;
	return (int)slot - 1;
}

/* spacer.c: a do-nothing BPF program whose JITed image takes a chosen
 * share of the kernel's executable pack, loaded just before a copy of the
 * measured programs.
 *
 * The kernel packs JITed functions first-fit into 64-byte chunks
 * (bpf_prog_pack_alloc()) and randomizes only where a function starts
 * within its first chunk. Copies loaded one after the other therefore sit
 * a fixed distance apart, and a run's loads share a few page offsets: fewer
 * states than loads, and a CI that misses the next run's figure (measured:
 * results/amd-epyc-zen5-vm.md). A spacer of a random size before each copy
 * moves the copy's functions to a page offset of their own. */
#include "kernel/spacer.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdlib.h>

/* The x86-64 JIT turns `r0 = 1` into `mov eax, 1`: five bytes. */
#define SPACER_INSN_BYTES 5

int sb_kernel_spacer_load(size_t bytes)
{
	size_t n = bytes / SPACER_INSN_BYTES;
	if (n == 0) /* r0 is set before the exit */
		n = 1;
	struct bpf_insn *insns = calloc(n + 1, sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		insns[i].code = BPF_ALU64 | BPF_MOV | BPF_K;
		insns[i].dst_reg = BPF_REG_0;
		insns[i].imm = 1;
	}
	insns[n].code = BPF_JMP | BPF_EXIT;
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "sb_spacer", "GPL", insns, n + 1, NULL);
	int e = errno;
	free(insns);
	return fd >= 0 ? fd : -e;
}

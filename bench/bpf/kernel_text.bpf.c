// SPDX-License-Identifier: GPL-2.0
/* kernel_text.bpf.c: copies SB_TEXT_MAX bytes of kernel text at text_addr
 * into text[] with bpf_probe_read_kernel, once per BPF_PROG_TEST_RUN, so
 * the return thunk replicas can be checked against the running kernel's
 * own bytes where there is no /proc/kcore. The address comes from
 * /proc/kallsyms; text_rc is the helper's return value (0 or -errno).
 *
 * Only UAPI and libbpf headers, so the build needs no kernel BTF.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SB_TEXT_MAX 256

__u64 text_addr;
long text_rc;
__u8 text[SB_TEXT_MAX];

SEC("raw_tp")
int read_text(void *ctx)
{
	text_rc = bpf_probe_read_kernel(text, sizeof(text), (const void *)text_addr);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";

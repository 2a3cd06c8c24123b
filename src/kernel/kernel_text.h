/* kernel_text.h: the running kernel's own code bytes, read through BPF
 * (bpf_probe_read_kernel in a raw_tp program run once with
 * BPF_PROG_TEST_RUN), to check replicas of kernel code against it. */
#ifndef STUBBENCH_KERNEL_TEXT_H
#define STUBBENCH_KERNEL_TEXT_H

#include <stddef.h>
#include <stdint.h>

#define SB_KERNEL_TEXT_MAX 256

/* Copies len (<= SB_KERNEL_TEXT_MAX) bytes of kernel memory at addr (an
 * address from /proc/kallsyms) into buf. Returns 0, or -1 with one line in
 * err saying what refused it (program load, test run, the helper). */
int sb_kernel_read_text(uint64_t addr, uint8_t *buf, size_t len, char *err, size_t errlen);

#endif

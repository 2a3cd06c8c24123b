/* probe.h: what the machine lacks for the kernel side, detected and named. */
#ifndef STUBBENCH_PROBE_H
#define STUBBENCH_PROBE_H

#include <stddef.h>

#include "kernel/loader.h"

/* Does this process hold CAP_BPF or CAP_SYS_ADMIN, and is the JIT on?
 * Returns SB_KERNEL_OK or the status, with one line saying why in why. */
enum sb_kernel_status sb_kernel_probe(char *why, size_t whylen);

/* Does the seed's exact fentry shape (bench/bpf/fentry_shape.bpf.c) load
 * here? Returns 1 or 0, with one line saying which in why. Nothing stays
 * loaded. */
int sb_kernel_fentry_available(char *why, size_t whylen);

/* What every kernel run does first: sb_kernel_probe(), pinning to cpu_req
 * (-1: the default CPU; the CPU used in *cpu) and the signal handlers.
 * Returns SB_KERNEL_OK, or the status to exit with (SB_KERNEL_USAGE for a
 * bad CPU) and one line in why. */
enum sb_kernel_status sb_kernel_start(int cpu_req, int *cpu, char *why, size_t whylen);

#endif

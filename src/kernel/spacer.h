/* spacer.h: a do-nothing BPF program of a chosen JITed size, loaded before
 * a copy of the measured programs to move it to a page offset of its own
 * (src/kernel/spacer.c). */
#ifndef STUBBENCH_SPACER_H
#define STUBBENCH_SPACER_H

#include <stddef.h>

/* The spacer alone: a socket filter of about bytes of JITed code that does
 * nothing. Returns its fd, or -errno. */
int sb_kernel_spacer_load(size_t bytes);
/* A spacer's largest size: one page, so the load after it can start at
 * any of the page's 64 chunks. */
#define SB_KERNEL_SPACER_MAX_BYTES 4096

#endif

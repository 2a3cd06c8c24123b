/* prog_loaded.h: whether a BPF program id is still loaded, for the kernel
 * tests that check a run leaves no program behind. */
#ifndef STUBBENCH_TEST_PROG_LOADED_H
#define STUBBENCH_TEST_PROG_LOADED_H

#include <bpf/bpf.h>
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

/* 1 while program id is loaded (or cannot be told otherwise), 0 once the
 * kernel says there is none (ENOENT). */
static inline int prog_exists(uint32_t id)
{
	int fd = bpf_prog_get_fd_by_id(id);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno != ENOENT;
}

#endif

/* fuzz_input.h: the fuzz targets' one way to hand libFuzzer's bytes to a
 * reader that takes a path: a file of this process's own, rewritten whole
 * for every input. */
#ifndef STUBBENCH_FUZZ_INPUT_H
#define STUBBENCH_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* The path holding data[0..n) (a file in /tmp made once per process, its
 * name removed at exit by the fuzzer's end). */
static const char *fuzz_path(const uint8_t *data, size_t n)
{
	static char path[64];
	static int fd = -1;
	if (fd < 0) {
		snprintf(path, sizeof(path), "/tmp/stubbench-fuzz-XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, n, 0) != (ssize_t)n)
		abort();
	return path;
}

#endif

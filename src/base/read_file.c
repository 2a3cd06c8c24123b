/* read_file.c: see read_file.h. */
#include "base/read_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/safe_file.h"

char *sb_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen)
{
	/* A FIFO or a device is refused, never waited on. */
	int fd = sb_safe_file_open_input(path, err, errlen);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		sb_set_err(err, errlen, "%s", sb_errno_cause(errno));
		close(fd);
		return NULL;
	}
	size_t n = 0, cap = 4096;
	char *buf = malloc(cap + 1);
	const char *why = NULL;
	while (buf && !why) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		if (n > max_bytes) {
			why = "too large";
			break;
		}
		char *bigger = realloc(buf, 2 * cap + 1);
		if (!bigger)
			break;
		buf = bigger;
		cap *= 2;
	}
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (!buf || e || why || n > max_bytes || n == cap) {
		if (e)
			sb_set_err(err, errlen, "%s", sb_errno_cause(e));
		else if (why || n > max_bytes)
			sb_set_err(err, errlen, "larger than %zu bytes", max_bytes);
		else
			sb_set_err(err, errlen, "out of memory");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

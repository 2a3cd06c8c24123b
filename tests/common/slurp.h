/* slurp.h: a file's text read whole into a buffer, for the C tests that
 * check what a file holds after a write. */
#ifndef STUBBENCH_TEST_SLURP_H
#define STUBBENCH_TEST_SLURP_H

#include <stdio.h>

/* path's first len - 1 bytes, NUL-ended, in buf (empty when it cannot be
 * read); returns buf. */
static inline const char *slurp(const char *path, char *buf, size_t len)
{
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		buf[fread(buf, 1, len - 1, f)] = '\0';
		fclose(f);
	}
	return buf;
}

#endif

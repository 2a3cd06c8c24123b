/* read_file.h: a whole (small) file in memory, for the readers of config
 * files and saved runs. */
#ifndef STUBBENCH_READ_FILE_H
#define STUBBENCH_READ_FILE_H

#include <stddef.h>

/* The file's bytes and a NUL after them (*len bytes, len may be NULL).
 * Returns NULL with the reason alone in err ("it is a directory", "it is a
 * FIFO, not a regular file", "larger than N bytes", strerror's words) when
 * it cannot be opened, is not a regular file (opened with O_NONBLOCK: a
 * FIFO never hangs the reader), cannot be read, or holds more than
 * max_bytes. */
char *sb_read_file(const char *path, size_t max_bytes, size_t *len, char *err, size_t errlen);

#endif

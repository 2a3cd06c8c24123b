/* error.h: the library's one-line error messages. */
#ifndef STUBBENCH_ERROR_H
#define STUBBENCH_ERROR_H

#include <stddef.h>

/* printf into err (errlen bytes); does nothing when err is NULL or errlen 0. */
void sb_set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif

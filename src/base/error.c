/* error.c: see error.h. */
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>

void sb_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

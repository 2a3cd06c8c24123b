/* format.c: the formats' table, one line of formats.def each, and what
 * reads it: names (format.h), reporters and kinds (reporter.h). */
#include "stubbench/format.h"

#include <stdio.h>
#include <string.h>

#include "output/reporter.h"

#define FORMAT(name, kind, about) extern const struct sb_reporter sb_reporter_##name;
#include "formats.def"
#undef FORMAT

static const struct sb_format formats[] = {
#define FORMAT(name, kind, about) {#name, kind, &sb_reporter_##name, about},
#include "formats.def"
#undef FORMAT
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

const struct sb_format *sb_format_find(const char *name)
{
	if (!name)
		return &formats[0];
	for (size_t i = 0; i < N_FORMATS; i++)
		if (strcmp(name, formats[i].name) == 0)
			return &formats[i];
	return NULL;
}

const struct sb_format *sb_format_at(size_t i)
{
	return i < N_FORMATS ? &formats[i] : NULL;
}

const char *sb_format_name(const struct sb_format *fmt)
{
	return fmt->name;
}

const char *sb_format_about(const struct sb_format *fmt)
{
	return fmt->about;
}

const struct sb_format *sb_format_of(const char *name)
{
	const struct sb_format *fmt = sb_format_find(name);
	return fmt ? fmt : &formats[0];
}

const struct sb_reporter *sb_reporter_for(const char *format)
{
	return sb_format_of(format)->reporter;
}

int sb_format_is(const char *format, unsigned kind)
{
	return (sb_format_of(format)->kind & kind) != 0;
}

const char *sb_format_list(char *buf, size_t len, unsigned kind)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < N_FORMATS && n < len; i++)
		if (!kind || (formats[i].kind & kind))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "", formats[i].name);
	return buf;
}

const char *sb_format_choices(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < N_FORMATS && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s (%s%s)", i ? ", " : "", formats[i].name,
				      i ? "" : "default; ", formats[i].about);
	return buf;
}

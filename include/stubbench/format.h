/* format.h: the output formats a run can be written in, by name (--format,
 * a sweep file's [output] format, struct sb_config's format). Each is one
 * line of the table src/output/formats.def and a reporter of its own
 * (docs/output-formats.md). */
#ifndef STUBBENCH_FORMAT_H
#define STUBBENCH_FORMAT_H

#include <stddef.h>

struct sb_format;

/* The format named name (as --format names it); the default (the first)
 * for NULL; NULL when no format has that name. */
const struct sb_format *sb_format_find(const char *name);

/* The i-th format in the table's order (the first is the default), or NULL
 * past the last. */
const struct sb_format *sb_format_at(size_t i);

/* Its name, as sb_format_find reads it. */
const char *sb_format_name(const struct sb_format *fmt);

/* What it writes, in a few words ("a row per cell"), for --help. */
const char *sb_format_about(const struct sb_format *fmt);

#endif

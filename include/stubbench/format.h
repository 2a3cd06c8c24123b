/* format.h: the output formats a run can be written in (--format, a sweep
 * file's [output] format); output.h writes them. */
#ifndef STUBBENCH_FORMAT_H
#define STUBBENCH_FORMAT_H

enum sb_format { SB_FORMAT_TABLE, SB_FORMAT_SEED, SB_FORMAT_JSON, SB_FORMAT_CSV, SB_FORMAT_GBENCH };

/* "table", "seed", "json", "csv", "gbench" -> format; -1 when unknown. */
int sb_format_parse(const char *s, enum sb_format *out);

/* The format's name, as sb_format_parse reads it; "?" for none. */
const char *sb_format_name(enum sb_format fmt);

#endif

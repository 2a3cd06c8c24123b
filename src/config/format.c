/* format.c: see format.h. */
#include "stubbench/format.h"

#include <stddef.h>
#include <string.h>

static const char *const names[] = {
	[SB_FORMAT_TABLE] = "table", [SB_FORMAT_SEED] = "seed", [SB_FORMAT_JSON] = "json",
	[SB_FORMAT_CSV] = "csv",     [SB_FORMAT_GBENCH] = "gbench",
};

int sb_format_parse(const char *s, enum sb_format *out)
{
	for (size_t i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*out = (enum sb_format)i;
			return 0;
		}
	return -1;
}

const char *sb_format_name(enum sb_format fmt)
{
	return (size_t)fmt < sizeof(names) / sizeof(names[0]) ? names[fmt] : "?";
}

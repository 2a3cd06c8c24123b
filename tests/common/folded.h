/* folded.h: a note folded as sb_fold_line folds it (src/output/text_grid.h:
 * broken at spaces, each further line indented by two), checked for its
 * width and joined back into the one line it was. */
#ifndef STUBBENCH_TEST_FOLDED_H
#define STUBBENCH_TEST_FOLDED_H

#include <string.h>

/* 1 when text is lines ending in '\n', none over width columns, each after
 * the first indented by two spaces; 0 otherwise. */
static inline int folded_within(const char *text, size_t width)
{
	if (!*text)
		return 0;
	for (const char *line = text; *line;) {
		const char *end = strchr(line, '\n');
		if (!end || (size_t)(end - line) > width)
			return 0;
		if (line != text && strncmp(line, "  ", 2) != 0)
			return 0;
		line = end + 1;
	}
	return 1;
}

/* Joins text's folded lines back into one, in place: each "\n  " a space. */
static inline void unfold(char *text)
{
	char *to = text;
	for (const char *from = text; *from;) {
		if (from[0] == '\n' && from[1] == ' ' && from[2] == ' ') {
			*to++ = ' ';
			from += 3;
		} else {
			*to++ = *from++;
		}
	}
	*to = '\0';
}

#endif

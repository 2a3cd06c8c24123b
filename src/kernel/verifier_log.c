/* verifier_log.c: the log of a failed BPF program load, in short; see
 * verifier_log.h. */
#include "kernel/verifier_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_SHOWN 96

static char prog[64];
static char first[LINE_MAX_SHOWN + 1], last[2][LINE_MAX_SHOWN + 1];
static size_t n_lines;

void sb_verifier_log_reset(void)
{
	prog[0] = first[0] = last[0][0] = last[1][0] = '\0';
	n_lines = 0;
}

static void keep_line(const char *s, size_t len)
{
	if (len > LINE_MAX_SHOWN)
		len = LINE_MAX_SHOWN;
	char *to = n_lines == 0 ? first : last[1];
	if (n_lines > 0)
		memcpy(last[0], last[1], sizeof(last[0]));
	memcpy(to, s, len);
	to[len] = '\0';
	n_lines++;
}

void sb_verifier_log_capture(const char *fmt, va_list ap)
{
	static const char begin[] = "-- BEGIN PROG LOAD LOG --\n", end[] = "-- END PROG LOAD LOG --";
	if (!strstr(fmt, "BEGIN PROG LOAD LOG"))
		return;
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	char *msg = n > 0 ? malloc((size_t)n + 1) : NULL;
	if (!msg)
		return;
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	sb_verifier_log_reset();
	const char *name = strstr(msg, "prog '");
	if (name) {
		name += 6;
		size_t len = strcspn(name, "'");
		snprintf(prog, sizeof(prog), "%.*s", (int)(len < sizeof(prog) ? len : sizeof(prog) - 1), name);
	}
	const char *p = strstr(msg, begin);
	const char *stop = p ? strstr(p, end) : NULL;
	for (p = p ? p + strlen(begin) : NULL; p && p < (stop ? stop : msg + n);) {
		size_t len = strcspn(p, "\n");
		if (stop && p + len > stop)
			len = (size_t)(stop - p);
		if (len > 0)
			keep_line(p, len);
		p += len + 1;
	}
	free(msg);
}

int sb_verifier_log_summary(char *buf, size_t len)
{
	if (n_lines == 0)
		return -1;
	int used = snprintf(buf, len, "program '%s' (%zu lines of log): %s", prog[0] ? prog : "?", n_lines, first);
	for (size_t i = n_lines >= 3 ? 0 : 1; n_lines >= 2 && i < 2 && used >= 0 && (size_t)used < len; i++)
		used += snprintf(buf + used, len - (size_t)used, "%s\n  %s", i == 0 && n_lines > 3 ? "\n  ..." : "",
				 last[i]);
	return 0;
}

/* json_writer.c: JSON strings, numbers and estimates, shared by every JSON
 * writer. */
#include "stubbench/json_writer.h"

#include <math.h>
#include <stddef.h>

#include "stubbench/estimate.h"

/* The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * form, no surrogate, at most U+10FFFF), or 0 when it is not one. */
static size_t utf8_length(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n;
	unsigned cp, min;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sb_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		unsigned char c = *p;
		size_t n = utf8_length(p);
		if (n == 0) {
			fputs("\\ufffd", f); /* a byte that is not UTF-8: U+FFFD, the replacement character */
			p++;
			continue;
		}
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fwrite(p, 1, n, f);
		p += n;
	}
	fputc('"', f);
}

void sb_json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

void sb_json_estimate_member(FILE *f, const char *key, const char *name, const struct sb_estimate *e)
{
	fputs(", ", f);
	sb_json_string(f, key);
	if (!sb_estimate_known(e) || !isfinite(e->value)) {
		fputs(": null", f);
		return;
	}
	fputs(": {", f);
	sb_json_string(f, name);
	fputs(": ", f);
	sb_json_number(f, e->value);
	fputs(", \"ci95\": [", f);
	sb_json_number(f, e->lo);
	fputs(", ", f);
	sb_json_number(f, e->hi);
	fputs("]}", f);
}

/* run_text.c: a run's strings made safe to print (sb_run_text,
 * run_text.h). */
#include "saved/run_text.h"

#include <string.h>

/* The length of the well-formed UTF-8 character at s (1 .. 4), or 0; its
 * code point into *cp. */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
	unsigned c = s[0];
	size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
	if (!n)
		return 0;
	unsigned v = n == 1 ? c : c & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
	if (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return n;
}

void sb_run_text(char *buf, size_t len, const char *s)
{
	size_t k = 0;
	const unsigned char *u = (const unsigned char *)s;
	while (*u) {
		unsigned cp = 0;
		size_t n = utf8_char(u, &cp);
		int unsafe = !n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
			     (cp >= 0x2066 && cp <= 0x2069);
		size_t w = unsafe ? 1 : n;
		if (k + w + 1 > len)
			break;
		if (unsafe)
			buf[k++] = '?';
		else
			memcpy(buf + k, u, n), k += n;
		u += n ? n : 1;
	}
	buf[k] = 0;
}

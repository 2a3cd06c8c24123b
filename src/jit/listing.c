/* listing.c: parse objdump-style listings and compare code with them. */
#include "jit/listing.h"
#include "base/error.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_insn_mask_addresses(struct sb_insn *in)
{
	for (size_t i = 0; i < in->len; i++)
		in->cmp[i] = 1;
	const uint8_t *b = in->bytes;
	if (in->len == 10 && (b[0] & 0xf8) == 0x48 && (b[1] & 0xf8) == 0xb8)
		for (size_t i = 2; i < 10; i++)
			in->cmp[i] = 0; /* movabs reg, imm64 */
	if (in->len == 5 && (b[0] == 0xe8 || b[0] == 0xe9))
		for (size_t i = 1; i < 5; i++)
			in->cmp[i] = 0; /* call/jmp rel32 */
}

static int is_hex_byte(const char *p)
{
	return isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       (p[2] == ' ' || p[2] == '\t' || p[2] == '\0' || p[2] == '\n' || p[2] == '\r');
}

/* Parses one line into offset, bytes and text. Returns 1 for an instruction
 * line, 0 for a line to skip, -1 for a malformed line. */
static int parse_line(const char *line, size_t *off, uint8_t *bytes, size_t *nbytes,
		      char *text, size_t textlen)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n' || *p == '#')
		return 0;
	char *end;
	errno = 0;
	unsigned long o = strtoul(p, &end, 16);
	if (end == p || *end != ':' || errno)
		return -1;
	*off = o;
	p = end + 1;
	*nbytes = 0;
	for (;;) {
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		/* Bytes are separated by one space; two or more end the bytes. */
		if (*nbytes > 0 && q - p > 1)
			break;
		if (!is_hex_byte(q)) {
			p = q;
			break;
		}
		if (*nbytes == SB_INSN_MAX)
			return -1;
		bytes[(*nbytes)++] = (uint8_t)strtoul((char[3]){q[0], q[1], 0}, NULL, 16);
		p = q + 2;
	}
	if (*nbytes == 0)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	snprintf(text, textlen, "%s", p);
	size_t tl = strlen(text);
	while (tl && (text[tl - 1] == '\n' || text[tl - 1] == '\r' || text[tl - 1] == ' '))
		text[--tl] = '\0';
	return 1;
}

int sb_listing_parse_text(const char *textbuf, const char *name, struct sb_listing *out,
			  char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	size_t cap = 0, lineno = 0;
	const char *line = textbuf;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t ll = nl ? (size_t)(nl - line) : strlen(line);
		char buf[512];
		lineno++;
		if (ll >= sizeof(buf)) {
			sb_set_err(err, errlen, "%s:%zu: line too long", name, lineno);
			goto fail;
		}
		memcpy(buf, line, ll);
		buf[ll] = '\0';
		line = nl ? nl + 1 : NULL;

		size_t off, nb;
		uint8_t bytes[SB_INSN_MAX];
		char text[96];
		int r = parse_line(buf, &off, bytes, &nb, text, sizeof(text));
		if (r == 0)
			continue;
		if (r < 0) {
			/* The line as it can be shown: no control byte reaches a terminal. */
			for (char *c = buf; *c; c++)
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					*c = '?';
			sb_set_err(err, errlen, "%s:%zu: not a listing line: '%.120s'", name, lineno, buf);
			goto fail;
		}
		if (off != out->size) {
			sb_set_err(err, errlen, "%s:%zu: offset %#zx, expected %#zx after the previous instruction",
				name, lineno, off, out->size);
			goto fail;
		}
		if (text[0] == '\0' && out->n > 0) {
			/* Continuation of the previous instruction. */
			struct sb_insn *prev = &out->insns[out->n - 1];
			if (prev->len + nb > SB_INSN_MAX) {
				sb_set_err(err, errlen, "%s:%zu: instruction longer than 15 bytes", name, lineno);
				goto fail;
			}
			memcpy(prev->bytes + prev->len, bytes, nb);
			prev->len += nb;
			sb_insn_mask_addresses(prev);
			out->size += nb;
			continue;
		}
		if (text[0] == '\0') {
			sb_set_err(err, errlen, "%s:%zu: continuation line without an instruction", name, lineno);
			goto fail;
		}
		if (out->n == cap) {
			cap = cap ? cap * 2 : 32;
			struct sb_insn *ni = realloc(out->insns, cap * sizeof(*ni));
			if (!ni) {
				sb_set_err(err, errlen, "%s: out of memory", name);
				goto fail;
			}
			out->insns = ni;
		}
		struct sb_insn *in = &out->insns[out->n++];
		memset(in, 0, sizeof(*in));
		in->off = off;
		in->len = nb;
		memcpy(in->bytes, bytes, nb);
		snprintf(in->text, sizeof(in->text), "%s", text);
		sb_insn_mask_addresses(in);
		out->size += nb;
	}
	if (out->n == 0) {
		sb_set_err(err, errlen, "%s: no instructions", name);
		goto fail;
	}
	return 0;
fail:
	sb_listing_free(out);
	return -1;
}

int sb_listing_parse_file(const char *path, struct sb_listing *out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_set_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
		return -1;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, got, mem);
	int rd_err = ferror(f);
	fclose(f);
	fclose(mem);
	if (rd_err) {
		sb_set_err(err, errlen, "%s: read error", path);
		free(buf);
		return -1;
	}
	int r = sb_listing_parse_text(buf, path, out, err, errlen);
	free(buf);
	return r;
}

void sb_listing_free(struct sb_listing *l)
{
	free(l->insns);
	memset(l, 0, sizeof(*l));
}

long sb_listing_compare(const struct sb_listing *l, const uint8_t *code, size_t len,
			char *where, size_t wlen)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		for (size_t k = 0; k < in->len; k++) {
			if (in->off + k >= len) {
				sb_set_err(where, wlen, "code ends at %#zx inside '%s' at %#zx", len, in->text, in->off);
				return (long)i;
			}
			if (in->cmp[k] && code[in->off + k] != in->bytes[k]) {
				sb_set_err(where, wlen, "at %#zx '%s': byte %zu is %02x, listing has %02x",
					in->off, in->text, k, code[in->off + k], in->bytes[k]);
				return (long)i;
			}
		}
	}
	if (len != l->size) {
		sb_set_err(where, wlen, "code is %zu bytes, listing %zu", len, l->size);
		return (long)l->n;
	}
	return -1;
}

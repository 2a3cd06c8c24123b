/* image_text.c: a JIT image read back from raw bytes, a listing or
 * bpftool's opcodes text (image_text.h). Listings go through listing.c's
 * parser; bpftool's text has its bytes on a line of their own after each
 * instruction and is read here. */
#include "base/safe_file.h"
#include "jit/image_text.h"
#include "base/error.h"
#include "jit/listing.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_IMAGE (16u << 20) /* larger than any JITed program */

void sb_jit_image_free(struct sb_jit_image *img)
{
	if (!img->funcs)
		return;
	for (size_t i = 0; i < img->n; i++)
		free(img->funcs[i].bytes);
	free(img->funcs);
	img->funcs = NULL;
	img->n = 0;
}

const struct sb_jit_func *sb_jit_find(const struct sb_jit_image *img, const char *name)
{
	for (size_t i = 0; i < img->n; i++)
		if (strcmp(img->funcs[i].name, name) == 0)
			return &img->funcs[i];
	return NULL;
}

static struct sb_jit_func *add_func(struct sb_jit_image *img, const char *name)
{
	struct sb_jit_func *nf = realloc(img->funcs, (img->n + 1) * sizeof(*nf));
	if (!nf)
		return NULL;
	img->funcs = nf;
	struct sb_jit_func *f = &img->funcs[img->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	return f;
}

static int append(struct sb_jit_func *f, const uint8_t *b, size_t n)
{
	uint8_t *nb = realloc(f->bytes, f->len + n ? f->len + n : 1);
	if (!nb)
		return -1;
	memcpy(nb + f->len, b, n);
	f->bytes = nb;
	f->len += n;
	return 0;
}

/* "dir/htab_private.htab_body.lst": program htab_private, function htab_body. */
static void names_from_path(const char *path, char *prog, size_t plen, char *func, size_t flen)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char stem[128];
	snprintf(stem, sizeof(stem), "%s", base);
	char *ext = strrchr(stem, '.');
	if (ext && ext != stem)
		*ext = '\0';
	char *dot = strrchr(stem, '.');
	if (dot && dot != stem) {
		*dot = '\0';
		snprintf(prog, plen, "%.63s", stem);
		snprintf(func, flen, "%.63s", dot + 1);
	} else {
		snprintf(prog, plen, "%.63s", stem);
		snprintf(func, flen, "%.63s", stem);
	}
}

/* One line at a time: copies the next line (without '\n', '\r') into buf. */
static const char *next_line(const char *p, char *buf, size_t len, int *toolong)
{
	const char *nl = strchr(p, '\n');
	size_t ll = nl ? (size_t)(nl - p) : strlen(p);
	*toolong = ll >= len;
	if (*toolong)
		ll = len - 1;
	memcpy(buf, p, ll);
	buf[ll] = '\0';
	while (ll && buf[ll - 1] == '\r')
		buf[--ll] = '\0';
	return nl ? nl + 1 : p + strlen(p);
}

/* "   1b:\tadd ..." -> 1 with the offset; anything else 0. */
static int insn_line(const char *s, size_t *off)
{
	while (*s == ' ')
		s++;
	const char *h = s;
	while (isxdigit((unsigned char)*s))
		s++;
	if (s == h || *s != ':' || (s[1] != '\t' && s[1] != ' '))
		return 0;
	*off = strtoul(h, NULL, 16);
	return 1;
}

/* "\t0f 1f 44 00 00 " -> its bytes; -1 when the line is not that. */
static int bytes_line(const char *s, uint8_t *b, size_t cap)
{
	if (*s != '\t')
		return -1;
	size_t n = 0;
	for (s++; *s;) {
		if (*s == ' ' || *s == '\t') {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) ||
		    (s[2] && s[2] != ' ' && s[2] != '\t') || n == cap)
			return -1;
		b[n++] = (uint8_t)strtoul((char[3]){s[0], s[1], 0}, NULL, 16);
		s += 2;
	}
	return n ? (int)n : -1;
}

int sb_jit_text_is_bpftool(const char *text)
{
	char a[512], b[512];
	int tl;
	const char *p = text;
	size_t off;
	uint8_t bytes[16];
	for (p = next_line(p, a, sizeof(a), &tl); *p; p = next_line(p, a, sizeof(a), &tl)) {
		const char *q = next_line(p, b, sizeof(b), &tl);
		(void)q;
		if (insn_line(a, &off) && bytes_line(b, bytes, sizeof(bytes)) > 0)
			return 1;
	}
	return 0;
}

/* A "NAME:" line before a function: bpf_prog_<16 hex>_<func>, 0x<ksym>,
 * "unknown", or a BTF signature "int f(int a)" (skipped: contains '('). */
static int func_header(const char *s, struct sb_jit_image *img, char *err, size_t errlen)
{
	size_t l = strlen(s);
	if (strchr(s, '('))
		return 0;
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)(l - 1), s);
	uint64_t ksym = 0;
	const char *fn = name;
	if (strncmp(name, "bpf_prog_", 9) == 0 && strlen(name) > 26 && name[25] == '_')
		fn = name + 26;
	else if (strncmp(name, "0x", 2) == 0)
		ksym = strtoull(name, NULL, 16);
	char fallback[32];
	if (ksym || strcmp(name, "unknown") == 0) {
		snprintf(fallback, sizeof(fallback), "func%zu", img->n);
		fn = fallback;
	}
	struct sb_jit_func *f = add_func(img, fn);
	if (!f) {
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	f->ksym = ksym;
	return 0;
}

/* One line of bpftool text into img; cur: the function being read. */
static int bpftool_line(const char *line, struct sb_jit_image *img, const char *name, int *want_bytes,
			size_t *insn_off, char *err, size_t errlen)
{
	size_t off;
	uint8_t b[16];
	if (*want_bytes) {
		int n = bytes_line(line, b, sizeof(b));
		if (n < 0) {
			sb_set_err(err, errlen, "not the bytes of the instruction at %#zx", *insn_off);
			return -1;
		}
		*want_bytes = 0;
		return append(&img->funcs[img->n - 1], b, (size_t)n) ? -1 : 0;
	}
	if (line[0] == '\0' || line[0] == ';' || line[0] == '#')
		return 0;
	if (insn_line(line, &off)) {
		if (img->n == 0 && !add_func(img, name))
			return -1;
		if (off != img->funcs[img->n - 1].len) {
			sb_set_err(err, errlen, "offset %#zx, expected %#zx after the previous instruction", off,
				   img->funcs[img->n - 1].len);
			return -1;
		}
		*insn_off = off;
		*want_bytes = 1;
		return 0;
	}
	size_t l = strlen(line);
	if (l > 1 && line[l - 1] == ':' && !isspace((unsigned char)line[0]))
		return func_header(line, img, err, errlen);
	sb_set_err(err, errlen, "not a line of bpftool's opcodes output: '%.60s'", line);
	return -1;
}

static int parse_bpftool(const char *text, const char *name, struct sb_jit_image *img, char *err, size_t errlen)
{
	char line[512], why[200] = "";
	size_t lineno = 0, insn_off = 0;
	int want_bytes = 0, toolong;
	for (const char *p = text; *p;) {
		p = next_line(p, line, sizeof(line), &toolong);
		lineno++;
		if (toolong || bpftool_line(line, img, name, &want_bytes, &insn_off, why, sizeof(why))) {
			sb_set_err(err, errlen, "%s:%zu: %s", name, lineno, toolong ? "line too long" : why);
			return -1;
		}
	}
	if (want_bytes) {
		sb_set_err(err, errlen, "%s: the instruction at %#zx has no bytes line (dumped without 'opcodes'?)",
			   name, insn_off);
		return -1;
	}
	return 0;
}

/* A listing of one function; "# NAME: function I of BPF program PROG, N
 * bytes, JITed at 0xADDR" (--dump-jit's header) names it, else the block's
 * header (title), else the file. */
static int parse_listing(const char *text, const char *name, const char *title, struct sb_jit_image *img,
			 char *err, size_t errlen)
{
	struct sb_listing l;
	if (sb_listing_parse_text(text, name, &l, err, errlen))
		return -1;
	char prog[64], func[64];
	names_from_path(name, prog, sizeof(prog), func, sizeof(func));
	if (title)
		snprintf(func, sizeof(func), "%.63s", title);
	uint64_t ksym = 0;
	char line[512], hp[64], hf[64];
	int toolong;
	for (const char *p = text; *p;) {
		p = next_line(p, line, sizeof(line), &toolong);
		if (sscanf(line, "# %63[^:]: function %*u of BPF program %63[^,], %*u bytes, JITed at %" SCNx64,
			   hf, hp, &ksym) == 3) {
			snprintf(func, sizeof(func), "%s", hf);
			snprintf(prog, sizeof(prog), "%s", hp);
			break;
		}
		ksym = 0;
	}
	snprintf(img->prog_name, sizeof(img->prog_name), "%s", prog);
	struct sb_jit_func *f = add_func(img, func);
	int rc = f ? 0 : -1;
	for (size_t i = 0; rc == 0 && i < l.n; i++)
		rc = append(f, l.insns[i].bytes, l.insns[i].len);
	if (f)
		f->ksym = ksym;
	if (rc)
		sb_set_err(err, errlen, "%s: out of memory", name);
	sb_listing_free(&l);
	return rc;
}

/* A block header of a listing with several functions, as in the seeds'
 * mails ("subprog:", "main prog:"): a line ending in ':' that is not an
 * instruction or a comment. */
static int block_header(const char *line, char *title, size_t tlen)
{
	size_t off, l = strlen(line);
	while (l && (line[l - 1] == ' ' || line[l - 1] == '\t'))
		l--;
	if (l < 2 || line[l - 1] != ':' || line[strspn(line, " \t")] == '#' || insn_line(line, &off))
		return 0;
	snprintf(title, tlen, "%.*s", (int)(l - 1 < 63 ? l - 1 : 63), line);
	return 1;
}

/* 1 when lines [from, to) of text hold anything but blanks and comments. */
static int block_has_code(const char *text, size_t from, size_t to)
{
	char line[512];
	int toolong;
	size_t n = 0;
	for (const char *p = text; *p && n < to; n++) {
		p = next_line(p, line, sizeof(line), &toolong);
		const char *q = line + strspn(line, " \t");
		if (n >= from && *q && *q != '#')
			return 1;
	}
	return 0;
}

/* text with every line outside [from, to) blanked, so that the listing
 * parser's line numbers stay the file's. */
static char *block_text(const char *text, size_t from, size_t to)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	size_t n = 0;
	for (const char *p = text; out && *p; n++) {
		const char *nl = strchr(p, '\n');
		size_t ll = nl ? (size_t)(nl - p) : strlen(p);
		if (n >= from && n < to) {
			memcpy(o, p, ll);
			o += ll;
		}
		if (nl)
			*o++ = '\n';
		p = nl ? nl + 1 : p + ll;
	}
	if (out)
		*o = '\0';
	return out;
}

/* A listing, split into functions at block headers (none: one function). */
static int parse_listing_blocks(const char *text, const char *name, struct sb_jit_image *img,
				char *err, size_t errlen)
{
	char line[512], title[64] = "", next[64];
	int toolong, have_title = 0;
	size_t n = 0, from = 0;
	for (const char *p = text;; n++) {
		int end = !*p;
		if (!end)
			p = next_line(p, line, sizeof(line), &toolong);
		if (!end && !block_header(line, next, sizeof(next)))
			continue;
		if (end && !have_title && from == 0)
			return parse_listing(text, name, NULL, img, err, errlen);
		if (block_has_code(text, from, n)) {
			char *b = block_text(text, from, n);
			int rc = b ? parse_listing(b, name, have_title ? title : NULL, img, err, errlen) : -1;
			free(b);
			if (rc)
				return -1;
		}
		if (end)
			break;
		snprintf(title, sizeof(title), "%s", next);
		have_title = 1;
		from = n + 1;
	}
	if (img->n == 0) {
		sb_set_err(err, errlen, "%s: no instructions", name);
		return -1;
	}
	return 0;
}

int sb_jit_image_parse_text(const char *text, const char *name, struct sb_jit_image *img,
			    char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	int rc;
	if (sb_jit_text_is_bpftool(text)) {
		char func[64];
		names_from_path(name, img->prog_name, sizeof(img->prog_name), func, sizeof(func));
		rc = parse_bpftool(text, name, img, err, errlen);
		for (size_t i = 0; rc == 0 && i < img->n; i++) {
			if (img->funcs[i].len == 0) {
				sb_set_err(err, errlen, "%s: function %s has no instructions", name, img->funcs[i].name);
				rc = -1;
			}
		}
		if (rc == 0 && img->n == 0) {
			sb_set_err(err, errlen, "%s: no instructions", name);
			rc = -1;
		}
	} else
		rc = parse_listing_blocks(text, name, img, err, errlen);
	if (rc)
		sb_jit_image_free(img);
	return rc;
}

/* Text: well-formed UTF-8 (a comment may be in any language) without a NUL
 * or a control byte other than tab, newline, carriage return. */
static int is_text(const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n;) {
		uint8_t c = b[i];
		if (c < 0x80) {
			if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7f)
				return 0;
			i++;
			continue;
		}
		size_t k = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0;
		if (!k || i + k >= n)
			return 0;
		for (size_t j = 1; j <= k; j++)
			if ((b[i + j] & 0xc0) != 0x80)
				return 0;
		i += k + 1;
	}
	return 1;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static uint8_t *slurp(const char *path, size_t *len, char *err, size_t errlen)
{
	/* A FIFO or device is refused, never waited on. */
	char why[256];
	int fd = sb_safe_file_open_input(path, why, sizeof(why));
	if (fd < 0) {
		sb_set_err(err, errlen, "%s: %s", path, why);
		return NULL;
	}
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		sb_set_err(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	uint8_t *buf = malloc(MAX_IMAGE + 1);
	size_t n = buf ? fread(buf, 1, MAX_IMAGE + 1, f) : 0;
	int bad = !buf || ferror(f);
	fclose(f);
	if (bad || n > MAX_IMAGE || n == 0) {
		sb_set_err(err, errlen, "%s: %s", path, !buf ? "out of memory" : bad ? "read error"
						 : n ? "larger than 16 MiB" : "empty file");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int sb_jit_image_read_file(const char *path, struct sb_jit_image *img, char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	size_t n;
	uint8_t *buf = slurp(path, &n, err, errlen);
	if (!buf)
		return -1;
	int rc = 0;
	/* A .bin is an image's bytes; a .lst or .txt is text, whatever it
	 * holds (a line that is no listing's is an error, never code); any
	 * other name is text when it reads as text. */
	int text = ends_with(path, ".lst") || ends_with(path, ".txt");
	if (text && memchr(buf, 0, n)) {
		sb_set_err(err, errlen, "%s: a NUL byte at %zu: not a listing (a .bin holds an image's bytes)", path,
			   (size_t)((uint8_t *)memchr(buf, 0, n) - buf));
		free(buf);
		return -1;
	}
	if (!text && (ends_with(path, ".bin") || !is_text(buf, n))) {
		char func[64];
		names_from_path(path, img->prog_name, sizeof(img->prog_name), func, sizeof(func));
		struct sb_jit_func *f = add_func(img, func);
		rc = f ? append(f, buf, n) : -1;
		if (rc) {
			sb_set_err(err, errlen, "%s: out of memory", path);
			sb_jit_image_free(img);
		}
	} else
		rc = sb_jit_image_parse_text((const char *)buf, path, img, err, errlen);
	free(buf);
	return rc;
}

/* diff_globals.c: --global's values for diff's twins; see diff_globals.h. */
#include "twins/diff_globals.h"
#include "base/error.h"
#include "base/read_file.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s as a whole number into *v: decimal digits, or 0x and hex digits.
 * A leading zero before more digits (010, which C reads as octal) is
 * refused, never read as another number than the one written. 0, or -1. */
static int number(const char *s, uint64_t *v)
{
	char *end;
	int hex = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'));
	const char *digits = hex ? s + 2 : s;
	if (!*digits || (!hex && s[0] == '0' && s[1]))
		return -1;
	for (const char *c = digits; *c; c++)
		if (!(hex ? isxdigit((unsigned char)*c) : isdigit((unsigned char)*c)))
			return -1;
	errno = 0;
	*v = strtoull(digits, &end, hex ? 16 : 10);
	return errno || *end ? -1 : 0;
}

static int is_name(const char *s, size_t len)
{
	if (len == 0 || len > 63 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return 0;
	for (size_t i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
			return 0;
	return 1;
}

int sb_diff_global_parse(const char *arg, struct sb_diff_global_arg *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const char *eq = strrchr(arg, '=');
	if (!eq || eq == arg) {
		sb_set_err(err, errlen, "--global=%.80s: not NAME=VALUE or 0xKADDR[+OFF]=VALUE", arg);
		return -1;
	}
	if (number(eq + 1, &out->value)) {
		sb_set_err(err, errlen, "--global=%.80s: VALUE is not a whole number (decimal without a leading 0, "
					"or 0x and hex digits)", arg);
		return -1;
	}
	char lhs[128];
	snprintf(lhs, sizeof(lhs), "%.*s", (int)(eq - arg < 127 ? eq - arg : 127), arg);
	if (strncmp(lhs, "0x", 2) == 0 || strncmp(lhs, "0X", 2) == 0) {
		char *plus = strchr(lhs, '+');
		uint64_t off = 0;
		if (plus)
			*plus = '\0';
		if (number(lhs, &out->kaddr) || (plus && number(plus + 1, &off)) || out->kaddr + off < out->kaddr) {
			sb_set_err(err, errlen, "--global=%.80s: not a kernel address 0xKADDR[+OFF]", arg);
			return -1;
		}
		out->kaddr += off;
		return 0;
	}
	if (!is_name(lhs, strlen(lhs))) {
		sb_set_err(err, errlen, "--global=%.80s: '%.63s' is not a global's name", arg, lhs);
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", lhs);
	return 0;
}

/* The "# global" lines of one file's text into out. */
static void globals_of(const char *text, struct sb_image_globals *out)
{
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		struct sb_image_global g = {0};
		if (sscanf(p, "# global %63s at %" SCNx64 ", %u bytes", g.name, &g.kaddr, &g.size) != 3 || !g.size ||
		    g.size > 8)
			continue;
		size_t k = 0;
		while (k < out->n && strcmp(out->g[k].name, g.name) != 0)
			k++;
		if (k == out->n && out->n < sizeof(out->g) / sizeof(out->g[0]))
			out->g[out->n++] = g;
	}
}

int sb_image_globals_read(const char *files, struct sb_image_globals *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	char path[4096];
	for (const char *p = files; *p;) {
		size_t len = strcspn(p, ",");
		if (len >= sizeof(path)) { /* never cut to another file's name */
			sb_set_err(err, errlen, "'%.60s...': a path longer than %zu characters", p, sizeof(path) - 1);
			return -1;
		}
		snprintf(path, sizeof(path), "%.*s", (int)len, p);
		p += len + (p[len] == ',');
		size_t n;
		char sub[512];
		char *text = sb_read_file(path, 64u << 20, &n, sub, sizeof(sub));
		if (!text) {
			sb_set_err(err, errlen, "%s", sub);
			return -1;
		}
		globals_of(text, out);
		free(text);
	}
	return 0;
}

const struct sb_image_global *sb_image_global_at(const struct sb_image_globals *g, uint64_t kaddr)
{
	for (size_t k = 0; k < g->n; k++)
		if (kaddr >= g->g[k].kaddr && kaddr < g->g[k].kaddr + g->g[k].size)
			return &g->g[k];
	return NULL;
}

int sb_diff_globals_resolve(const struct sb_diff_global_arg *args, const char *const *given, size_t n,
			    const struct sb_image_globals *g, const char *side, struct sb_diff_set *sets,
			    char *err, size_t errlen)
{
	/* One global given twice, by name or by address, with two values or one. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (args[i].name[0] ? strcmp(args[i].name, args[k].name) == 0
					    : !args[k].name[0] && args[i].kaddr == args[k].kaddr) {
				sb_set_err(err, errlen, "--global=%.80s: %s given twice (also --global=%.80s)", given[i],
					   args[i].name[0] ? args[i].name : "that address", given[k]);
				return -1;
			}
	for (size_t i = 0; i < n; i++) {
		const struct sb_diff_global_arg *a = &args[i];
		sets[i] = (struct sb_diff_set){.kaddr = a->kaddr, .value = a->value,
					       .size = a->value > UINT32_MAX ? 8 : 4, .what = given[i]};
		if (!a->name[0])
			continue;
		size_t k = 0;
		while (k < g->n && strcmp(g->g[k].name, a->name) != 0)
			k++;
		if (k == g->n) {
			sb_set_err(err, errlen, "--global=%.80s: %s's files name no global %s (%s)", given[i], side,
				   a->name, g->n ? "see their '# global' lines" :
				   "no '# global' lines: kernel --obj --dump-jit's; or 0xKADDR=VALUE");
			return -1;
		}
		sets[i].named = 1;
		sets[i].kaddr = g->g[k].kaddr;
		sets[i].size = g->g[k].size;
		if (g->g[k].size < 8 && a->value >> (8 * g->g[k].size)) {
			sb_set_err(err, errlen, "--global=%.80s: %s holds %u bytes", given[i], a->name, g->g[k].size);
			return -1;
		}
	}
	/* A name and an address (or two) that set the same bytes of a side. */
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < i; k++)
			if (sets[i].kaddr < sets[k].kaddr + sets[k].size && sets[k].kaddr < sets[i].kaddr + sets[i].size) {
				sb_set_err(err, errlen, "--global=%.80s: sets %s's bytes that --global=%.80s sets", given[i],
					   side, given[k]);
				return -1;
			}
	return 0;
}

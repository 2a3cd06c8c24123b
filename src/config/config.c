/* config.c: sweep files with libinih; see config.h.
 *
 * The file is read whole first, so that a line too long for libinih's
 * line buffer (which would split it: the rest of a comment becoming a
 * setting) is an error naming its line, a directory or an unreadable file
 * is an error, and libinih then reads the lines through a reader of ours
 * that knows which line it is on. */
#include "stubbench/config.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/parse.h"
#include "base/read_file.h"
#include "stubbench/registry.h"

_Static_assert(SB_CONFIG_MAX_LINE + 3 <= INI_MAX_LINE, "a line, CR, LF and NUL fit libinih's buffer");

/* Values of `variants =` outlive the load (a config struct is copied
 * around): kept here for the life of the program. */
static struct kept_string {
	struct kept_string *next;
	char s[];
} *kept_strings;

static const char *keep_string(const char *s)
{
	size_t n = strlen(s) + 1;
	struct kept_string *k = malloc(sizeof(*k) + n);
	if (!k)
		return NULL;
	memcpy(k->s, s, n);
	k->next = kept_strings;
	kept_strings = k;
	return k->s;
}

void sb_config_defaults(struct sb_config *c)
{
	static const uint64_t batches[] = {1, 8, 64, 512, 2048, 4096};
	memset(c, 0, sizeof(*c));
	c->measure.variants = "all";
	memcpy(c->measure.batches, batches, sizeof(batches));
	c->measure.n_batches = sizeof(batches) / sizeof(batches[0]);
	c->measure.time_s = 8;
	c->measure.samples = 0;
	c->measure.seed = 1;
	c->measure.processes = SB_DEFAULT_PROCESSES;
	c->measure.cpu = -1;
	c->measure.states = SB_MAX_STATES;
	c->measure.shape = "all";
	c->measure.flavour = "host,seed001";
	c->kernel.loads = SB_DEFAULT_LOADS;
}

#define MAX_KEYS 64

struct load_ctx {
	struct sb_config *c;
	const char *path;
	char *err;
	size_t errlen;
	int failed, failed_line;
	char msg[512];
	/* the reader: the file's text, where it is, which line it gave last */
	const char *text, *pos;
	int line;
	/* keys seen, "section\0name", and their lines */
	char keys[MAX_KEYS][96];
	int key_line[MAX_KEYS];
	size_t n_keys;
};

/* libinih's fgets-like reader over the text; lines were checked to fit. */
static char *read_line(char *str, int num, void *stream)
{
	struct load_ctx *x = stream;
	if (!*x->pos)
		return NULL;
	size_t len = strcspn(x->pos, "\n");
	if (x->pos[len] == '\n')
		len++;
	if (len + 1 > (size_t)num) /* cannot happen after the length check */
		len = (size_t)num - 1;
	memcpy(str, x->pos, len);
	str[len] = '\0';
	x->pos += len;
	x->line++;
	return str;
}

/* Each key once per file: a second one would silently win. */
static int check_duplicate(struct load_ctx *x, const char *opt, const char *section, const char *name,
			   char *sub, size_t sublen)
{
	char key[96];
	snprintf(key, sizeof(key), "%s]%s", section, name);
	for (size_t i = 0; i < x->n_keys; i++)
		if (strcmp(x->keys[i], key) == 0) {
			snprintf(sub, sublen, "%s: given again (first on line %d; a line that starts with a "
				 "space continues the value above)", opt, x->key_line[i]);
			return -1;
		}
	if (x->n_keys < MAX_KEYS) {
		snprintf(x->keys[x->n_keys], sizeof(x->keys[0]), "%s", key);
		x->key_line[x->n_keys++] = x->line;
	}
	return 0;
}

/* `variants =`: "all" or names the registry knows, checked here so that a
 * bad name is reported with the file and the line. */
static int parse_variants(const char *opt, const char *value, const char **out, char *sub, size_t sublen)
{
	if (!*value) {
		snprintf(sub, sublen, "%s: empty", opt);
		return -1;
	}
	char *buf, **items;
	int n = sb_parse_names(opt, value, &buf, &items, sub, sublen);
	if (n < 0)
		return -1;
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		if (strcmp(items[i], "all") != 0 && !sb_variant_find(items[i])) {
			snprintf(sub, sublen, "%s: unknown variant '%s' (see stubbench --list)", opt, items[i]);
			rc = -1;
		}
	free(buf);
	free(items);
	if (rc == 0 && !(*out = keep_string(value))) {
		snprintf(sub, sublen, "%s: out of memory", opt);
		rc = -1;
	}
	return rc;
}

int sb_config_parse_flavour(const char *opt, const char *value, int *seed, int *host, char *err, size_t errlen)
{
	char buf[64];
	*seed = *host = 0;
	/* Never cut: a name past the buffer would go unread. */
	if (strlen(value) >= sizeof(buf)) {
		snprintf(err, errlen, "%s: '%.40s...' is longer than %zu characters (seed001, host)", opt, value,
			 sizeof(buf) - 1);
		return -1;
	}
	snprintf(buf, sizeof(buf), "%s", value);
	for (char *save = NULL, *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
		if (strcmp(t, "seed001") == 0)
			*seed = 1;
		else if (strcmp(t, "host") == 0)
			*host = 1;
		else {
			snprintf(err, errlen, "%s: unknown flavour '%s' (seed001, host)", opt, t);
			return -1;
		}
	}
	if (!*seed && !*host) {
		snprintf(err, errlen, "%s: empty list", opt);
		return -1;
	}
	return 0;
}

/* The line of a key seen before ("section]name"), or 0. */
static int seen_on(const struct load_ctx *x, const char *key)
{
	for (size_t i = 0; i < x->n_keys; i++)
		if (strcmp(x->keys[i], key) == 0)
			return x->key_line[i];
	return 0;
}

/* [sweep] time and samples each bound the run (seconds, or rounds per
 * batch size): a file may give one of them. */
static int check_conflict(const struct load_ctx *x, const char *opt, const char *section, const char *name,
			  char *sub, size_t sublen)
{
	const char *other = NULL;
	if (strcmp(section, "sweep") == 0 && strcmp(name, "time") == 0)
		other = "samples";
	else if (strcmp(section, "sweep") == 0 && strcmp(name, "samples") == 0)
		other = "time";
	char key[96];
	snprintf(key, sizeof(key), "sweep]%s", other ? other : "");
	int line = other ? seen_on(x, key) : 0;
	if (!line)
		return 0;
	snprintf(sub, sublen, "%s: conflicts with [sweep] %s on line %d (a run is bounded by time or by "
		 "samples, not both)", opt, other, line);
	return -1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *x = user;
	char opt[128], sub[512];
	snprintf(opt, sizeof(opt), "[%s] %s", section, name);
	int rc = check_conflict(x, opt, section, name, sub, sizeof(sub));
	if (rc == 0)
		rc = check_duplicate(x, opt, section, name, sub, sizeof(sub));
	if (rc == 0 && strcmp(section, "sweep") == 0) {
		if (strcmp(name, "variants") == 0) {
			rc = parse_variants(opt, value, &x->c->measure.variants, sub, sizeof(sub));
		} else if (strcmp(name, "batches") == 0) {
			rc = sb_parse_batches(opt, value, x->c->measure.batches, &x->c->measure.n_batches, sub, sizeof(sub));
		} else if (strcmp(name, "time") == 0) {
			rc = sb_parse_seconds(opt, value, &x->c->measure.time_s, sub, sizeof(sub));
		} else if (strcmp(name, "samples") == 0) {
			rc = sb_parse_samples(opt, value, 0, &x->c->measure.samples, sub, sizeof(sub));
		} else if (strcmp(name, "seed") == 0) {
			rc = sb_parse_u64(opt, value, 0, &x->c->measure.seed, sub, sizeof(sub));
		} else if (strcmp(name, "processes") == 0) {
			rc = sb_parse_u64_range(opt, value, 1, SB_MAX_PROCESSES, &x->c->measure.processes, sub, sizeof(sub));
		} else if (strcmp(name, "cpu") == 0) {
			rc = sb_parse_cpu(opt, value, &x->c->measure.cpu, sub, sizeof(sub));
		} else if (strcmp(name, "flavour") == 0) {
			int seed, host;
			rc = sb_config_parse_flavour(opt, value, &seed, &host, sub, sizeof(sub));
			if (rc == 0 && !(x->c->measure.flavour = keep_string(value))) {
				snprintf(sub, sizeof(sub), "%s: out of memory", opt);
				rc = -1;
			}
		} else {
			snprintf(sub, sizeof(sub), "unknown key '%s' in [sweep]", name);
			rc = -1;
		}
	} else if (rc == 0 && strcmp(section, "output") == 0) {
		if (strcmp(name, "format") == 0) {
			/* A name, which the output's formats check (config.h). */
			if (!*value) {
				snprintf(sub, sizeof(sub), "%s: empty", opt);
				rc = -1;
			} else if (!(x->c->out.format = keep_string(value))) {
				snprintf(sub, sizeof(sub), "%s: out of memory", opt);
				rc = -1;
			}
		} else {
			snprintf(sub, sizeof(sub), "unknown key '%s' in [output]", name);
			rc = -1;
		}
	} else if (rc == 0) {
		snprintf(sub, sizeof(sub), "unknown section [%s]", section);
		rc = -1;
	}
	if (rc != 0 && !x->failed) {
		x->failed = 1;
		x->failed_line = x->line;
		snprintf(x->msg, sizeof(x->msg), "%s", sub);
	}
	return rc == 0; /* 0 makes ini_parse_file return this line's number */
}

/* The whole file as a string; NULL with a reason in err. */
static char *read_config(const char *path, char *err, size_t errlen)
{
	char why[256];
	size_t len;
	char *text = sb_read_file(path, SB_CONFIG_MAX_BYTES, &len, why, sizeof(why));
	if (!text) {
		snprintf(err, errlen, "%s: cannot read config: %s", path, why);
		return NULL;
	}
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: cannot read config: it holds a NUL byte (not a text file)", path);
		free(text);
		return NULL;
	}
	return text;
}

int sb_config_load(const char *path, struct sb_config *c, char *err, size_t errlen)
{
	char *text = read_config(path, err, errlen);
	if (!text)
		return -1;
	/* Lines libinih would split are refused, never cut. */
	int line = 1;
	for (const char *p = text; *p; line++) {
		size_t len = strcspn(p, "\n");
		size_t chars = len && p[len - 1] == '\r' ? len - 1 : len;
		if (chars > SB_CONFIG_MAX_LINE) {
			snprintf(err, errlen, "%s:%d: line of %zu characters, more than the %d a config line may have",
				 path, line, chars, SB_CONFIG_MAX_LINE);
			free(text);
			return -1;
		}
		p += len + (p[len] == '\n');
	}
	struct load_ctx *x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "%s: out of memory", path);
		free(text);
		return -1;
	}
	*x = (struct load_ctx){.c = c, .path = path, .err = err, .errlen = errlen, .text = text, .pos = text};
	int r = ini_parse_stream(read_line, x, handler, x);
	int rc = 0;
	/* The first error: a syntax error (r, its line) or a bad key or value. */
	if (r > 0 && (!x->failed || r < x->failed_line)) {
		snprintf(err, errlen, "%s:%d: not valid INI syntax", path, r);
		rc = -1;
	} else if (x->failed) {
		snprintf(err, errlen, "%s:%d: %s", path, x->failed_line, x->msg);
		rc = -1;
	} else if (r != 0) {
		snprintf(err, errlen, "%s: cannot read config (libinih status %d)", path, r);
		rc = -1;
	}
	free(x);
	free(text);
	return rc;
}

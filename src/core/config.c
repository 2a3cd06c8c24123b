/* config.c: sweep files with libinih; see config.h. */
#include "stubbench/config.h"

#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <string.h>

void sb_config_defaults(struct sb_config *c)
{
	static const uint64_t batches[] = {1, 8, 64, 512, 2048, 4096};
	memset(c, 0, sizeof(*c));
	snprintf(c->variants, sizeof(c->variants), "all");
	memcpy(c->batches, batches, sizeof(batches));
	c->n_batches = sizeof(batches) / sizeof(batches[0]);
	c->time_s = 8;
	c->samples = 0;
	c->seed = 1;
	c->cpu = -1;
	c->format = SB_FORMAT_TABLE;
}

struct load_ctx {
	struct sb_config *c;
	const char *path;
	char *err;
	size_t errlen;
	int failed;
	char msg[512];
};

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct load_ctx *x = user;
	char opt[128], sub[512];
	snprintf(opt, sizeof(opt), "[%s] %s", section, name);
	int rc = 0;
	if (strcmp(section, "sweep") == 0) {
		if (strcmp(name, "variants") == 0) {
			if (strlen(value) >= sizeof(x->c->variants) || !*value) {
				snprintf(sub, sizeof(sub), "%s: empty or too long", opt);
				rc = -1;
			} else {
				snprintf(x->c->variants, sizeof(x->c->variants), "%s", value);
			}
		} else if (strcmp(name, "batches") == 0) {
			rc = sb_parse_batches(opt, value, x->c->batches, &x->c->n_batches, sub, sizeof(sub));
		} else if (strcmp(name, "time") == 0) {
			rc = sb_parse_seconds(opt, value, &x->c->time_s, sub, sizeof(sub));
		} else if (strcmp(name, "samples") == 0) {
			rc = sb_parse_samples(opt, value, 0, &x->c->samples, sub, sizeof(sub));
		} else if (strcmp(name, "seed") == 0) {
			rc = sb_parse_u64(opt, value, 0, &x->c->seed, sub, sizeof(sub));
		} else if (strcmp(name, "cpu") == 0) {
			rc = sb_parse_cpu(opt, value, &x->c->cpu, sub, sizeof(sub));
		} else {
			snprintf(sub, sizeof(sub), "unknown key '%s' in [sweep]", name);
			rc = -1;
		}
	} else if (strcmp(section, "output") == 0) {
		if (strcmp(name, "format") == 0) {
			if (sb_format_parse(value, &x->c->format) != 0) {
				snprintf(sub, sizeof(sub), "%s: unknown format '%s' (table, seed, json, csv, gbench)",
					 opt, value);
				rc = -1;
			}
		} else {
			snprintf(sub, sizeof(sub), "unknown key '%s' in [output]", name);
			rc = -1;
		}
	} else {
		snprintf(sub, sizeof(sub), "unknown section [%s]", section);
		rc = -1;
	}
	if (rc != 0 && !x->failed) {
		x->failed = 1;
		snprintf(x->msg, sizeof(x->msg), "%s", sub);
	}
	return rc == 0; /* 0 makes ini_parse_file return this line's number */
}

int sb_config_load(const char *path, struct sb_config *c, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: cannot read config: %s", path, strerror(errno));
		return -1;
	}
	struct load_ctx x = {.c = c, .path = path, .err = err, .errlen = errlen};
	int r = ini_parse_file(f, handler, &x);
	fclose(f);
	if (x.failed) {
		snprintf(err, errlen, "%s:%d: %s", path, r, x.msg);
		return -1;
	}
	if (r != 0) {
		snprintf(err, errlen, "%s:%d: not valid INI syntax", path, r);
		return -1;
	}
	return 0;
}

/* block_table.c: kept blocks in memory; see block_table.h. */
#include "stats/block_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/safe_file.h"
#include "stubbench/sibling_names.h"

long sb_block_table_arm(const struct sb_block_table *t, const char *name)
{
	for (size_t i = 0; i < t->n_arms; i++)
		if (strcmp(t->arms[i], name) == 0)
			return (long)i;
	return -1;
}

static long arm_index(struct sb_block_table *t, const char *name)
{
	long a = sb_block_table_arm(t, name);
	if (a >= 0)
		return a;
	char **arms = realloc(t->arms, (t->n_arms + 1) * sizeof(*arms));
	if (!arms)
		return -1;
	t->arms = arms;
	if (!(arms[t->n_arms] = strdup(name)))
		return -1;
	return (long)t->n_arms++;
}

int sb_block_table_add(struct sb_block_table *t, uint64_t batch, size_t part, size_t process, size_t block,
		       size_t state, const char *arm, double value)
{
	long a = arm_index(t, arm);
	if (a < 0)
		return -1;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 1024;
		struct sb_block_value *rows = realloc(t->rows, cap * sizeof(*rows));
		if (!rows)
			return -1;
		t->rows = rows;
		t->cap = cap;
	}
	t->rows[t->n++] = (struct sb_block_value){batch, part, process, block, state, (size_t)a, value, 0, 0, 0};
	return 0;
}

void sb_block_table_mark(struct sb_block_table *t, double canary, int baseline)
{
	if (t->n) {
		t->rows[t->n - 1].canary = canary;
		t->rows[t->n - 1].baseline = baseline;
	}
}

/* The arm field at s (quoted as the log quotes it) into out; the rest after
 * its comma. NULL when it does not end in a comma. */
static const char *arm_field(const char *s, char *out, size_t outlen)
{
	size_t k = 0;
	if (*s != '"') {
		const char *c = strchr(s, ',');
		if (!c || (size_t)(c - s) >= outlen)
			return NULL;
		memcpy(out, s, (size_t)(c - s));
		out[c - s] = 0;
		return c + 1;
	}
	for (s++; *s && k + 1 < outlen; s++) {
		if (*s == '"' && s[1] != '"')
			break;
		if (*s == '"')
			s++;
		out[k++] = *s;
	}
	out[k] = 0;
	return *s == '"' && s[1] == ',' ? s + 2 : NULL;
}

/* One row: t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter[,sibling]
 * (the sibling column since it was added; without it, unrecorded). */
static int parse_row(const char *line, struct sb_block_table *t)
{
	double ts, clock, canary, window, value;
	unsigned long long part, batch, process, block, state;
	int n = 0;
	if (sscanf(line, "%lf,%llu,%llu,%llu,%llu,%llu,%lf,%lf,%lf,%n", &ts, &part, &batch, &process, &block, &state,
		   &clock, &canary, &window, &n) != 9 || n == 0)
		return -1;
	char arm[256], role[32];
	const char *rest = arm_field(line + n, arm, sizeof(arm));
	char sib[16] = "";
	int m = 0;
	if (!rest || sscanf(rest, "%31[a-z],%lf%n", role, &value, &m) != 2)
		return -1;
	rest += m;
	if (*rest == ',' && sscanf(rest + 1, "%15[a-z]", sib) != 1)
		sib[0] = 0;
	int sibling = *rest == ',' ? sb_sibling_state_from_name(sib) : SB_SIBLING_UNRECORDED;
	if (sibling <= SB_SIBLING_UNRECORDED && *rest == ',')
		return -1;
	if (!isfinite(ts) || !isfinite(clock) || !isfinite(canary) || !isfinite(window) || !isfinite(value))
		return -3;
	if (sb_block_table_add(t, batch, part, process, block, state, arm, value) != 0)
		return -2;
	sb_block_table_mark(t, canary, strcmp(role, "baseline") == 0);
	t->rows[t->n - 1].sibling = sibling;
	return 0;
}

int sb_block_table_read(const char *path, struct sb_block_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	int std = strcmp(path, "-") == 0;
	/* A FIFO or device named as the file is refused, never waited on
	 * ("-", standard input, is read as it comes). */
	char why[256];
	int fd = std ? -1 : sb_safe_file_open_input(path, why, sizeof(why));
	if (!std && fd < 0)
		return sb_set_err(err, errlen, "%s: %s", path, why), -1;
	FILE *f = std ? stdin : fdopen(fd, "r");
	if (!f) {
		if (fd >= 0)
			close(fd);
		return sb_set_err(err, errlen, "%s: %s", path, strerror(errno)), -1;
	}
	char line[1024];
	size_t lineno = 0;
	int rc = 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		if (lineno == 1 && strncmp(line, "t_s,part,batch,", 15) == 0)
			continue;
		int r = parse_row(line, t);
		if (r == -2)
			rc = -1, sb_set_err(err, errlen, "%s: out of memory", path);
		else if (r == -3)
			rc = -1, sb_set_err(err, errlen, "%s:%zu: a figure that is not a finite number (inf or nan)",
					    path, lineno);
		else if (r)
			rc = -1, sb_set_err(err, errlen, "%s:%zu: not a row of a --blocks log", path, lineno);
	}
	if (rc == 0 && ferror(f))
		rc = -1, sb_set_err(err, errlen, "%s: %s", path, strerror(errno));
	if (rc == 0 && t->n == 0)
		rc = -1, sb_set_err(err, errlen, "%s: no blocks", path);
	if (!std)
		fclose(f);
	if (rc)
		sb_block_table_free(t);
	return rc;
}

void sb_block_table_free(struct sb_block_table *t)
{
	for (size_t i = 0; i < t->n_arms; i++)
		free(t->arms[i]);
	free(t->arms);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

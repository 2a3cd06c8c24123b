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
#include "stubbench/config.h"
#include "base/error.h"
#include "stubbench/parse.h"
#include "base/safe_file.h"
#include "stubbench/sibling_names.h"

/* FNV-1a of an arm's name: its first slot in t->arm_slots. */
static size_t name_hash(const char *name)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (; *name; name++)
		h = (h ^ (unsigned char)*name) * UINT64_C(1099511628211);
	return (size_t)h;
}

long sb_block_table_arm(const struct sb_block_table *t, const char *name)
{
	if (!t->n_slots)
		return -1;
	for (size_t s = name_hash(name) & (t->n_slots - 1);; s = (s + 1) & (t->n_slots - 1)) {
		size_t a = t->arm_slots[s];
		if (!a)
			return -1;
		if (strcmp(t->arms[a - 1], name) == 0)
			return (long)(a - 1);
	}
}

/* The slots made again for n arms' worth (a power of two, at least 2n). */
static int rehash(struct sb_block_table *t, size_t n)
{
	size_t n_slots = 16;
	while (n_slots < 2 * n)
		n_slots *= 2;
	size_t *slots = calloc(n_slots, sizeof(*slots));
	if (!slots)
		return -1;
	for (size_t a = 0; a < t->n_arms; a++) {
		size_t s = name_hash(t->arms[a]) & (n_slots - 1);
		while (slots[s])
			s = (s + 1) & (n_slots - 1);
		slots[s] = a + 1;
	}
	free(t->arm_slots);
	t->arm_slots = slots;
	t->n_slots = n_slots;
	return 0;
}

static long arm_index(struct sb_block_table *t, const char *name)
{
	long a = sb_block_table_arm(t, name);
	if (a >= 0)
		return a;
	if (2 * (t->n_arms + 1) > t->n_slots && rehash(t, t->n_arms + 1) != 0)
		return -1;
	char **arms = realloc(t->arms, (t->n_arms + 1) * sizeof(*arms));
	if (!arms)
		return -1;
	t->arms = arms;
	if (!(arms[t->n_arms] = strdup(name)))
		return -1;
	size_t s = name_hash(name) & (t->n_slots - 1);
	while (t->arm_slots[s])
		s = (s + 1) & (t->n_slots - 1);
	t->arm_slots[s] = t->n_arms + 1;
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

/* s is printable text: well-formed UTF-8 without control characters (C0,
 * DEL, C1), so that an arm's name printed reaches a terminal as text. */
static int printable_text(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	while (*u) {
		unsigned c = *u;
		size_t k = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 4;
		if (k == 4 || (k == 0 && (c < 0x20 || c == 0x7f)) || (c == 0xc2 && u[1] >= 0x80 && u[1] <= 0x9f))
			return 0;
		for (size_t j = 1; j <= k; j++)
			if ((u[j] & 0xc0) != 0x80)
				return 0;
		u += k + 1;
	}
	return 1;
}

/* What a reader keeps between rows for the checks across them. */
struct read_state {
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	size_t block_rows; /* rows of the current block so far (adjacent rows of one block) */
};

#define STR_(x) #x
#define STR(x) STR_(x)

/* A block's rows are adjacent: one per arm of its part (harness.c writes them so). */
#define MAX_BLOCK_ROWS 64

/* One row: t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter[,sibling]
 * (the sibling column since it was added; without it, unrecorded). 0, or
 * -1 with *why saying what is wrong (NULL: not a row at all), -2 out of memory. */
static int parse_row(const char *line, struct sb_block_table *t, struct read_state *rs, const char **why)
{
	double ts, clock, canary, window, value;
	unsigned long long part, batch, process, block, state;
	int n = 0;
	*why = NULL;
	if (sscanf(line, "%lf,%llu,%llu,%llu,%llu,%llu,%lf,%lf,%lf,%n", &ts, &part, &batch, &process, &block, &state,
		   &clock, &canary, &window, &n) != 9 || n == 0)
		return -1;
	/* %llu takes "-1" as ULLONG_MAX: a sign in an index field is refused. */
	int field = 0;
	for (const char *c = line; c < line + n; c++) {
		field += *c == ',';
		if (field >= 1 && field <= 5 && (*c == '-' || *c == '+'))
			return *why = "a signed index", -1;
	}
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
		return *why = "a figure that is not a finite number (inf or nan)", -1;
	if (strcmp(role, "overhead") && strcmp(role, "baseline") && strcmp(role, "variant"))
		return *why = "a role that is none of overhead, baseline, variant", -1;
	if (!arm[0])
		return *why = "an empty arm name", -1;
	if (!printable_text(arm))
		return *why = "an arm name with a control character or bytes that are not UTF-8", -1;
	if (part >= SB_BLOCKS_MAX_PARTS)
		return *why = "part past " STR(SB_BLOCKS_MAX_PARTS) " (a run's parts are its variants)", -1;
	if (batch < 1 || batch > SB_MAX_BATCH)
		return *why = "batch size outside 1 .. 1048576", -1;
	if (process >= SB_MAX_PROCESSES)
		return *why = "process past " STR(SB_MAX_PROCESSES), -1;
	if (state >= SB_MAX_STATES)
		return *why = "state past " STR(SB_MAX_STATES), -1;
	if (block >= SB_MAX_SAMPLES)
		return *why = "block index past 400000 (the rounds of a batch size)", -1;
	if (fabs(value) > SB_BLOCKS_MAX_CYCLES)
		return *why = "cycles per iteration beyond 1e9", -1;
	if (canary < 0 || canary > SB_BLOCKS_MAX_CANARY || clock < 0 || clock > SB_BLOCKS_MAX_CANARY)
		return *why = "a canary or clock outside 0 .. 1000", -1;
	if (ts < 0 || window < 0)
		return *why = "a negative time or window", -1;
	size_t k = 0;
	while (k < rs->n_batches && rs->batches[k] != batch)
		k++;
	if (k == rs->n_batches) {
		if (k == SB_MAX_BATCHES)
			return *why = "more than " STR(SB_MAX_BATCHES) " batch sizes", -1;
		rs->batches[rs->n_batches++] = batch;
	}
	const struct sb_block_value *prev = t->n ? &t->rows[t->n - 1] : NULL;
	if (prev && prev->part == part && prev->batch == batch && prev->process == process && prev->block == block)
		rs->block_rows++;
	else
		rs->block_rows = 1;
	if (rs->block_rows > MAX_BLOCK_ROWS)
		return *why = "more than " STR(MAX_BLOCK_ROWS) " rows of one block", -1;
	if (t->n == SB_BLOCKS_MAX_ROWS)
		return *why = "more than 4194304 rows", -1;
	if (sb_block_table_arm(t, arm) < 0 && t->n_arms == SB_BLOCKS_MAX_ARMS)
		return *why = "more than " STR(SB_BLOCKS_MAX_ARMS) " arms", -1;
	if (sb_block_table_add(t, batch, part, process, block, state, arm, value) != 0)
		return -2;
	sb_block_table_mark(t, canary, strcmp(role, "baseline") == 0);
	t->rows[t->n - 1].sibling = sibling;
	return 0;
}

int sb_block_table_read(const char *path, struct sb_block_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	/* Standard input is never read: a log is a file (a FIFO or a device
	 * is refused, never waited on). */
	if (strcmp(path, "-") == 0)
		return sb_set_err(err, errlen, "'-': a log is a file, standard input is not read"), -1;
	char why[256];
	int fd = sb_safe_file_open_input(path, why, sizeof(why));
	if (fd < 0)
		return sb_set_err(err, errlen, "%s: %s", path, why), -1;
	FILE *f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return sb_set_err(err, errlen, "%s: %s", path, strerror(errno)), -1;
	}
	char line[1024];
	size_t lineno = 0;
	int rc = 0;
	struct read_state rs = {{0}, 0, 0};
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		lineno++;
		size_t len = strlen(line);
		if (len + 1 == sizeof(line) && line[len - 1] != '\n') {
			rc = -1, sb_set_err(err, errlen, "%s:%zu: a line longer than %zu characters", path, lineno,
					    sizeof(line) - 2);
			break;
		}
		if (lineno == 1 && strncmp(line, "t_s,part,batch,", 15) == 0)
			continue;
		const char *bad;
		int r = parse_row(line, t, &rs, &bad);
		if (r == -2)
			rc = -1, sb_set_err(err, errlen, "%s: out of memory", path);
		else if (r && bad)
			rc = -1, sb_set_err(err, errlen, "%s:%zu: %s", path, lineno, bad);
		else if (r)
			rc = -1, sb_set_err(err, errlen, "%s:%zu: not a row of a --blocks log", path, lineno);
	}
	if (rc == 0 && ferror(f))
		rc = -1, sb_set_err(err, errlen, "%s: %s", path, strerror(errno));
	if (rc == 0 && t->n == 0)
		rc = -1, sb_set_err(err, errlen, "%s: no blocks", path);
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
	free(t->arm_slots);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

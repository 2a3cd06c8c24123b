/* blocks_log.c: see blocks_log.h. */
#include "stats/blocks_log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

#include "stats/block_table.h"
#include "base/safe_file.h"
#include "stubbench/sibling_names.h"

static struct sb_safe_file log_file;
static int log_open;
static size_t log_rows;
static uint64_t log_t0;
static struct sb_block_table *collector;
static int collector_failed;

int sb_blocks_log_open(const char *path, char *err, size_t errlen)
{
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	if (sb_safe_file_open(&log_file, path, 0, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--blocks: %s", why);
		return -1;
	}
	fputs("t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter,sibling\n", log_file.f);
	log_open = 1;
	log_rows = 0;
	log_t0 = __rdtsc();
	return 0;
}

int sb_blocks_log_active(void)
{
	return log_open || collector;
}

void sb_blocks_log_collect(struct sb_block_table *t)
{
	collector = t;
	collector_failed = 0;
}

int sb_blocks_log_collect_failed(void)
{
	return collector_failed;
}

/* An arm's name as one CSV field: quoted when it holds a comma or a quote. */
static void put_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static const char *const role_names[] = {
	[SB_BLOCK_OVERHEAD] = "overhead",
	[SB_BLOCK_BASELINE] = "baseline",
	[SB_BLOCK_VARIANT] = "variant",
};

void sb_blocks_log_row(const struct sb_block_row *b, double tsc_hz, const char *arm, enum sb_block_role role,
		       double cycles_per_iter)
{
	if (collector && role != SB_BLOCK_OVERHEAD) {
		if (sb_block_table_add(collector, b->batch, b->part, b->process, b->block, b->state, arm,
				       cycles_per_iter) != 0)
			collector_failed = 1;
		else {
			sb_block_table_mark(collector, b->canary, role == SB_BLOCK_BASELINE);
			collector->rows[collector->n - 1].sibling = b->sibling;
		}
	}
	if (!log_open)
		return;
	FILE *f = log_file.f;
	double t = tsc_hz > 0 && b->tsc >= log_t0 ? (double)(b->tsc - log_t0) / tsc_hz : 0;
	fprintf(f, "%.6f,%zu,%llu,%zu,%zu,%zu,%.5f,%.4f,%.3f,", t, b->part, (unsigned long long)b->batch, b->process,
		b->block, b->state, b->clock, b->canary, b->window);
	put_field(f, arm);
	fprintf(f, ",%s,%.4f,%s\n", role_names[role], cycles_per_iter,
		sb_sibling_state_name((enum sb_sibling_state)b->sibling));
	log_rows++;
}

int sb_blocks_log_close(int keep, char *err, size_t errlen)
{
	if (!log_open)
		return 0;
	log_open = 0;
	if (!keep || !log_rows) {
		sb_safe_file_abort(&log_file);
		return 0;
	}
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	if (sb_safe_file_commit(&log_file, why, sizeof(why)) != 0) {
		snprintf(err, errlen, "--blocks: writing '%s' failed (%s): not written", log_file.path, why);
		return -1;
	}
	return 0;
}

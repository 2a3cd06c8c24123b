/* blocks_log.c: see blocks_log.h; the rows of the harness's kept blocks:
 * batch_data.h. */
#include "stubbench/blocks_log.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <x86intrin.h>

#include "batch_data.h"

static FILE *log_file;
static char log_path[512];
static uint64_t log_t0;

int sb_blocks_log_open(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "--blocks: cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	fputs("t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter\n", f);
	log_file = f;
	snprintf(log_path, sizeof(log_path), "%s", path);
	log_t0 = __rdtsc();
	return 0;
}

int sb_blocks_log_active(void)
{
	return log_file != NULL;
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

void sb_blocks_log_row(const struct sb_block_row *b, double tsc_hz, const char *arm, const char *role,
		       double cycles_per_iter)
{
	if (!log_file)
		return;
	double t = tsc_hz > 0 && b->tsc >= log_t0 ? (double)(b->tsc - log_t0) / tsc_hz : 0;
	fprintf(log_file, "%.6f,%zu,%llu,%zu,%zu,%zu,%.5f,%.4f,%.3f,", t, b->part, (unsigned long long)b->batch,
		b->process, b->block, b->state, b->clock, b->canary, b->window);
	put_field(log_file, arm);
	fprintf(log_file, ",%s,%.4f\n", role, cycles_per_iter);
}

void sb_blocks_log_kept(const struct sb_arm *arms, size_t n_arms, const struct batch_data *d,
			const struct sb_kept_blocks *kb, uint64_t batch, size_t part, double tsc_hz)
{
	if (!log_file)
		return;
	for (size_t k = 0; k < kb->n; k++) {
		const struct block *b = &d->blocks[kb->block[k]];
		struct sb_block_row row = {b->tsc, part, batch, b->process, kb->block[k], b->state,
					   b->cpt, b->canary, b->window};
		for (size_t a = 0; a < n_arms; a++)
			sb_blocks_log_row(&row, tsc_hz, arms[a].name,
					  arms[a].is_overhead   ? "overhead"
					  : arms[a].is_baseline ? "baseline"
								: "variant",
					  kb->value[a * kb->stride + k]);
	}
}

int sb_blocks_log_close(char *err, size_t errlen)
{
	if (!log_file)
		return 0;
	int bad = ferror(log_file);
	bad |= fclose(log_file) != 0;
	log_file = NULL;
	if (bad) {
		snprintf(err, errlen, "--blocks: writing '%s' failed: the file is incomplete", log_path);
		return -1;
	}
	return 0;
}

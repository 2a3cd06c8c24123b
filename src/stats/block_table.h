/* block_table.h: the kept blocks of a run in memory, one value per arm and
 * block, as the --blocks log has them (blocks_log.h): collected while a
 * run measures (sb_blocks_log_collect), or read back from a log. A
 * computation over blocks (the attribution of annotate) then reads the
 * same rows whether the run is live or recorded. */
#ifndef STUBBENCH_BLOCK_TABLE_H
#define STUBBENCH_BLOCK_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct sb_block_value {
	uint64_t batch;
	size_t part, process, block, state;
	size_t arm;      /* index into sb_block_table.arms */
	double value;    /* cycles per iteration, the overhead arm's removed */
	double canary;   /* the block's add canary, adds per cycle (0: not known) */
	int baseline;    /* 1: the arm is its part's baseline (the log's role) */
	int sibling;     /* enum sb_sibling_state; 0 (unrecorded) from sb_block_table_add */
};

struct sb_block_table {
	struct sb_block_value *rows;
	size_t n, cap;
	char **arms;     /* the arms' names, each once */
	size_t n_arms;
};

/* Appends one value (arm by name). Returns 0, or -1 out of memory. */
int sb_block_table_add(struct sb_block_table *t, uint64_t batch, size_t part, size_t process, size_t block,
		       size_t state, const char *arm, double value);

/* The last row added gets the block's canary and whether its arm is the
 * part's baseline (sb_block_table_add leaves them 0). */
void sb_block_table_mark(struct sb_block_table *t, double canary, int baseline);

/* The index of arm name, or -1. */
long sb_block_table_arm(const struct sb_block_table *t, const char *name);

/* Reads a --blocks log (path "-": standard input), with or without the
 * sibling column (a log of an older run: every row unrecorded). Returns 0, or -1 with
 * err naming the file and the line that is not a row of a blocks log. */
int sb_block_table_read(const char *path, struct sb_block_table *t, char *err, size_t errlen);

void sb_block_table_free(struct sb_block_table *t);

#endif

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
	size_t *arm_slots; /* open addressing over arms by name: index + 1, 0 empty */
	size_t n_slots;    /* a power of two, at least twice n_arms */
};

/* What a --blocks log read back may hold; a row past one is refused,
 * naming its line (docs/hostile-inputs.md). A run writes parts below the
 * number of variants, processes below SB_MAX_PROCESSES, states below
 * SB_MAX_STATES, block indexes below its rounds per batch
 * (SB_MAX_SAMPLES), and at most SB_MAX_ARMS rows a block. */
#define SB_BLOCKS_MAX_PARTS 1024
#define SB_BLOCKS_MAX_ARMS 1024          /* distinct arm names in a log */
#define SB_BLOCKS_MAX_ROWS (1u << 22)    /* rows: 4194304, about 400 MB in memory */
#define SB_BLOCKS_MAX_CYCLES 1e9         /* |cycles per iteration| */
#define SB_BLOCKS_MAX_CANARY 1e3         /* adds per cycle; the core clock, cycles per tick */

/* Appends one value (arm by name). Returns 0, or -1 out of memory. */
int sb_block_table_add(struct sb_block_table *t, uint64_t batch, size_t part, size_t process, size_t block,
		       size_t state, const char *arm, double value);

/* The last row added gets the block's canary and whether its arm is the
 * part's baseline (sb_block_table_add leaves them 0). */
void sb_block_table_mark(struct sb_block_table *t, double canary, int baseline);

/* The index of arm name, or -1. */
long sb_block_table_arm(const struct sb_block_table *t, const char *name);

/* Reads a --blocks log, with or without the sibling column (a log of an
 * older run: every row unrecorded). Every field is range-checked (the
 * bounds above; batch sizes 1 .. SB_MAX_BATCH, at most SB_MAX_BATCHES of
 * them). Returns 0, or -1 with err naming the file, the line and what is
 * wrong with it. "-" (standard input) is refused. */
int sb_block_table_read(const char *path, struct sb_block_table *t, char *err, size_t errlen);

void sb_block_table_free(struct sb_block_table *t);

#endif

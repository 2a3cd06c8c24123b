/* blocks_log.h: --blocks=FILE, the raw material of every estimate: each
 * kept block of every measurement of this process, one CSV row per arm:
 *
 *   t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter,sibling
 *
 * t_s: seconds from opening the log to the block's start (TSC); part: the
 * arm set of sb_run_arm_sets it belongs to (0 for a run of one part); process: the fresh
 * process that ran it (0 without --processes), state: the re-rolled state
 * (placement and stack offset) its arms ran in; clock: core cycles per TSC
 * tick; canary: independent adds per cycle; window: the window canary's
 * cycles an iteration; role: overhead (the arm whose cost is removed from
 * the others), baseline or variant; cycles_per_iter: the 20-80 % trimmed mean of the
 * block's kept samples, the overhead arm's cost removed, the block value
 * the CIs and modes are computed from; sibling: the measured core's SMT
 * sibling beside the block (sibling.h): quiet (nothing on purpose), busy
 * (the load ran) or none (no reachable sibling). Logs written before the
 * sibling column read back as not recorded. The estimate removed is the part's
 * own at that batch size, so the same code in two parts can read a fraction
 * of a cycle apart in every row; the overhead rows (each block of the stub
 * less that estimate) show by how much. Disturbed blocks are left out.
 * What it is for: seeing a state change with time, or with the canaries,
 * which the summaries only flag. */
#ifndef STUBBENCH_BLOCKS_LOG_H
#define STUBBENCH_BLOCKS_LOG_H

#include <stddef.h>
#include <stdint.h>

/* Starts the log of path: a temporary beside it (safe_file.h) gets the
 * header and the rows; path itself is only replaced when the log is
 * closed with keep. A path that is not a regular file (a FIFO, a device)
 * is refused. Returns 0, or -1 with err naming the file and why. */
int sb_blocks_log_open(const char *path, char *err, size_t errlen);

/* Non-zero while a log is open or a table collects the blocks. */
int sb_blocks_log_active(void);

struct sb_block_table;
/* From now on every kept block's value of every arm but the overhead also
 * goes to t (block_table.h), log or not; NULL: no more. A command that
 * computes over blocks (annotate) reads them there. */
void sb_blocks_log_collect(struct sb_block_table *t);
/* Non-zero when memory ran out while collecting: t lacks rows. */
int sb_blocks_log_collect_failed(void);

struct sb_block_row {
	uint64_t tsc;            /* the block's start */
	size_t part;
	uint64_t batch;
	size_t process, block, state;
	double clock, canary, window;
	int sibling;             /* enum sb_sibling_state */
};

/* The arm's role in its run, the log's role column. */
enum sb_block_role { SB_BLOCK_OVERHEAD, SB_BLOCK_BASELINE, SB_BLOCK_VARIANT };

/* One arm's value in a block: a row of the log when one is open (tsc_hz
 * converts the TSC to seconds), and but for the overhead arm a row of the
 * table that collects the blocks (sb_blocks_log_collect). */
void sb_blocks_log_row(const struct sb_block_row *b, double tsc_hz, const char *arm, enum sb_block_role role,
		       double cycles_per_iter);

/* Ends the log: with keep and at least one row, the temporary is renamed
 * over path; else (a run that failed on its options, was interrupted, or
 * kept no block) it is removed and path keeps its old bytes. Returns 0,
 * or -1 with err when a write failed (a full disk): nothing is then
 * written. Nothing open: 0. */
int sb_blocks_log_close(int keep, char *err, size_t errlen);

#endif

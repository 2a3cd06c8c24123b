/* kernel_from_blocks.h: `stubbench report RUN.json --from-blocks=LOG` for
 * a run of `stubbench kernel`'s built-in shapes: its figures load by load
 * (saved/kernel_by_load.h: the placed twin paired by load, where the
 * kernel's spread comes from) computed from its --blocks log and set on
 * the run's rows, then its summary, as the run prints it live with them.
 * A run recorded before the figures load by load were kept in its JSON
 * is judged again this way. */
#ifndef STUBBENCH_KERNEL_FROM_BLOCKS_H
#define STUBBENCH_KERNEL_FROM_BLOCKS_H

#include <stdio.h>

#include "saved/run_file.h"
#include "stats/block_table.h"

/* Whether rf is a run of the kernel's built-in shapes. */
int sb_kernel_run_of_shapes(const struct sb_run_file *rf);

/* rf's kernel rows and placed twins' rows get their figures load by load
 * from t (log, the run's --blocks log: every arm of it at every batch size
 * in as many loads as the run's row says, else refused), then rf's summary
 * goes to f. Returns 0; 1 out of memory or when f cannot be written; 2
 * (bad input, said on stderr naming log) when t is not the run's log. */
int sb_kernel_report_from_blocks(FILE *f, struct sb_run_file *rf, const struct sb_block_table *t, const char *log);

#endif

/* run_match.h: a saved run's rows found by cell (src/report/run_match.c):
 * the indices sorted by cell key and by name, so that finding the same cell
 * in another run takes O(log n). */
#ifndef STUBBENCH_RUN_MATCH_H
#define STUBBENCH_RUN_MATCH_H

#include <stdint.h>

#include "stubbench/run_rows.h"

/* Sorts the index of f's rows (by_key, by_name); with_spread: also makes
 * f's spreads over placements from its copies' rows, sorted. Returns 0, or
 * -1 when out of memory. */
int sb_run_file_index(struct sb_run_file *f, int with_spread);

/* The row of variant at batch (the first in the file), or NULL. */
const struct sb_run_row *sb_run_file_find(const struct sb_run_file *f, const char *variant, uint64_t batch);
/* The row of f that is the same cell as like (another file's row): the
 * same key and batch where both have keys, else the same name and batch;
 * NULL when there is none. */
const struct sb_run_row *sb_run_file_match(const struct sb_run_file *f, const struct sb_run_row *like);
/* The spread over placements of the code of row (a row at no placement), or NULL. */
const struct sb_run_spread *sb_run_file_spread_of(const struct sb_run_file *f, const struct sb_run_row *row);

#endif

/* placement_stats.h: summarizing one run's cells across code placements. */
#ifndef STUBBENCH_PLACEMENT_STATS_H
#define STUBBENCH_PLACEMENT_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"

/* Groups the cells of r whose arms are copies at random placements (keys
 * with a placement) by code and batch, and fills r->placement_rows: the
 * placements' mean cycles per iteration (mean, SD, min, max) and, against
 * the copies of the variant named baseline, the ratio of means with an
 * unpaired bootstrap 95 % CI (seeded). Each row carries its code's key at
 * no placement. Returns the number of rows, or -1 when memory runs out. */
long sb_placement_summarize(struct sb_results *r, const char *baseline, uint64_t seed);

#endif

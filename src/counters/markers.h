/* markers.h: likwid marker regions around every sample.
 *
 * One region per arm x batch, named like the seed-format lines:
 * "<seed name>-<batch>" (private-stack-64, no-private-stack-8, hybrid-1).
 * Under `likwid-perfctr -C <cpu> -g <group> -m stubbench ...` each region
 * gets its own table; a region's counts cover every sample of that arm and
 * batch (the region's "call count" is the number of samples), so a per-call
 * figure is the count divided by samples x batch.
 *
 * Built without likwid (-DSTUBBENCH_LIKWID=OFF, no LIKWID_PERFMON) every
 * call compiles to nothing but the bookkeeping. Built with it, the regions
 * are live only when the program runs under likwid-perfctr -m. On a CPU
 * likwid does not know, or without a PMU, they stay off and sb_markers_note
 * says why in one line.
 *
 * The hooks run outside the timed region; the region start/stop reads the
 * counters, so put them outside any other hook that reads counters
 * (marker start, counters read, sample, counters read, marker stop).
 */
#ifndef STUBBENCH_MARKERS_H
#define STUBBENCH_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"

struct sb_markers;

/* Longest region name (seed name, '-', batch). */
#define SB_MARKER_NAME_MAX 64

/* Writes "<seed_name>-<batch>" to buf; returns 0, or -1 when it does not
 * fit or seed_name is NULL or empty. */
int sb_markers_region_name(char *buf, size_t len, const char *seed_name, uint64_t batch);

/* Names a region for every arm that has a seed name and is not the
 * overhead arm, at every batch, and registers them with likwid when
 * regions are live. Call it on the thread that runs the samples. Returns
 * the markers, or NULL with a one-line reason in err (out of memory, a
 * name that does not fit). The same region name in two opens is one region
 * to likwid (its call count then covers both). */
struct sb_markers *sb_markers_open(const struct sb_arm *arms, size_t n_arms,
				   const uint64_t *batches, size_t n_batches, char *err, size_t errlen);

/* 1 when regions are live (built with likwid, run under likwid-perfctr -m,
 * the CPU known and the PMU there). */
int sb_markers_live(const struct sb_markers *m);

/* One line saying why hardware counters are unavailable (unknown CPU, no
 * PMU, or likwid-perfctr -m wrapping a build without likwid); NULL when
 * nothing stands in the way. Print it once. */
const char *sb_markers_note(const struct sb_markers *m);

/* What the markers are doing, one line, for --verbose. */
const char *sb_markers_status(const struct sb_markers *m);

/* The region name of arm x batch_idx, NULL for arms without a region. */
const char *sb_markers_name(const struct sb_markers *m, size_t arm, size_t batch_idx);

/* The harness hooks (hook_ctx = the markers): start and stop the region. */
void sb_markers_before_sample(void *m, size_t arm, size_t batch_idx);
void sb_markers_after_sample(void *m, size_t arm, size_t batch_idx);

/* Samples started in a region so far (counted even when regions are off). */
uint64_t sb_markers_count(const struct sb_markers *m, size_t arm, size_t batch_idx);

/* Frees m (NULL is fine). The marker API itself, started by the first
 * sb_markers_open with live regions, closes at exit (atexit), when it
 * writes what likwid-perfctr reads: several opens in one process (groups
 * of variants) then all land in the one result. */
void sb_markers_close(struct sb_markers *m);

#endif

/* footprint_run.h: `stubbench footprint`, how the private stack's cost
 * grows with code footprint (the question behind bpf_prog_pack: many
 * loaded programs, each on its own page, pressure the instruction TLB).
 *
 * For each layout (packed like bpf_prog_pack, spread one copy per 4 KiB
 * page like module_alloc before it) and each number of copies N, every
 * variant is copied N times into one region, the variants' copies
 * interleaved (footprint.h), and the copies are called round-robin, so
 * that each call runs a different copy. The overhead arm runs the same
 * loop over a table of N pointers to one empty stub: the loop and its
 * table loads are removed, the cost of reaching a different copy each time
 * is not. Variants of one (layout, N) are measured interleaved; the delta
 * to the baseline comes from the interleaved pairs as everywhere else.
 * footprint is a descriptor the session drives (session/command.h): its
 * checks, the pinned thread, its measurement of the copies and what its
 * report adds (footprint's table, plot and JSON members,
 * footprint_report.h); the session opens the run's records, splits
 * --time and ends the run (session.h). */
#ifndef STUBBENCH_FOOTPRINT_RUN_H
#define STUBBENCH_FOOTPRINT_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/config.h"
#include "base/error.h"

/* footprint's own options, beside the run configuration. */
struct sb_footprint_options {
	uint64_t copies[SB_MAX_BATCHES]; /* --copies: copies of each variant, one measurement each */
	size_t n_copies;
	const char *layout;              /* --layout: "packed", "spread" or both (sb_fp_layout_parse) */
};

/* Measures cfg->measure.variants (per-run variants, the first the baseline; "all":
 * twin-per-run-baseline,twin-per-run-private) at every layout and number
 * of copies of o, pinned to cfg->measure.cpu, cfg->measure.time_s shared among them, and
 * reports in cfg->out.format (one that names each result by its key,
 * SB_OUT_KEYED). Returns SB_STATUS_USAGE after one line on bad input,
 * SB_STATUS_FAILED after one line when a copy, a run or a check failed,
 * else the session's status. */
enum sb_status sb_footprint_run(const struct sb_config *cfg, const struct sb_footprint_options *o);

#endif

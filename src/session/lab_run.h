/* lab_run.h: `stubbench lab`, the codegen lab: baseline, the mainline
 * private stack and the alternative sequences (lab_variants.h), per shape
 * and return flavour, each group interleaved against its own baseline; the
 * report ranks them (lab_rank.h) and lists their code sizes. */
#ifndef STUBBENCH_LAB_RUN_H
#define STUBBENCH_LAB_RUN_H

#include "stubbench/config.h"
#include "base/error.h"

/* The lab's groups of cfg->measure.shape ("all", "per-run" or "in-loop"), every
 * return flavour, measured in one run with cfg->measure.time_s shared among them.
 * Returns SB_STATUS_USAGE after one line on bad input, else the session's
 * status (session.h). */
enum sb_status sb_lab_run(const struct sb_config *cfg);

#endif

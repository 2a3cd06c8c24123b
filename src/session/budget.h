/* budget.h: --time, a measuring command's one budget, and the one rule
 * that splits it. A command's measuring steps each take a fixed share of
 * --time (the table below), and a step that measures several parts
 * together divides its share evenly among them (its ways). A command says
 * which step a configuration is for (sb_config.share, share_ways) and the
 * session alone turns that into the seconds its run options hold
 * (sb_session_run_opts). docs/harness-steps.md, "The time budget". */
#ifndef STUBBENCH_BUDGET_H
#define STUBBENCH_BUDGET_H

#include <stddef.h>

#include "stubbench/config.h"

/* The shares are enum sb_share (stubbench/config.h); budget.c holds each
 * one's fraction and why. */
/* The fraction of --time a share is. */
double sb_share_fraction(enum sb_share share);
/* The seconds cfg's step measures for: cfg->measure.time_s x its share's fraction,
 * divided by its ways (0 or 1: one); 0 with samples. */
double sb_budget_seconds(const struct sb_measure_config *cfg);
/* The longest one run of a measured program may take, tried before the
 * measurement (a longer one would hold it far past --time): an eighth of
 * cfg->measure.time_s, with samples too; 0 (no bound) without a time. */
double sb_budget_longest_run_seconds(const struct sb_measure_config *cfg);

#endif

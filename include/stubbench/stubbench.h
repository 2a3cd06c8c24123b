/* stubbench.h: the library's public API (docs/library.md).
 *
 * A program measures replicas of the BPF JIT's code the way `stubbench`
 * does (pinned, interleaved against the empty stub, in re-rolled states and
 * fresh processes, disturbed blocks judged and left out) and reads back
 * estimates with their CIs:
 *
 *   struct sb_config cfg;
 *   sb_config_defaults(&cfg);              the CLI's defaults
 *   cfg.measure.variants = "private";              what --variant takes
 *   cfg.measure.batches[0] = 512; cfg.measure.n_batches = 1;
 *   struct sb_measurement m;
 *   char err[256];
 *   if (sb_measure(&cfg, &m, err, sizeof(err)) == 0) {
 *           const struct sb_cell *c = sb_measurement_cell(&m, "private", 512);
 *           ... c->cycles.mean, c->delta_pct.value, c->delta_pct.lo ...
 *   }
 *   sb_measurement_free(&m);
 *
 * Link with `pkg-config --cflags --libs stubbench`. */
#ifndef STUBBENCH_STUBBENCH_H
#define STUBBENCH_STUBBENCH_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/config.h"
#include "stubbench/format.h"
#include "stubbench/registry.h"
#include "stubbench/results.h"

struct sb_variant_arms;

/* What sb_measure hands back: one cell per measured variant and batch
 * size (the baseline's included), as the sweep's table shows them. */
struct sb_measurement {
	struct sb_results res;
	struct sb_variant_arms *arms; /* the arms the cells point into */
};

/* Measures cfg->measure.variants ("all" for the seed's replicas, or names from
 * sb_variant_at) against the baseline of their flavour, with the options
 * of cfg (batches, time or samples, seed, processes, states, cpu ...).
 * Lines on stderr say what the run could not do (no PMU, a busy core).
 * Returns 0; 2 for bad input, 1 for a failed run, with err saying why. m
 * must be freed with sb_measurement_free whatever it returns. */
int sb_measure(const struct sb_config *cfg, struct sb_measurement *m, char *err, size_t errlen);

/* The cell of variant (its name) at batch, or NULL. */
const struct sb_cell *sb_measurement_cell(const struct sb_measurement *m, const char *variant, uint64_t batch);

void sb_measurement_free(struct sb_measurement *m);

#endif

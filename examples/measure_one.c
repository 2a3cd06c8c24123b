/* measure_one.c: one variant against its baseline at one batch size,
 * measured through the library the way `stubbench --variant=V --batch=B`
 * measures it (docs/library.md).
 *
 *   cc measure_one.c -o measure_one $(pkg-config --cflags --libs stubbench)
 *   ./measure_one private 512 [SEED [SAMPLES]]
 *
 * Prints one line: the variant's cycles per iteration and its cost against
 * the baseline with their 95 % CIs, and what the cell was measured over. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "stubbench/parse.h"
#include "stubbench/stubbench.h"

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s VARIANT BATCH [SEED [SAMPLES]]\n", argv[0]);
		return 2;
	}
	struct sb_config cfg;
	sb_config_defaults(&cfg);
	cfg.measure.variants = argv[1];
	cfg.measure.n_batches = 1;
	char err[256];
	if (sb_parse_u64_range("BATCH", argv[2], 1, SB_MAX_BATCH, &cfg.measure.batches[0], err, sizeof(err)) != 0 ||
	    (argc > 3 && sb_parse_u64("SEED", argv[3], 0, &cfg.measure.seed, err, sizeof(err)) != 0) ||
	    (argc > 4 && sb_parse_samples("SAMPLES", argv[4], 1, &cfg.measure.samples, err, sizeof(err)) != 0)) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		return 2;
	}
	struct sb_measurement m;
	int rc = sb_measure(&cfg, &m, err, sizeof(err));
	const struct sb_cell *c = rc == 0 ? sb_measurement_cell(&m, argv[1], cfg.measure.batches[0]) : NULL;
	if (rc == 0 && (!c || c->no_samples[0])) {
		snprintf(err, sizeof(err), "%s at batch %" PRIu64 ": %s", argv[1], cfg.measure.batches[0],
			 c ? c->no_samples : "not measured");
		rc = 1;
	}
	if (rc != 0) {
		fprintf(stderr, "%s: %s\n", argv[0], err);
		sb_measurement_free(&m);
		return rc;
	}
	printf("%s batch=%" PRIu64 " cycles=%.3f [%.3f, %.3f]", argv[1], c->batch, c->cycles.mean, c->cycles.ci_lo,
	       c->cycles.ci_hi);
	if (sb_estimate_known(&c->delta_pct))
		printf(" delta=%+.3f%% [%+.3f, %+.3f]", c->delta_pct.value, c->delta_pct.lo, c->delta_pct.hi);
	printf(" states=%zu processes=%zu samples=%zu\n", c->n_states, c->n_processes,
	       c->n_samples + c->n_disturbed);
	sb_measurement_free(&m);
	return 0;
}

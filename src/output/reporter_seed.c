/* reporter_seed.c: the seed reporter (reporter.h): one bench line per
 * cell, as upstream's run_common.sh summarize prints them. */
#include "harness/harness.h"
#include "output/reporter.h"

#include "output/output.h"

void sb_output_seed_line(FILE *f, const char *name, uint64_t batch, const char *suffix,
			 double mean, double sd)
{
	char label[96];
	snprintf(label, sizeof(label), "%s-%llu%s: ", name, (unsigned long long)batch,
		 suffix ? suffix : "");
	fprintf(f, "%-20s %.3f \xc2\xb1 %.3fM/s (drops 0.000 \xc2\xb1 0.000M/s)\n", label, mean, sd);
}

/* A cell with no usable samples: its seed line is left out of the results
 * and said on stderr instead, in the same shape. */
static void seed_line_empty(const char *name, uint64_t batch, const char *suffix, const char *why)
{
	char label[96];
	snprintf(label, sizeof(label), "%s-%llu%s: ", name, (unsigned long long)batch,
		 suffix ? suffix : "");
	fprintf(stderr, "%-20s n/a (no usable samples: %s)\n", label, why);
}

/* A line per cell, batch-major; a cell without usable samples on stderr. */
static int seed_results(FILE *f, const struct sb_results *r, const struct sb_output_meta *m)
{
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = sb_reporter_cell_at(r, i);
		if (c->arm && c->no_samples[0])
			seed_line_empty(c->arm->seed_name, c->batch, m->name_suffix, c->no_samples);
		else if (c->arm)
			sb_output_seed_line(f, c->arm->seed_name, c->batch, m->name_suffix, c->runs_per_s_mean,
					    c->runs_per_s_sd);
	}
	return 0;
}

const struct sb_reporter sb_reporter_seed = {
	.results = seed_results,
};

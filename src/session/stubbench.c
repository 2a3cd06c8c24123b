/* stubbench.c: the public API (stubbench.h): variants named in a configuration measured against
 * their baseline, the way `stubbench --variant=LIST` measures them; see
 * stubbench.h. */
#include "stubbench/stubbench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants/percpu.h"
#include "session/session.h"
#include "harness/variant_arms.h"
#include "variants/variant_baseline.h"

int sb_measure(const struct sb_config *cfg, struct sb_measurement *m, char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	const struct sb_variant *vs[SB_MAX_ARMS];
	size_t n;
	if (sb_variants_select(cfg->measure.variants, "replica", vs, SB_MAX_ARMS - 1, &n, err, errlen) != 0)
		return 2;
	const struct sb_variant *baseline = NULL;
	for (size_t i = 0; i < n && !baseline; i++)
		if (vs[i] == sb_variant_baseline_of(vs[i]))
			baseline = vs[i];
	if (!baseline)
		baseline = sb_variant_baseline_of(vs[0]);
	m->arms = calloc(1, sizeof(*m->arms));
	if (!m->arms) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	int rc = sb_measure_group(cfg, "stubbench", baseline, vs, n, m->arms, &m->res);
	if (rc != 0)
		snprintf(err, errlen, "the measurement failed (stderr says why)");
	return rc;
}

const struct sb_cell *sb_measurement_cell(const struct sb_measurement *m, const char *variant, uint64_t batch)
{
	return sb_results_cell(&m->res, variant, batch);
}

void sb_measurement_free(struct sb_measurement *m)
{
	sb_results_free(&m->res);
	free(m->arms);
	m->arms = NULL;
	sb_percpu_thread_fini();
}

/* counters_off.c: perf_counters.h in a build without the counters part
 * (CMake STUBBENCH_COUNTERS=OFF, or libpfm4 missing), the way
 * likwid-marker.h compiles to nothing without LIKWID_PERFMON: every list
 * is refused with one line saying why, so no set is ever opened and the
 * hooks are never called with one. */
#include "counters/perf_counters.h"

#include <stdio.h>

static void not_built(const char *list, char *err, size_t errlen)
{
	if (err && errlen)
		snprintf(err, errlen,
			 "--counters: '%s' cannot be counted: this stubbench was built without the "
			 "counters part (STUBBENCH_COUNTERS=OFF)",
			 list ? list : "");
}

int sb_counters_parse(const char *list, char names[][SB_COUNTER_NAME_MAX], size_t max, char *err,
		      size_t errlen)
{
	(void)names;
	(void)max;
	not_built(list, err, errlen);
	return -1;
}

struct sb_counter_set *sb_counters_open(const char *list, char *err, size_t errlen)
{
	not_built(list, err, errlen);
	return NULL;
}

const char *sb_counters_note(const struct sb_counter_set *set) { (void)set; return NULL; }
size_t sb_counters_n_listed(const struct sb_counter_set *set) { (void)set; return 0; }
size_t sb_counters_n_open(const struct sb_counter_set *set) { (void)set; return 0; }
const char *sb_counters_name(const struct sb_counter_set *set, size_t i) { (void)set; (void)i; return ""; }
const char *sb_counters_pfm_name(const struct sb_counter_set *set, size_t i) { (void)set; (void)i; return ""; }

int sb_counters_bind(struct sb_counter_set *set, const struct sb_arm *arms, size_t n_arms,
		     const uint64_t *batches, size_t n_batches, char *err, size_t errlen)
{
	(void)set; (void)arms; (void)n_arms; (void)batches; (void)n_batches;
	not_built(NULL, err, errlen);
	return -1;
}

void sb_counters_before_sample(void *set, size_t arm, size_t batch_idx) { (void)set; (void)arm; (void)batch_idx; }
void sb_counters_after_sample(void *set, size_t arm, size_t batch_idx) { (void)set; (void)arm; (void)batch_idx; }

int sb_counters_last_sample(const struct sb_counter_set *set, struct sb_sample_disturbance *out)
{
	(void)set;
	(void)out;
	return -1;
}

uint64_t sb_counters_disturbances_now(void *set) { (void)set; return 0; }

void sb_counters_totals(const struct sb_counter_set *set, struct sb_sample_disturbance *out,
			uint64_t *samples, uint64_t *disturbed_samples)
{
	(void)set;
	if (out)
		*out = (struct sb_sample_disturbance){0, 0, 0};
	if (samples)
		*samples = 0;
	if (disturbed_samples)
		*disturbed_samples = 0;
}

size_t sb_counters_cell(const struct sb_counter_set *set, size_t arm, size_t batch_idx, double *per_iter,
			size_t max)
{
	(void)set; (void)arm; (void)batch_idx; (void)per_iter; (void)max;
	return 0;
}

void sb_counters_fill(const struct sb_counter_set *set, struct sb_results *r) { (void)set; (void)r; }
void sb_counters_close(struct sb_counter_set *set) { (void)set; }

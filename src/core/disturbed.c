/* disturbed.c: see disturbed.h. */
#include "stubbench/disturbed.h"

#include <stdlib.h>

#include "stubbench/harness.h"
#include "stubbench/stats.h"

#define QUIET_CANARY_PCT 95 /* the add canary's quiet level: this percentile of the blocks */
#define QUIET_WINDOW_PCT 5  /* the window canary's: this percentile (low is quiet) */
#define DISTURBED_CLOCK 0.90 /* below this fraction of the median clock */

double sb_quiet_canary_level(const double *sorted, size_t n)
{
	return sb_percentile_sorted(sorted, n, QUIET_CANARY_PCT);
}

double sb_quiet_window_level(const double *sorted, size_t n)
{
	return sb_percentile_sorted(sorted, n, QUIET_WINDOW_PCT);
}

long sb_judge_blocks(const struct sb_block_signs *b, size_t n, int *disturbed)
{
	double *v = malloc((n + 1) * sizeof(*v)), *w = malloc((n + 1) * sizeof(*w));
	double *c = malloc((n + 1) * sizeof(*c));
	if (!v || !w || !c) {
		free(v), free(w), free(c);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		v[i] = b[i].canary;
		w[i] = b[i].window;
		c[i] = b[i].clock;
	}
	/* The add canary's quiet level is near the top of its range, not its
	 * median: on a shared core a busy sibling thread can take most of a
	 * run, and its blocks run in a different state (measured:
	 * results/intel-xeon-icelake-vm.md). When even that would leave fewer
	 * than a quarter of the blocks, the busy level is all there is: judge
	 * against the median then. */
	sb_sort(v, n);
	double mc = sb_quiet_canary_level(v, n), mk = sb_median(c, n);
	if (sb_percentile_sorted(v, n, 75) < SB_DISTURBED_CANARY * mc)
		mc = sb_percentile_sorted(v, n, 50);
	/* The window canary's quiet level is near the bottom of its range,
	 * however few blocks sit there, with no fallback to the median: a
	 * fallback keeps whole runs beside a busy sibling, busy blocks and
	 * all, while the next run, with a few more quiet blocks, keeps only
	 * those (measured: results/amd-epyc-zen5-vm.md). */
	sb_sort(w, n);
	double mw = sb_quiet_window_level(w, n);
	long flagged = 0;
	for (size_t i = 0; i < n; i++) {
		disturbed[i] = b[i].csw > 0 || b[i].canary < SB_DISTURBED_CANARY * mc ||
			       b[i].window > SB_DISTURBED_WINDOW * mw || b[i].clock < DISTURBED_CLOCK * mk;
		flagged += disturbed[i];
	}
	free(v), free(w), free(c);
	return flagged;
}

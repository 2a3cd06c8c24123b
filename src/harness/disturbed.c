/* disturbed.c: see disturbed.h; the harness's use of it (the empty stub's
 * spread, the tests' switches) is declared in set_run.h. */
#include "harness/disturbed.h"

#include <math.h>
#include <stdlib.h>

#include "set_run.h"
#include "harness/sibling.h"
#include "stubbench/stats.h"

#define QUIET_CANARY_PCT 95 /* the add canary's quiet level: this percentile of the blocks */
#define QUIET_WINDOW_PCT 5  /* the window canary's: this percentile (low is quiet) */
#define DISTURBED_CLOCK 0.90 /* below this fraction of the median clock */
#define SPREAD_FACTOR 8.0          /* the empty stub's spread in a block, over the blocks' median */
#define SPREAD_MIN_CYCLES 64.0     /* ... and at least this much (cycles per sample) */
#define SPREAD_MIN_ROUNDS 10       /* blocks with fewer rounds are not judged by it */

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

/* The empty stub's spread within block b: the 80th minus the 20th
 * percentile of its samples, core cycles (tmp: scratch of its rounds); 0
 * for a block of fewer than SPREAD_MIN_ROUNDS, where two samples decide it. */
static double block_spread(const struct batch_data *d, const struct block *b, long ovh, double *tmp)
{
	if (b->n_rounds < SPREAD_MIN_ROUNDS)
		return 0;
	for (size_t r = 0; r < b->n_rounds; r++)
		tmp[r] = d->ticks[(size_t)ovh * d->cap + b->first_round + r] * b->cpt;
	double p20, p80;
	sb_percentiles_select(tmp, b->n_rounds, 20, 80, &p20, &p80);
	return p80 - p20;
}

/* sb_judge_blocks over the blocks of each SMT sibling state apart
 * (sibling.h): with --sibling=both, the blocks beside a loaded sibling
 * are a state of their own, judged against their own quiet levels, not
 * flagged for being busy. signs, judged: scratch and verdicts for every
 * block. Returns 0, or -1 out of memory. */
static int judge_by_sibling(const struct batch_data *d, struct sb_block_signs *signs, int *judged)
{
	size_t *at = malloc((d->n_blocks + 1) * sizeof(*at));
	int *verdict = malloc((d->n_blocks + 1) * sizeof(*verdict));
	int rc = at && verdict ? 0 : -1;
	for (int st = 0; st < SB_SIBLING_STATES && rc == 0; st++) {
		size_t n = 0;
		for (size_t i = 0; i < d->n_blocks; i++) {
			const struct block *b = &d->blocks[i];
			if (b->sibling == st) {
				at[n] = i;
				signs[n++] = (struct sb_block_signs){b->canary, b->window, b->cpt, b->csw};
			}
		}
		if (n && sb_judge_blocks(signs, n, verdict) < 0)
			rc = -1;
		for (size_t k = 0; k < n && rc == 0; k++)
			judged[at[k]] = verdict[k];
	}
	free(at), free(verdict);
	return rc;
}

/* A block is disturbed when sb_judge_blocks says so (the canaries, the
 * clock, a context switch) or when the empty stub's spread within it is
 * many times the blocks' usual one. */
void sb_flag_disturbed(struct batch_data *d, long ovh, const struct sb_run_test_hooks *test, size_t *n_disturbed,
		       size_t *n_spread)
{
	size_t max_rounds = 1;
	for (size_t i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].n_rounds > max_rounds)
			max_rounds = d->blocks[i].n_rounds;
	struct sb_block_signs *signs = malloc((d->n_blocks + 1) * sizeof(*signs));
	int *judged = malloc((d->n_blocks + 1) * sizeof(*judged));
	double *sp = calloc(d->n_blocks + 1, sizeof(*sp)); /* 0 without an overhead arm */
	double *tmp = malloc((max_rounds + 1) * sizeof(*tmp));
	if (!signs || !judged || !sp || !tmp) {
		free(signs), free(judged), free(sp), free(tmp);
		return;
	}
	if (judge_by_sibling(d, signs, judged) < 0) {
		free(signs), free(judged), free(sp), free(tmp);
		return;
	}
	/* Interference inside a block (an interrupt storm, the host taking
	 * the core for a fraction of each millisecond) can hit half of its
	 * samples or more, which the outlier rule (judged against the block's
	 * median) keeps and which moves its trimmed means, while the canaries,
	 * run before and after it, read quiet (measured:
	 * results/amd-epyc-zen5-vm.md). Such a block shows as a spread of the
	 * empty stub's samples many times the blocks' usual one; a steady
	 * state moves every sample of a block alike and leaves the spread
	 * alone. */
	double lim_spread = INFINITY;
	if (ovh >= 0 && d->n_blocks) {
		for (size_t i = 0; i < d->n_blocks; i++)
			sp[i] = block_spread(d, &d->blocks[i], ovh, tmp);
		lim_spread = fmax(SPREAD_FACTOR * sb_median(sp, d->n_blocks), SPREAD_MIN_CYCLES);
	}
	int none = test && test->disturb_none, all = test && test->disturb_all;
	int spread_only = test && test->spread_only;
	for (size_t i = 0; i < d->n_blocks; i++) {
		struct block *b = &d->blocks[i];
		b->disturbed = !none && !spread_only && (judged[i] || all);
		if (!none && !b->disturbed && sp[i] > lim_spread) {
			b->disturbed = 1;
			(*n_spread)++;
		}
		if (b->disturbed)
			(*n_disturbed)++;
	}
	free(signs), free(judged), free(sp), free(tmp);
}

/* batch_summary.c: the statistics of one batch size's blocks (see
 * batch_data.h): outliers, the overhead arm removed, block values, modes,
 * CIs over states and processes, the delta and the codegen and layout costs, and
 * the changed-with-time test. It only computes: the blocks are recorded
 * by sampler.c, and their --blocks rows written by blocks_log.c. */
#define _GNU_SOURCE
#include "batch_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired_placements.h"
#include "base/rng.h"
#include "stubbench/results.h"
#include "stubbench/stats.h"

#define OUTLIER_MADS 8.0          /* a sample above median + 8 robust SDs is an outlier */
#define N_BOOT 1000
#define MODE_MIN_SEP 0.3           /* cycles per iteration: closer states are one */

/* The kept blocks of one arm cut into at most SB_MAX_REPS consecutive
 * slices: each slice's mean cost per iteration and its iterations. */
static void repetitions(const struct batch_data *d, const double *bsum, const double *bns,
			const double *bcnt, uint64_t batch, struct sb_cell *c)
{
	size_t kept[d->n_blocks + 1], g = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		if (bcnt[bl] > 0)
			kept[g++] = bl;
	c->n_reps = g < SB_MAX_REPS ? g : SB_MAX_REPS;
	for (size_t r = 0; r < c->n_reps; r++) {
		double sum = 0, ns = 0, cnt = 0;
		for (size_t k = r * g / c->n_reps; k < (r + 1) * g / c->n_reps; k++) {
			sum += bsum[kept[k]];
			ns += bns[kept[k]];
			cnt += bcnt[kept[k]];
		}
		c->rep_cycles[r] = sum / cnt;
		c->rep_ns[r] = ns / cnt;
		c->rep_iterations[r] = (uint64_t)cnt * batch;
	}
}

/* The means of x[0..n) per group (group[k] in [0, max_group], count[j]
 * values in group j), into out in group order; sum is scratch of
 * max_group + 1. Returns the number of groups with values. */
static size_t group_means(const double *x, const size_t *group, const size_t *count, size_t n, size_t max_group,
			  double *sum, double *out)
{
	size_t m = 0;
	memset(sum, 0, (max_group + 1) * sizeof(*sum));
	for (size_t k = 0; k < n; k++)
		sum[group[k]] += x[k];
	for (size_t j = 0; j <= max_group; j++)
		if (count[j])
			out[m++] = sum[j] / (double)count[j];
	return m;
}

/* A CI [*lo, *hi] about est, widened by a second one (plo, phi about pest):
 * each side's deviations added in quadrature. */
static void widen(double est, double pest, double plo, double phi, double *lo, double *hi)
{
	*lo = est - hypot(est - *lo, pest - plo);
	*hi = est + hypot(*hi - est, phi - pest);
}

/* Did this arm's steady state change with time? Each fresh process (they
 * run one after the other) is labelled with the mode most of its blocks
 * sat in; the labels in process order are put to the runs test. A state
 * that lasts for stretches of seconds whatever the placement gives a run
 * inside one stretch a CI that the next run's figure misses (measured:
 * results/amd-epyc-zen5-vm.md; docs/states-in-time.md). */
static int changed_in_time(const size_t *label, const size_t *bproc, size_t g, size_t max_process,
			   size_t *runs)
{
	size_t np = max_process + 1;
	size_t *count = calloc(np * SB_MAX_MODES, sizeof(*count));
	size_t *seq = malloc(np * sizeof(*seq));
	int clumped = 0;
	*runs = 0;
	if (count && seq) {
		for (size_t k = 0; k < g; k++)
			count[bproc[k] * SB_MAX_MODES + label[k]]++;
		size_t n = 0;
		for (size_t p = 0; p < np; p++) {
			size_t best = 0, total = 0;
			for (size_t m = 0; m < SB_MAX_MODES; m++) {
				total += count[p * SB_MAX_MODES + m];
				if (count[p * SB_MAX_MODES + m] > count[p * SB_MAX_MODES + best])
					best = m;
			}
			if (total)
				seq[n++] = best;
		}
		clumped = sb_states_clump_in_time(seq, n, runs);
	}
	free(count);
	free(seq);
	return clumped;
}

/* One batch size's summary in the making: its inputs, and the samples,
 * blocks and scratch that its steps share. */
struct summary {
	const struct sb_arm *arms;
	size_t n_arms;
	long ovh, base;
	uint64_t batch;
	const struct batch_data *d;
	double tsc_hz;
	size_t n;                  /* rounds */
	double *cyc;               /* total cycles per sample */
	char *keep;                /* per round: neither disturbed nor an outlier */
	double *tmp;               /* scratch, one per round */
	double *bsum, *bns;        /* per arm and block: sums of cycles, ns per iteration */
	double *bcnt;              /* per block: kept rounds */
	size_t outliers;           /* rounds dropped */
	double ovh_cycles, ovh_ns; /* the overhead arm's cost per sample */
	size_t nk;                 /* kept blocks + 1 */
	size_t g;                  /* kept blocks */
	double *gm;                /* group means, scratch */
	double *mps;               /* per kept block: M iterations per second */
	double *bm;                /* block means [arm][kept block] */
	size_t *bstate;            /* state of each kept block */
	size_t *label;             /* mode of each block mean */
	size_t max_state, max_process;
	double *smean;             /* per state: sum, then mean */
	size_t *scount, *pcount;   /* kept blocks per state, per process */
	size_t *bproc;             /* process of each kept block */
	size_t *kept_block;        /* index of each kept block in d->blocks (NULL: not asked for) */
	size_t n_states_seen, n_processes_ran;
	int by_process;            /* the CIs also resample processes */
};

static void summary_free(struct summary *s)
{
	free(s->bm), free(s->bstate), free(s->label), free(s->smean), free(s->scount);
	free(s->pcount), free(s->bproc), free(s->kept_block);
	free(s->cyc), free(s->keep), free(s->tmp), free(s->bsum), free(s->bcnt), free(s->bns);
	free(s->gm), free(s->mps);
}

/* The per-sample arrays and the block sums. Returns 0, or -1 out of memory. */
static int alloc_samples(struct summary *s)
{
	s->cyc = malloc(s->n_arms * s->n * sizeof(*s->cyc));
	s->keep = malloc(s->n);
	s->tmp = malloc(s->n * sizeof(*s->tmp));
	s->bsum = calloc(s->n_arms * s->d->n_blocks, sizeof(*s->bsum));
	s->bcnt = calloc(s->d->n_blocks, sizeof(*s->bcnt));
	s->bns = calloc(s->n_arms * s->d->n_blocks, sizeof(*s->bns));
	if (!s->cyc || !s->keep || !s->tmp || !s->bsum || !s->bcnt || !s->bns)
		return -1;
	return 0;
}

/* Per-sample cycles with the block's clock; disturbed blocks dropped. */
static void sample_cycles(struct summary *s)
{
	const struct batch_data *d = s->d;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++) {
			s->keep[r] = !b->disturbed;
			for (size_t a = 0; a < s->n_arms; a++)
				s->cyc[a * s->n + r] = d->ticks[a * d->cap + r] * b->cpt;
		}
	}
}

/* Outliers (an interrupt or a host preemption inside a sample): a sample
 * above its arm's median in its block by more than OUTLIER_MADS robust
 * standard deviations (1.4826 MAD, at least 64 cycles) drops its whole
 * round, so that the remaining samples stay interleaved pairs. Judged
 * within the block, where the arm runs in one state: against the
 * whole batch's median, the blocks of a slower steady state (3 cycles
 * per call, 1500 cycles a sample at batch 512) would be outliers,
 * and dropping them would drop those states from every estimate. */
static void drop_outliers(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t n = s->n;
	const double *cyc = s->cyc;
	char *keep = s->keep;
	double *tmp = s->tmp;
	size_t outliers = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		if (b->disturbed)
			continue;
		for (size_t a = 0; a < s->n_arms; a++) {
			size_t m = 0;
			for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++)
				if (keep[r])
					tmp[m++] = cyc[a * n + r];
			double med = m ? sb_median(tmp, m) : 0;
			for (size_t k = 0; k < m; k++)
				tmp[k] = fabs(tmp[k] - med);
			double mad = m ? sb_median(tmp, m) : 0;
			double limit = med + fmax(OUTLIER_MADS * 1.4826 * mad, 64.0);
			for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++)
				if (keep[r] && cyc[a * n + r] > limit) {
					keep[r] = 0;
					outliers++;
				}
		}
	}
	s->outliers = outliers;
}

/* The overhead arm's cost, removed from every sample. */
static void overhead_cost(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t n = s->n;
	long ovh = s->ovh;
	const double *cyc = s->cyc;
	const char *keep = s->keep;
	double *tmp = s->tmp;
	double ovh_cycles = 0, ovh_ns = 0;
	if (ovh >= 0) {
		size_t m = 0;
		for (size_t r = 0; r < n; r++)
			if (keep[r])
				tmp[m++] = cyc[ovh * n + r];
		/* Trimmed means by selection (tmp is scratch): no sort needed. */
		if (m)
			ovh_cycles = sb_trimmed_mean(tmp, m);
		m = 0;
		for (size_t r = 0; r < n; r++)
			if (keep[r])
				tmp[m++] = d->ticks[ovh * d->cap + r] / s->tsc_hz * 1e9;
		if (m)
			ovh_ns = sb_trimmed_mean(tmp, m);
	}
	s->ovh_cycles = ovh_cycles;
	s->ovh_ns = ovh_ns;
}

/* Block sums for the CIs and the ratios. */
static void block_sums(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t n = s->n;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++) {
			if (!s->keep[r])
				continue;
			s->bcnt[bl] += 1;
			for (size_t a = 0; a < s->n_arms; a++) {
				s->bsum[a * d->n_blocks + bl] += (s->cyc[a * n + r] - s->ovh_cycles) / (double)s->batch;
				s->bns[a * d->n_blocks + bl] +=
					(d->ticks[a * d->cap + r] / s->tsc_hz * 1e9 - s->ovh_ns) / (double)s->batch;
			}
		}
	}
}

/* The arrays per kept block and per state, sized by the kept blocks and
 * the highest state and process. Returns 0, or -1 out of memory. */
static int alloc_blocks(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t n_kept_blocks = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		n_kept_blocks += s->bcnt[bl] > 0;
	size_t nk = s->nk = n_kept_blocks + 1;
	s->gm = malloc(nk * sizeof(*s->gm));
	s->mps = malloc(nk * sizeof(*s->mps));
	s->bm = malloc(s->n_arms * nk * sizeof(*s->bm));
	s->bstate = malloc(nk * sizeof(*s->bstate));
	s->label = malloc(s->n_arms * nk * sizeof(*s->label));
	size_t max_state = 0, max_process = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		if (d->blocks[bl].state > max_state)
			max_state = d->blocks[bl].state;
		if (d->blocks[bl].process > max_process)
			max_process = d->blocks[bl].process;
	}
	if (max_process > max_state)
		max_state = max_process;
	s->max_state = max_state;
	s->max_process = max_process;
	s->smean = calloc(max_state + 1, sizeof(*s->smean));
	s->scount = calloc(max_state + 1, sizeof(*s->scount));
	if (!s->gm || !s->mps || !s->bm || !s->bstate || !s->label || !s->smean || !s->scount)
		return -1;
	return 0;
}

/* A block's value per arm: the 20-80 % trimmed mean of its kept
 * samples, robust to the interrupts and bursts inside a block. Sets the
 * kept blocks' values, states and count (g), and their indexes when they
 * are asked for (kept_block). */
static void block_values(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t n = s->n, nk = s->nk;
	uint64_t batch = s->batch;
	const double *bsum = s->bsum, *bcnt = s->bcnt;
	double *tmp = s->tmp, *bm = s->bm;
	size_t g = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		if (bcnt[bl] > 0) {
			const struct block *b = &d->blocks[bl];
			s->bstate[g] = b->state;
			for (size_t a = 0; a < s->n_arms; a++) {
				size_t m = 0;
				for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++)
					if (s->keep[r])
						tmp[m++] = (s->cyc[a * n + r] - s->ovh_cycles) / (double)batch;
				bm[a * nk + g] = m ? sb_trimmed_mean(tmp, m) : bsum[a * d->n_blocks + bl] / bcnt[bl];
			}
			if (s->kept_block)
				s->kept_block[g] = bl;
			g++;
		}
	s->g = g;
}

/* The kept blocks grouped by state and by process: the states and the
 * processes seen, whether the CIs also go by process, and the processes
 * the cell ran in. Returns 0, or -1 out of memory. */
static int count_states_and_processes(struct summary *s)
{
	const struct batch_data *d = s->d;
	size_t g = s->g;
	size_t n_states_seen = 0, n_processes_seen = 0;
	for (size_t k = 0; k < g; k++)
		if (s->scount[s->bstate[k]]++ == 0)
			n_states_seen++;
	s->n_states_seen = n_states_seen;
	/* With fresh processes, a second grouping of the blocks: by process.
	 * The states and the processes are crossed (every process runs in
	 * many states), so each CI is computed both ways, the states' way
	 * giving the estimate, and the two deviations are added in quadrature:
	 * the spread between states (few of them: the kernel's 8 loads) and
	 * between processes both count; the blocks' own noise, in both, makes
	 * it conservative. */
	size_t *pcount = s->pcount = calloc(s->max_state + 1, sizeof(*pcount));
	size_t *bproc = s->bproc = malloc(s->nk * sizeof(*bproc));
	if (!pcount || !bproc)
		return -1;
	for (size_t bl = 0, k = 0; bl < d->n_blocks; bl++)
		if (s->bcnt[bl] > 0)
			bproc[k++] = d->blocks[bl].process;
	for (size_t k = 0; k < g; k++)
		if (pcount[bproc[k]]++ == 0)
			n_processes_seen++;
	s->by_process = n_processes_seen > 1;
	/* The processes the cell ran in, whether or not each kept a block. */
	size_t n_processes_ran = 0;
	for (size_t j = 0; j <= s->max_process; j++)
		for (size_t bl = 0; bl < d->n_blocks; bl++)
			if (d->blocks[bl].process == j) {
				n_processes_ran++;
				break;
			}
	s->n_processes_ran = n_processes_ran;
	return 0;
}

/* Each arm's steady states: label[a][k] is the mode block k of arm a
 * sits in (for the changed-with-time test). */
static void label_modes(struct summary *s)
{
	size_t g = s->g, nk = s->nk;
	for (size_t a = 0; a < s->n_arms; a++) {
		struct sb_mode modes[SB_MAX_MODES];
		if (g)
			sb_find_modes(s->bm + a * nk, g, MODE_MIN_SEP, modes, SB_MAX_MODES, s->label + a * nk);
	}
}

/* Cell c of arm a: its arm, batch and the counts its blocks share. */
static void cell_counts(struct summary *s, size_t a, struct sb_cell *c)
{
	const struct batch_data *d = s->d;
	c->arm = &s->arms[a];
	c->batch = s->batch;
	c->overhead_cycles = s->ovh_cycles / (double)s->batch;
	c->n_outliers = s->outliers;
	c->n_states = s->n_states_seen;
	c->n_processes = s->n_processes_ran ? s->n_processes_ran : 1;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		if (d->blocks[bl].disturbed)
			c->n_disturbed += d->blocks[bl].n_rounds;
}

/* The cycles per iteration of arm a's cell c: its kept samples (or why it
 * has none), their summary with its CI, the modes and whether they changed
 * with time. */
static void arm_cycles(struct summary *s, size_t a, struct sb_cell *c)
{
	const struct batch_data *d = s->d;
	size_t n = s->n, g = s->g, nk = s->nk;
	const double *bm = s->bm;
	double *gm = s->gm;
	size_t m = 0;
	for (size_t r = 0; r < n; r++)
		if (s->keep[r])
			s->tmp[m++] = (s->cyc[a * n + r] - s->ovh_cycles) / (double)s->batch;
	c->n_samples = m;
	if (m == 0) {
		size_t nd = 0;
		for (size_t bl = 0; bl < d->n_blocks; bl++)
			nd += d->blocks[bl].disturbed != 0;
		if (nd == d->n_blocks)
			snprintf(c->no_samples, sizeof(c->no_samples),
				 "all %zu blocks disturbed (CPU busy or thread switched out)", nd);
		else
			snprintf(c->no_samples, sizeof(c->no_samples),
				 "every kept round held an outlier (%zu of %zu blocks disturbed)", nd, d->n_blocks);
	}
	/* The CI of the cycles: over the states' means when the arm ran
	 * in several states, else over the blocks' means; widened by the
	 * processes' spread when there were several. */
	struct sb_summary pstat;
	memset(&pstat, 0, sizeof(pstat));
	if (s->by_process) {
		size_t np = group_means(bm + a * nk, s->bproc, s->pcount, g, s->max_state, s->smean, gm);
		sb_summarize(gm, np, NULL, 0, &pstat);
	}
	size_t ng = 0;
	if (s->n_states_seen > 1) {
		ng = group_means(bm + a * nk, s->bstate, s->scount, g, s->max_state, s->smean, gm);
	} else {
		for (size_t k = 0; k < g; k++)
			gm[ng++] = bm[a * nk + k];
	}
	sb_summarize(s->tmp, m, gm, ng, &c->cycles);
	if (s->by_process && c->cycles.n)
		widen(c->cycles.mean, pstat.mean, pstat.ci_lo, pstat.ci_hi, &c->cycles.ci_lo, &c->cycles.ci_hi);
	c->n_modes = g ? sb_find_modes(bm + a * nk, g, MODE_MIN_SEP, c->modes, SB_MAX_MODES, NULL) : 0;
	if (c->n_modes > 1 && s->by_process)
		c->changed_in_time = changed_in_time(s->label + a * nk, s->bproc, g, s->max_process, &c->time_runs);
}

/* Arm a's first_round_excess (results.h): per kept block of at least
 * 4 kept rounds, its first kept sample over the median of the others,
 * minus 1; their 20-80 % trimmed mean over at least 8 such blocks. */
static double first_round_excess(struct summary *s, size_t a)
{
	const struct batch_data *d = s->d;
	double *ex = malloc((d->n_blocks + 1) * sizeof(*ex));
	if (!ex)
		return NAN;
	size_t k = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		size_t m = 0, first = SIZE_MAX;
		for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++) {
			if (!s->keep[r])
				continue;
			if (first == SIZE_MAX)
				first = r;
			else
				s->tmp[m++] = s->cyc[a * s->n + r];
		}
		if (m < 3)
			continue;
		double med = sb_percentile_select(s->tmp, m, 50);
		if (med > 0)
			ex[k++] = s->cyc[a * s->n + first] / med - 1;
	}
	double e = k >= 8 ? sb_trimmed_mean(ex, k) : NAN;
	free(ex);
	return e;
}

/* The nanoseconds of arm a's cell c, its repetitions and its runs per
 * second. */
static void arm_ns(struct summary *s, size_t a, struct sb_cell *c)
{
	const struct batch_data *d = s->d;
	size_t n = s->n;
	double *tmp = s->tmp, *gm = s->gm, *mps = s->mps;
	size_t m = 0;
	for (size_t r = 0; r < n; r++)
		if (s->keep[r])
			tmp[m++] = (d->ticks[a * d->cap + r] / s->tsc_hz * 1e9 - s->ovh_ns) / (double)s->batch;
	size_t gg = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		if (s->bcnt[bl] > 0) {
			gm[gg] = s->bns[a * d->n_blocks + bl] / s->bcnt[bl];
			mps[gg] = gm[gg] > 0 ? 1e3 / gm[gg] : 0; /* M iterations per second */
			gg++;
		}
	sb_summarize(tmp, m, gm, gg, &c->ns);
	repetitions(d, s->bsum + a * d->n_blocks, s->bns + a * d->n_blocks, s->bcnt, s->batch, c);
	struct sb_summary ms;
	if (sb_summarize(mps, gg, NULL, 0, &ms) == 0) {
		c->runs_per_s_mean = ms.mean;
		c->runs_per_s_sd = ms.sd;
	}
}

/* The index of arm p among the arms (NULL or not among them: -1). */
static long arm_index(const struct summary *s, const struct sb_arm *p)
{
	for (size_t k = 0; p && k < s->n_arms; k++)
		if (&s->arms[k] == p || (p->name && s->arms[k].name && strcmp(p->name, s->arms[k].name) == 0))
			return (long)k;
	return -1;
}

/* The bootstraps of a cell against the baseline: each draws a stream of
 * its own (sb_seed_stream), told apart by the cell and the figure. */
enum cell_bootstrap { BOOT_DELTA, BOOT_DELTA_BY_PROCESS, BOOT_CODEGEN, BOOT_LAYOUT, BOOT_VS_REFERENCE, N_CELL_BOOTS };

static uint64_t boot_seed(uint64_t seed, size_t cell, enum cell_bootstrap boot)
{
	return sb_seed_stream(seed, SB_SEED_BOOTSTRAP, (uint64_t)cell * N_CELL_BOOTS + boot);
}

/* Arm a against the baseline (some blocks kept): the delta, the codegen
 * and the layout cost of cell c (index cell among the run's) with their
 * CIs, the bootstraps' streams from the run's seed. */
static void arm_against_baseline(struct summary *s, size_t a, uint64_t seed, size_t cell, struct sb_cell *c)
{
	size_t g = s->g, nk = s->nk;
	const double *bm = s->bm;
	long base = s->base;
	int by_process = s->by_process;
	const size_t *bstate = s->bstate, *bproc = s->bproc;
	double ratio, lo, hi;
	c->delta_pct = sb_estimate_absent("the baseline costs nothing");
	if (sb_bootstrap_ratio_nested(bm + a * nk, bm + base * nk, bstate, g, N_BOOT, boot_seed(seed, cell, BOOT_DELTA),
				      &ratio, &lo, &hi) == 0) {
		double pr, plo, phi;
		if (by_process && sb_bootstrap_ratio_nested(bm + a * nk, bm + base * nk, bproc, g, N_BOOT,
							    boot_seed(seed, cell, BOOT_DELTA_BY_PROCESS), &pr, &plo,
							    &phi) == 0)
			widen(ratio, pr, plo, phi, &lo, &hi);
		c->delta_pct = sb_estimate_of((ratio - 1) * 100, (lo - 1) * 100, (hi - 1) * 100);
	}
	size_t ng = group_means(bm + base * nk, bstate, s->scount, g, s->max_state, s->smean, s->gm);
	double base_mean = 0;
	for (size_t j = 0; j < ng; j++)
		base_mean += s->gm[j] / (double)ng;
	c->delta_cycles = sb_estimate_pct_to_cycles(&c->delta_pct, base_mean);
	/* The codegen cost against the padded baseline (else the baseline),
	 * and the layout cost of the padding, paired by placement. */
	long ref = arm_index(s, s->arms[a].padded_baseline), other = arm_index(s, s->arms[a].reference);
	const size_t *procs = by_process ? bproc : NULL, *places = s->n_states_seen > 1 ? bstate : NULL;
	struct sb_paired p;
	sb_paired_over_placements(bm + a * nk, bm + (ref >= 0 ? ref : base) * nk, places, procs, g, N_BOOT,
				  boot_seed(seed, cell, BOOT_CODEGEN), &p);
	c->matched_cycles = p.mean;
	c->codegen_against = s->arms[ref >= 0 ? ref : base].name;
	c->codegen_median = p.median;
	memcpy(c->codegen_modes, p.modes, sizeof(p.modes));
	c->n_codegen_modes = p.n_modes;
	c->layout_cycles = sb_estimate_absent("no padded baseline in the run");
	if (ref >= 0 && sb_paired_over_placements(bm + ref * nk, bm + base * nk, places, procs, g, N_BOOT,
						  boot_seed(seed, cell, BOOT_LAYOUT), &p) == 0)
		c->layout_cycles = p.mean;
	c->vs_reference_cycles = sb_estimate_absent("no reference arm");
	if (other >= 0 && sb_paired_over_placements(bm + a * nk, bm + other * nk, places, procs, g, N_BOOT,
						    boot_seed(seed, cell, BOOT_VS_REFERENCE), &p) == 0) {
		c->vs_reference_cycles = p.mean;
		c->reference_against = s->arms[other].name;
	}
}

void sb_kept_blocks_free(struct sb_kept_blocks *kb)
{
	free(kb->block);
	free(kb->value);
	memset(kb, 0, sizeof(*kb));
}

int sb_batch_summarize(const struct sb_arm *arms, size_t n_arms, long ovh, long base, uint64_t batch, size_t bi,
		       size_t n_batches, const struct batch_data *d, double tsc_hz, uint64_t seed,
		       struct sb_results *out, struct sb_kept_blocks *kept)
{
	struct summary s = {.arms = arms, .n_arms = n_arms, .ovh = ovh, .base = base, .batch = batch, .d = d,
			    .tsc_hz = tsc_hz, .n = d->n_rounds};
	int rc = -1;
	if (alloc_samples(&s) != 0)
		goto out;
	sample_cycles(&s);
	drop_outliers(&s);
	overhead_cost(&s);
	block_sums(&s);
	if (alloc_blocks(&s) != 0)
		goto out;
	if (kept && !(s.kept_block = malloc(s.nk * sizeof(*s.kept_block))))
		goto out;
	block_values(&s);
	if (count_states_and_processes(&s) != 0)
		goto out;
	label_modes(&s);
	/* The empty stub's own spread: every arm's cycles are less one
	 * estimate of it, whose blocks can sit in steady states apart, in
	 * shares that move from run to run, so each arm's CI of its cycles
	 * takes the estimate's CI in quadrature.
	 * Differences between arms of the cell are less the same estimate,
	 * and their CIs do not. */
	struct sb_cell ovh_cell;
	memset(&ovh_cell, 0, sizeof(ovh_cell));
	if (ovh >= 0 && s.g)
		arm_cycles(&s, (size_t)ovh, &ovh_cell);
	int ovh_ci = ovh_cell.cycles.n && isfinite(ovh_cell.cycles.ci_lo) && isfinite(ovh_cell.cycles.ci_hi);
	for (size_t a = 0, ci = 0; a < n_arms; a++) {
		if ((long)a == ovh)
			continue;
		struct sb_cell *c = &out->cells[ci * n_batches + bi];
		ci++;
		cell_counts(&s, a, c);
		c->first_round_excess = first_round_excess(&s, a);
		arm_cycles(&s, a, c);
		if (ovh_ci && c->cycles.n && isfinite(c->cycles.ci_lo) && isfinite(c->cycles.ci_hi))
			widen(c->cycles.mean, ovh_cell.cycles.mean, ovh_cell.cycles.ci_lo, ovh_cell.cycles.ci_hi,
			      &c->cycles.ci_lo, &c->cycles.ci_hi);
		arm_ns(&s, a, c);
		const char *no_delta = base < 0 ? "no baseline in the run" : (long)a == base ? "the baseline itself"
										 : "no kept blocks";
		c->delta_pct = c->matched_cycles = c->layout_cycles = c->codegen_median = c->codegen_mean = c->delta_cycles =
			c->codegen_two_state_pct =
			c->vs_reference_cycles = sb_estimate_absent(no_delta);
		if (base >= 0 && (long)a != base && s.g)
			arm_against_baseline(&s, a, seed, bi * n_arms + a, c);
	}
	if (kept) { /* handed over */
		*kept = (struct sb_kept_blocks){.n = s.g, .stride = s.nk, .block = s.kept_block, .value = s.bm,
						.removed = s.ovh_cycles / (double)s.batch};
		s.kept_block = NULL;
		s.bm = NULL;
	}
	rc = 0;
out:
	summary_free(&s);
	return rc;
}

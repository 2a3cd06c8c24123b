/* batch_summary.c: the statistics of one batch size's blocks (see
 * batch_data.h): outliers, the overhead arm removed, block values, modes,
 * CIs over states and processes, the delta and the matched difference, and
 * the changed-with-time test. The runner that records the blocks is
 * harness.c. */
#define _GNU_SOURCE
#include "batch_data.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/blocks_log.h"
#include "stubbench/stats.h"

#define OUTLIER_MADS 8.0          /* a sample above median + 8 robust SDs is an outlier */
#define N_BOOT 1000
#define MODE_MIN_SEP 0.3           /* cycles per iteration: closer states are one */
#define MATCH_MIN_SHARE 0.25       /* a matching state holds at least this share of the blocks */

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
 * sat in; the labels in process order are put to the runs test. On an AMD
 * Zen 5 VM the kernel's baseline sat at 136, then 125, then 136 cycles for
 * stretches of seconds whatever the placement (results/amd-epyc-zen5-vm.md):
 * a run inside one stretch gives a CI that the next run's figure misses. */
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

int sb_batch_summarize(const struct sb_arm *arms, size_t n_arms, long ovh, long base, uint64_t batch, size_t bi,
		       size_t n_batches, const struct batch_data *d, double tsc_hz, uint64_t seed, size_t part,
		       struct sb_results *out)
{
	size_t n = d->n_rounds;
	double *cyc = malloc(n_arms * n * sizeof(*cyc)); /* total cycles per sample */
	char *keep = malloc(n);
	double *tmp = malloc(n * sizeof(*tmp));
	double *bsum = calloc(n_arms * d->n_blocks, sizeof(*bsum));
	double *bcnt = calloc(d->n_blocks, sizeof(*bcnt));
	double *bns = calloc(n_arms * d->n_blocks, sizeof(*bns));
	if (!cyc || !keep || !tmp || !bsum || !bcnt || !bns) {
		free(cyc), free(keep), free(tmp), free(bsum), free(bcnt), free(bns);
		return -1;
	}
	/* Per-sample cycles with the block's clock; disturbed blocks dropped. */
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++) {
			keep[r] = !b->disturbed;
			for (size_t a = 0; a < n_arms; a++)
				cyc[a * n + r] = d->ticks[a * d->cap + r] * b->cpt;
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
	size_t outliers = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		if (b->disturbed)
			continue;
		for (size_t a = 0; a < n_arms; a++) {
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
	/* The overhead arm's cost, removed from every sample. */
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
				tmp[m++] = d->ticks[ovh * d->cap + r] / tsc_hz * 1e9;
		if (m)
			ovh_ns = sb_trimmed_mean(tmp, m);
	}
	/* Block sums for the CIs and the ratios. */
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		const struct block *b = &d->blocks[bl];
		for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++) {
			if (!keep[r])
				continue;
			bcnt[bl] += 1;
			for (size_t a = 0; a < n_arms; a++) {
				bsum[a * d->n_blocks + bl] += (cyc[a * n + r] - ovh_cycles) / (double)batch;
				bns[a * d->n_blocks + bl] +=
					(d->ticks[a * d->cap + r] / tsc_hz * 1e9 - ovh_ns) / (double)batch;
			}
		}
	}
	size_t n_kept_blocks = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		n_kept_blocks += bcnt[bl] > 0;
	size_t nk = n_kept_blocks + 1;
	double *gm = malloc(nk * sizeof(*gm));
	double *mps = malloc(nk * sizeof(*mps));
	double *bm = malloc(n_arms * nk * sizeof(*bm));     /* block means [arm][kept block] */
	size_t *bstate = malloc(nk * sizeof(*bstate));     /* state of each kept block */
	size_t *label = malloc(n_arms * nk * sizeof(*label)); /* mode of each block mean */
	char *in_ref = malloc(n_arms * nk);                /* in its arm's matching state */
	size_t max_state = 0, max_process = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++) {
		if (d->blocks[bl].state > max_state)
			max_state = d->blocks[bl].state;
		if (d->blocks[bl].process > max_process)
			max_process = d->blocks[bl].process;
	}
	if (max_process > max_state)
		max_state = max_process;
	double *smean = calloc(max_state + 1, sizeof(*smean)); /* per state: sum, then mean */
	size_t *scount = calloc(max_state + 1, sizeof(*scount));
	char *use = malloc(nk);
	if (!gm || !mps || !bm || !bstate || !label || !in_ref || !smean || !scount || !use) {
		free(cyc), free(keep), free(tmp), free(bsum), free(bcnt), free(bns);
		free(gm), free(mps), free(bm), free(bstate), free(label), free(in_ref), free(smean), free(scount), free(use);
		return -1;
	}
	/* A block's value per arm: the 20-80 % trimmed mean of its kept
	 * samples, robust to the interrupts and bursts inside a block. */
	size_t g = 0;
	for (size_t bl = 0; bl < d->n_blocks; bl++)
		if (bcnt[bl] > 0) {
			const struct block *b = &d->blocks[bl];
			bstate[g] = b->state;
			for (size_t a = 0; a < n_arms; a++) {
				size_t m = 0;
				for (size_t r = b->first_round; r < b->first_round + b->n_rounds; r++)
					if (keep[r])
						tmp[m++] = (cyc[a * n + r] - ovh_cycles) / (double)batch;
				bm[a * nk + g] = m ? sb_trimmed_mean(tmp, m) : bsum[a * d->n_blocks + bl] / bcnt[bl];
			}
			if (sb_blocks_log_active()) {
				struct sb_block_row row = {b->tsc, part, batch, b->process, bl, b->state,
							   b->cpt, b->canary, b->window};
				for (size_t a = 0; a < n_arms; a++)
					sb_blocks_log_row(&row, tsc_hz, arms[a].name,
							  arms[a].is_overhead   ? "overhead"
							  : arms[a].is_baseline ? "baseline"
										: "variant",
							  bm[a * nk + g]);
			}
			g++;
		}
	size_t n_states_seen = 0, n_processes_seen = 0;
	for (size_t k = 0; k < g; k++)
		if (scount[bstate[k]]++ == 0)
			n_states_seen++;
	/* With fresh processes, a second grouping of the blocks: by process.
	 * The states and the processes are crossed (every process runs in
	 * many states), so each CI is computed both ways, the states' way
	 * giving the estimate, and the two deviations are added in quadrature:
	 * the spread between states (few of them: the kernel's 8 loads) and
	 * between processes both count; the blocks' own noise, in both, makes
	 * it conservative. */
	size_t *pcount = calloc(max_state + 1, sizeof(*pcount));
	size_t *bproc = malloc(nk * sizeof(*bproc));
	if (!pcount || !bproc) {
		free(pcount), free(bproc);
		free(cyc), free(keep), free(tmp), free(bsum), free(bcnt), free(bns);
		free(gm), free(mps), free(bm), free(bstate), free(label), free(in_ref), free(smean), free(scount), free(use);
		return -1;
	}
	for (size_t bl = 0, k = 0; bl < d->n_blocks; bl++)
		if (bcnt[bl] > 0)
			bproc[k++] = d->blocks[bl].process;
	for (size_t k = 0; k < g; k++)
		if (pcount[bproc[k]]++ == 0)
			n_processes_seen++;
	int by_process = n_processes_seen > 1;
	/* The processes the cell ran in, whether or not each kept a block. */
	size_t n_processes_ran = 0;
	for (size_t j = 0; j <= max_process; j++)
		for (size_t bl = 0; bl < d->n_blocks; bl++)
			if (d->blocks[bl].process == j) {
				n_processes_ran++;
				break;
			}
	/* Each arm's matching state: its lowest mode holding at least
	 * MATCH_MIN_SHARE of the blocks (else its largest). A rarer lowest
	 * mode is found in one run and missed in the next, and matching on it
	 * moved `matched` by whole cycles between runs. in_ref[a][k]: block k
	 * of arm a sits in that mode. */
	for (size_t a = 0; a < n_arms; a++) {
		struct sb_mode modes[SB_MAX_MODES];
		size_t nm = g ? sb_find_modes(bm + a * nk, g, MODE_MIN_SEP, modes, SB_MAX_MODES, label + a * nk) : 0;
		size_t ref = 0;
		while (ref < nm && modes[ref].share < MATCH_MIN_SHARE)
			ref++;
		if (ref == nm)
			for (size_t m = ref = 0; m < nm; m++)
				if (modes[m].share > modes[ref].share)
					ref = m;
		for (size_t k = 0; k < g; k++)
			in_ref[a * nk + k] = nm == 0 || label[a * nk + k] == ref;
	}

	size_t ci = 0;
	for (size_t a = 0; a < n_arms; a++) {
		if ((long)a == ovh)
			continue;
		struct sb_cell *c = &out->cells[ci * n_batches + bi];
		ci++;
		c->arm = &arms[a];
		c->batch = batch;
		c->overhead_cycles = ovh_cycles / (double)batch;
		c->n_outliers = outliers;
		c->n_states = n_states_seen;
		c->n_processes = n_processes_ran ? n_processes_ran : 1;
		size_t m = 0;
		for (size_t bl = 0; bl < d->n_blocks; bl++)
			if (d->blocks[bl].disturbed)
				c->n_disturbed += d->blocks[bl].n_rounds;
		for (size_t r = 0; r < n; r++)
			if (keep[r])
				tmp[m++] = (cyc[a * n + r] - ovh_cycles) / (double)batch;
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
					 "every kept round held an outlier (%zu of %zu blocks disturbed)", nd,
					 d->n_blocks);
		}
		/* The CI of the cycles: over the states' means when the arm ran
		 * in several states, else over the blocks' means; widened by the
		 * processes' spread when there were several. */
		struct sb_summary pstat;
		memset(&pstat, 0, sizeof(pstat));
		if (by_process) {
			size_t np = group_means(bm + a * nk, bproc, pcount, g, max_state, smean, gm);
			sb_summarize(gm, np, NULL, 0, &pstat);
		}
		size_t ng = 0;
		if (n_states_seen > 1) {
			ng = group_means(bm + a * nk, bstate, scount, g, max_state, smean, gm);
		} else {
			for (size_t k = 0; k < g; k++)
				gm[ng++] = bm[a * nk + k];
		}
		sb_summarize(tmp, m, gm, ng, &c->cycles);
		if (by_process && c->cycles.n)
			widen(c->cycles.mean, pstat.mean, pstat.ci_lo, pstat.ci_hi, &c->cycles.ci_lo, &c->cycles.ci_hi);
		c->n_modes = g ? sb_find_modes(bm + a * nk, g, MODE_MIN_SEP, c->modes, SB_MAX_MODES, NULL) : 0;
		if (c->n_modes > 1 && by_process)
			c->changed_in_time = changed_in_time(label + a * nk, bproc, g, max_process, &c->time_runs);
		m = 0;
		for (size_t r = 0; r < n; r++)
			if (keep[r])
				tmp[m++] = (d->ticks[a * d->cap + r] / tsc_hz * 1e9 - ovh_ns) / (double)batch;
		size_t gg = 0;
		for (size_t bl = 0; bl < d->n_blocks; bl++)
			if (bcnt[bl] > 0) {
				gm[gg] = bns[a * d->n_blocks + bl] / bcnt[bl];
				mps[gg] = gm[gg] > 0 ? 1e3 / gm[gg] : 0; /* M iterations per second */
				gg++;
			}
		sb_summarize(tmp, m, gm, gg, &c->ns);
		repetitions(d, bsum + a * d->n_blocks, bns + a * d->n_blocks, bcnt, batch, c);
		struct sb_summary ms;
		if (sb_summarize(mps, gg, NULL, 0, &ms) == 0) {
			c->runs_per_s_mean = ms.mean;
			c->runs_per_s_sd = ms.sd;
		}
		if (base >= 0 && (long)a != base && g) {
			double ratio, lo, hi;
			uint64_t s = seed ^ (a * 7919 + bi);
			if (sb_bootstrap_ratio_nested(bm + a * nk, bm + base * nk, bstate, g, N_BOOT, s, &ratio,
						      &lo, &hi) == 0) {
				double pr, plo, phi;
				if (by_process && sb_bootstrap_ratio_nested(bm + a * nk, bm + base * nk, bproc, g, N_BOOT,
									    s + 2, &pr, &plo, &phi) == 0)
					widen(ratio, pr, plo, phi, &lo, &hi);
				c->has_delta = 1;
				c->delta_pct = (ratio - 1) * 100;
				c->delta_lo_pct = (lo - 1) * 100;
				c->delta_hi_pct = (hi - 1) * 100;
			}
			/* Matched: blocks where both arms sit in their matching state. */
			for (size_t k = 0; k < g; k++)
				use[k] = in_ref[a * nk + k] && in_ref[base * nk + k];
			if (sb_bootstrap_diff_nested(bm + a * nk, bm + base * nk, bstate, use, g, N_BOOT, s + 1,
						     &c->matched_cycles, &c->matched_lo, &c->matched_hi) == 0) {
				double pd, plo, phi;
				if (by_process && sb_bootstrap_diff_nested(bm + a * nk, bm + base * nk, bproc, use, g,
									   N_BOOT, s + 3, &pd, &plo, &phi) == 0)
					widen(c->matched_cycles, pd, plo, phi, &c->matched_lo, &c->matched_hi);
				c->has_matched = 1;
			}
		}
	}
	free(bm), free(bstate), free(label), free(in_ref), free(smean), free(scount), free(use), free(pcount), free(bproc);
	free(cyc), free(keep), free(tmp), free(bsum), free(bcnt), free(bns);
	free(gm), free(mps);
	return 0;
}

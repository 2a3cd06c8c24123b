/* schedule.c: which segments run when (see set_run.h). In this
 * process, every part's batch sizes one after the other; with fresh
 * processes, each batch size's time or rounds split over them, the parts
 * taking turns. */
#include "set_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>

#include "base/wall_clock.h"

/* Share p of n of a batch size's time or rounds (0 rounds: nothing to run). */
static struct segment share_of(const struct segment *whole, size_t p, size_t n)
{
	struct segment sg = *whole;
	sg.process = p;
	sg.budget_ticks = whole->budget_ticks == UINT64_MAX ? UINT64_MAX : whole->budget_ticks / n;
	sg.samples = whole->samples ? (whole->samples * (p + 1)) / n - (whole->samples * p) / n : 0;
	sg.max_rounds = whole->max_rounds / n;
	return sg;
}

/* The wall-time bound of sb_run_opts.time_is_wall: the shares of the
 * processes still to run are scaled to the time left, less what each
 * process so far cost beyond its share (fork, exit, warm rounds). */
struct wall_budget {
	int on;
	double tsc_hz, end_s;  /* the process age by which the processes must be done */
	double nominal_left;   /* ticks of the unscaled shares still to run */
	double over_ticks;     /* what the processes so far took beyond their shares */
	size_t done;
};

static void wall_init(struct wall_budget *w, const struct set_run *parts, size_t n_sets)
{
	memset(w, 0, sizeof(*w));
	double total_s = 0;
	w->on = parts[0].o->time_is_wall && parts[0].tsc_hz > 0;
	/* Parts that share a process (one process_key, in turn) count once
	 * for the reserve: the statistics grow with the processes' groups. */
	size_t n_apart = 0;
	for (size_t q = 0; q < n_sets; q++) {
		size_t key = parts[q].o->process_key;
		n_apart += !(q + 1 < n_sets && key && parts[q + 1].o->process_key == key);
		total_s += parts[q].o->time_s;
		for (size_t bi = 0; bi < parts[q].o->n_batches; bi++) {
			if (parts[q].runs[bi].sg.budget_ticks == UINT64_MAX)
				w->on = 0;
			else
				w->nominal_left += (double)parts[q].runs[bi].sg.budget_ticks;
		}
	}
	w->tsc_hz = parts[0].tsc_hz;
	double reserve = SB_FINISH_RESERVE + SB_FINISH_RESERVE_SET * (double)n_apart;
	w->end_s = total_s * (1 - (reserve < SB_FINISH_RESERVE_MAX ? reserve : SB_FINISH_RESERVE_MAX));
}

/* The factor of the next process's shares, children_left processes
 * (this one included) still to run. */
static double wall_scale(const struct wall_budget *w, size_t children_left)
{
	if (!w->on || w->nominal_left <= 0)
		return 1;
	double over = w->done ? w->over_ticks / (double)w->done : 0;
	double avail = (w->end_s - sb_process_age_s()) * w->tsc_hz - over * (double)children_left;
	double k = avail / w->nominal_left;
	return k < 0.02 ? 0.02 : k > 3 ? 3 : k;
}

/* A part's segments sgs[0..n_sg) in this process, into ds[i], each one's
 * unused time carried to the next, the last one's waited out. */
static int segments_here(struct set_run *pr, const struct segment *sgs, size_t n_sg, struct batch_data **ds,
			 char *err, size_t errlen)
{
	uint64_t carry = 0;
	int rc = 0;
	for (size_t i = 0; i < n_sg && rc == 0; i++) {
		struct segment sg = sgs[i];
		sb_take_carry(&sg, carry);
		rc = sb_run_segment(pr->arms, pr->n_arms, pr->o, &sg, pr->order, pr->n_states, &pr->rng,
				    pr->delay_max, ds[i], &carry, err, errlen);
	}
	if (rc == 0)
		sb_wait_out(carry, pr->o);
	return rc;
}

int sb_run_here(struct set_run *parts, size_t n_sets, char *err, size_t errlen)
{
	int rc = 0;
	/* With time_is_wall the time is the process's age at the end, as with
	 * fresh processes: the shares are scaled to the time left after the
	 * setup (loading, placing, the parts measured before). */
	struct wall_budget wall;
	wall_init(&wall, parts, n_sets);
	double k = wall_scale(&wall, 1);
	for (size_t q = 0; q < n_sets && rc == 0; q++) {
		struct set_run *pr = &parts[q];
		size_t nb = pr->o->n_batches;
		struct segment *sgs = calloc(nb + 1, sizeof(*sgs));
		struct batch_data **ds = calloc(nb + 1, sizeof(*ds));
		if (!sgs || !ds) {
			free(sgs), free(ds);
			sb_run_err(err, errlen, "out of memory", NULL);
			return -1;
		}
		uint64_t t0 = __rdtsc();
		if (pr->o->before_set && pr->o->before_set(pr->o->set_ctx, err, errlen) != 0)
			rc = -1;
		for (size_t bi = 0; bi < nb && rc == 0; bi++) {
			struct segment sg = pr->runs[bi].sg;
			if (sg.budget_ticks != UINT64_MAX)
				sg.budget_ticks = (uint64_t)((double)sg.budget_ticks * k);
			sg.progress_from = (q + sg.progress_from) / (double)n_sets;
			sg.progress_span /= (double)n_sets;
			sgs[bi] = sg;
			ds[bi] = &pr->runs[bi].d;
		}
		if (rc == 0)
			rc = segments_here(pr, sgs, nb, ds, err, errlen);
		free(sgs), free(ds);
		pr->ticks += __rdtsc() - t0;
	}
	return rc;
}

/* Before process p (from 1) of every part: how many processes the time
 * left holds, p done and each of the others costing what those so far took
 * beyond their shares (at most half the time left goes to that cost); n
 * when all fit, at least 2 (the table's note and the JSON say how many ran; --verbose says
 * so on stderr). */
static size_t wall_processes(const struct wall_budget *w, size_t n_sets, size_t n, size_t p, int verbose)
{
	if (!w->on || !w->done || n <= 2)
		return n;
	double over_s = w->over_ticks / (double)w->done / w->tsc_hz;
	double left_s = w->end_s - sb_process_age_s();
	if (over_s <= 0)
		return n;
	double fit = (double)p + 0.5 * left_s / (over_s * (double)n_sets);
	if (fit >= (double)n)
		return n;
	size_t m = fit < 2 ? 2 : (size_t)fit;
	if (verbose)
		fprintf(stderr, "stubbench: --time holds %zu of the %zu fresh processes (each takes %.0f ms to start, "
			"warm up and end); more time for all of them\n", m, n, 1e3 * over_s);
	return m;
}

/* Process p's parts cps[0..n_cp) (parts[cp_part[c]]) in a fresh child,
 * the first to run `first`; or, alone (no fresh processes but a contained
 * part elsewhere: one_process) and neither contained nor asking for
 * processes, in this one. Each part is charged its share of the time it
 * took (*took, TSC ticks). Returns as sb_run_in_child. */
static int run_process(struct set_run *parts, const struct sb_child_set *cps, const size_t *cp_part, size_t n_cp,
		       int one_process, size_t first, const struct sb_span *skip, size_t n_skip, double *took,
		       char *err, size_t errlen)
{
	struct set_run *pr = &parts[cp_part[0]];
	uint64_t t0 = __rdtsc();
	int rc;
	if (one_process && n_cp == 1 && !pr->o->contain && pr->o->processes <= 1)
		rc = pr->o->before_set && pr->o->before_set(pr->o->set_ctx, err, errlen) != 0
			     ? -1
			     : segments_here(pr, cps[0].sgs, cps[0].n_sg, cps[0].ds, err, errlen);
	else /* parts sharing a process start in turn: which of them runs first rotates */
		rc = sb_run_in_child(cps, n_cp, first, skip, n_skip, pr->tsc_hz, err, errlen);
	*took = (double)(__rdtsc() - t0);
	for (size_t c = 0; c < n_cp; c++)
		parts[cp_part[c]].ticks += (uint64_t)(*took / (double)n_cp);
	return rc;
}

/* Every part's batch sizes' blocks split over n fresh processes, one after
 * the other on the same CPU, taking the parts and, within a part, the batch
 * sizes in turn (process 1 of each part, each running its share of every
 * batch size, then process 2 of each, ...): the processes of one cell are
 * spread over the whole run, so whatever drifts on the host over seconds
 * is sampled by every cell's spread between processes instead of falling
 * on one cell's (or one part's) processes all at once. */
int sb_run_processes(struct set_run *parts, size_t n_sets, size_t n, char *err, size_t errlen)
{
	size_t max_nb = 0, n_spans = 0;
	for (size_t q = 0; q < n_sets; q++) {
		n_spans += 2 * parts[q].o->n_batches;
		if (parts[q].o->n_batches > max_nb)
			max_nb = parts[q].o->n_batches;
	}
	struct sb_span *skip = calloc(n_spans + 1, sizeof(*skip));
	struct segment *sgs = calloc(n_sets * max_nb + 1, sizeof(*sgs));
	struct batch_data **ds = calloc(n_sets * max_nb + 1, sizeof(*ds));
	struct sb_child_set *cps = calloc(n_sets + 1, sizeof(*cps));
	size_t *cp_part = calloc(n_sets + 1, sizeof(*cp_part)); /* the part each of cps is */
	if (!skip || !sgs || !ds || !cps || !cp_part) {
		free(skip), free(sgs), free(ds), free(cps), free(cp_part);
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	int rc = 0;
	struct wall_budget wall;
	wall_init(&wall, parts, n_sets);
	for (size_t p = 0; p < n && rc == 0; p++) {
		if (p >= 1)
			n = wall_processes(&wall, n_sets, n, p, parts[0].o->verbose && p == 1);
		if (p >= n)
			break;
		if (p > 0 && parts[0].o->between_processes && parts[0].o->between_processes(p, n, err, errlen) != 0) {
			rc = -1;
			break;
		}
		/* The parent's sample buffers, which every child leaves shared. */
		size_t k = 0;
		for (size_t r = 0; r < n_sets; r++)
			for (size_t bi = 0; bi < parts[r].o->n_batches; bi++) {
				const struct batch_data *d = &parts[r].runs[bi].d;
				skip[k++] = (struct sb_span){d->ticks, d->cap * parts[r].n_arms * sizeof(*d->ticks)};
				skip[k++] = (struct sb_span){d->blocks, d->blocks_cap * sizeof(*d->blocks)};
			}
		size_t n_cp = 0;
		double nominal = 0, given = 0;
		for (size_t q = 0; q < n_sets && rc == 0; q++) {
			struct set_run *pr = &parts[q];
			const struct sb_run_opts *o = pr->o;
			size_t nb = o->n_batches;
			if (o->stop && o->stop()) {
				sb_run_err(err, errlen, "interrupted", NULL);
				rc = -1;
				break;
			}
			/* Process p of part q: its share of every batch size, in turn. */
			struct segment *psg = sgs + q * max_nb;
			struct batch_data **pds = ds + q * max_nb;
			size_t n_sg = 0;
			double scale = wall_scale(&wall, (n - p) * n_sets - q);
			for (size_t bi = 0; bi < nb; bi++) {
				struct segment sg = share_of(&pr->runs[bi].sg, p, n);
				if (wall.on) {
					nominal += (double)sg.budget_ticks;
					sg.budget_ticks = (uint64_t)((double)sg.budget_ticks * scale);
					given += (double)sg.budget_ticks;
				}
				if (pr->runs[bi].sg.samples && sg.samples == 0)
					continue;
				sg.progress_from = (double)((p * n_sets + q) * nb + bi) / (double)(n * n_sets * nb);
				sg.progress_span = 1.0 / (double)(n * n_sets * nb);
				if (o->process_key) /* the same for every part of the process */
					sg.order_seed = sb_seed_stream(o->seed, SB_SEED_ORDER, p * nb + bi);
				psg[n_sg] = sg;
				pds[n_sg++] = &pr->runs[bi].d;
			}
			if (n_sg)
				cp_part[n_cp] = q, cps[n_cp++] = (struct sb_child_set){.arms = pr->arms, .n_arms = pr->n_arms, .o = o,
								     .sgs = psg, .n_sg = n_sg, .order = pr->order,
								     .n_states = pr->n_states, .seed = sb_rng_next(&pr->rng),
								     .delay_max = pr->delay_max, .ds = pds};
			/* Parts that share processes go into one child together. */
			int joins_next = q + 1 < n_sets && o->process_key && parts[q + 1].o->process_key == o->process_key;
			if (!n_cp || joins_next)
				continue;
			double took = 0;
			rc = run_process(parts, cps, cp_part, n_cp, n == 1, p % n_cp, skip, k, &took, err, errlen);
			wall.nominal_left -= nominal;
			wall.over_ticks += took > given ? took - given : 0;
			wall.done += n_cp;
			n_cp = 0, nominal = 0, given = 0;
		}
	}
	free(sgs);
	free(ds);
	free(skip);
	free(cps);
	free(cp_part);
	for (size_t q = 0; q < n_sets && rc == 0; q++)
		if (parts[q].o->stop && parts[q].o->stop()) {
			sb_run_err(err, errlen, "interrupted", NULL);
			rc = -1;
		}
	return rc;
}

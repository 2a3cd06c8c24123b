/* paired_placements.c: a - b over placements, hierarchical bootstrap; see
 * paired_placements.h. */
#include "stats/paired_placements.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"

#define MODE_MIN_SEP 0.3 /* cycles: closer differences are one mode */

/* The blocks sorted by placement, then process: cells of one placement and
 * one process, and the placements as runs of cells. */
struct layout {
	size_t *block;       /* block indices, sorted */
	size_t *cell_start;  /* cell c: block[cell_start[c] .. cell_start[c + 1]) */
	size_t *place_start; /* placement p: cells place_start[p] .. place_start[p + 1] */
	size_t *place_key;   /* placement p's key (its major value), ascending */
	size_t n_cells, n_places;
};

struct key {
	size_t place, proc, i;
};

static int cmp_key(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void layout_free(struct layout *l)
{
	free(l->block), free(l->cell_start), free(l->place_start), free(l->place_key);
	memset(l, 0, sizeof(*l));
}

/* Groups n blocks by (major, minor) (major NULL: each block its own group;
 * minor NULL: one). 0, or -1 out of memory. */
static int layout_of(const size_t *major, const size_t *minor, size_t n, struct layout *l)
{
	struct key *k = malloc(n * sizeof(*k));
	l->block = malloc(n * sizeof(*l->block));
	l->cell_start = malloc((n + 1) * sizeof(*l->cell_start));
	l->place_start = malloc((n + 1) * sizeof(*l->place_start));
	l->place_key = malloc((n + 1) * sizeof(*l->place_key));
	if (!k || !l->block || !l->cell_start || !l->place_start || !l->place_key) {
		free(k);
		layout_free(l);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		k[i] = (struct key){major ? major[i] : i, minor ? minor[i] : 0, i};
	qsort(k, n, sizeof(*k), cmp_key);
	l->n_cells = l->n_places = 0;
	for (size_t i = 0; i < n; i++) {
		l->block[i] = k[i].i;
		int new_place = i == 0 || k[i].place != k[i - 1].place;
		if (new_place) {
			l->place_key[l->n_places] = k[i].place;
			l->place_start[l->n_places++] = l->n_cells;
		}
		if (new_place || k[i].proc != k[i - 1].proc)
			l->cell_start[l->n_cells++] = i;
	}
	l->cell_start[l->n_cells] = n;
	l->place_start[l->n_places] = l->n_cells;
	free(k);
	return 0;
}

/* The mean difference of placement p: cells and blocks drawn with
 * replacement when rng is given, else all of them, each cell weighing the
 * same. */
static double place_mean(const struct layout *l, const double *d, size_t p, struct sb_rng *rng)
{
	size_t c0 = l->place_start[p], nc = l->place_start[p + 1] - c0;
	double sum = 0;
	for (size_t t = 0; t < nc; t++) {
		size_t c = c0 + (rng && nc > 1 ? (size_t)sb_rng_below(rng, nc) : t);
		size_t b0 = l->cell_start[c], nb = l->cell_start[c + 1] - b0;
		double cs = 0;
		for (size_t u = 0; u < nb; u++)
			cs += d[l->block[b0 + (rng && nb > 1 ? (size_t)sb_rng_below(rng, nb) : u)]];
		sum += cs / (double)nb;
	}
	return sum / (double)nc;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

/* The 2.5th and 97.5th percentiles of r[0..n) (sorted here). */
static void percentiles(double *r, size_t n, double *lo, double *hi)
{
	sb_sort(r, n);
	*lo = sb_percentile_sorted(r, n, 2.5);
	*hi = sb_percentile_sorted(r, n, 97.5);
}

/* [*lo, *hi] about est widened for g groups (t(g - 1) / 1.96 x sqrt(g / (g - 1))). */
static void widen_for_few(size_t g, double est, double *lo, double *hi)
{
	if (g < 2)
		return;
	double f = sb_t95(g - 1) / 1.96 * sqrt((double)g / (double)(g - 1));
	*lo = est - (est - *lo) * f;
	*hi = est + (*hi - est) * f;
}

/* What is compared: the groups of one layout (its placements, or its
 * processes) over the blocks' differences d. */
struct pairing {
	const struct layout *l;
	const double *d;
	size_t g;
};

/* The difference of group j (resampled within with rng, if given). */
static double pair_mean(const struct pairing *pp, size_t j, struct sb_rng *rng)
{
	return place_mean(pp->l, pp->d, j, rng);
}

/* Bootstrap of the mean and median over the groups of pp: lo/hi of each. */
static int boot(const struct pairing *pp, unsigned n_boot, uint64_t seed, double ci[4])
{
	size_t g = pp->g;
	double *pm = malloc(g * sizeof(*pm)), *rm = malloc(n_boot * sizeof(*rm)), *rd = malloc(n_boot * sizeof(*rd));
	if (!pm || !rm || !rd) {
		free(pm), free(rm), free(rd);
		return -1;
	}
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	for (unsigned bt = 0; bt < n_boot; bt++) {
		for (size_t j = 0; j < g; j++)
			pm[j] = pair_mean(pp, g > 1 ? (size_t)sb_rng_below(&rng, g) : 0, &rng);
		rm[bt] = mean_of(pm, g);
		rd[bt] = sb_median(pm, g);
	}
	percentiles(rm, n_boot, &ci[0], &ci[1]);
	percentiles(rd, n_boot, &ci[2], &ci[3]);
	free(pm), free(rm), free(rd);
	return 0;
}

/* The point estimates over pp's groups (their differences in pm, room for
 * pp->g) and the CIs of the mean and median, widened for few groups; ci
 * stays NaN when there is nothing to resample. 0, or -1 out of memory. */
static int estimate_over(const struct pairing *pp, unsigned n_boot, uint64_t seed, double *pm, double est[2],
			 double ci[4])
{
	for (size_t j = 0; j < pp->g; j++)
		pm[j] = pair_mean(pp, j, NULL);
	est[0] = mean_of(pm, pp->g), est[1] = sb_median(pm, pp->g);
	for (int i = 0; i < 4; i++)
		ci[i] = NAN;
	if (n_boot < 2 || pp->g < 2)
		return 0;
	if (boot(pp, n_boot, seed, ci) != 0)
		return -1;
	widen_for_few(pp->g, est[0], &ci[0], &ci[1]);
	widen_for_few(pp->g, est[1], &ci[2], &ci[3]);
	return 0;
}

/* lo/hi about est widened by the deviations of a second interval about its
 * own estimate, in quadrature on each side. */
static void widen_by(double est, double pest, double plo, double phi, double *lo, double *hi)
{
	*lo = est - hypot(est - *lo, pest - plo);
	*hi = est + hypot(*hi - est, phi - pest);
}

/* The figures of out from the blocks' differences d by placement (pl) and
 * by process (pr, NULL: one process). 0, or -1 out of memory. */
static int paired_figures(const struct layout *pl, const struct layout *pr, const double *d, unsigned n_boot,
			  uint64_t seed, struct sb_paired *out)
{
	struct pairing byplace = {.l = pl, .d = d, .g = pl->n_places};
	struct pairing byproc = {.l = pr, .d = d, .g = pr ? pr->n_places : 0};
	size_t room = pl->n_places + (pr ? pr->n_places : 0) + 1;
	double *pm = malloc(room * sizeof(*pm)), est[2], ci[4], pest[2], pci[4];
	int rc = -1;
	if (!pm)
		goto out;
	if (byplace.g == 0) {
		out->mean = out->median = sb_estimate_absent("no placement measured in both arms");
		rc = 0;
		goto out;
	}
	if (estimate_over(&byplace, n_boot, seed, pm, est, ci) != 0)
		goto out;
	out->n_placements = byplace.g;
	out->n_processes = pr ? byproc.g : 1;
	out->n_modes = sb_find_modes(pm, byplace.g, MODE_MIN_SEP, out->modes, SB_MAX_MODES, NULL);
	/* Processes are crossed with placements (every process runs many, and
	 * what a process fixes moves all of them): a second bootstrap over
	 * processes, then blocks, added in quadrature on each side, its
	 * resamples a stream of their own from seed. */
	if (!isnan(ci[0]) && out->n_processes > 1) {
		if (estimate_over(&byproc, n_boot, sb_seed_stream(seed, SB_SEED_BOOTSTRAP, 1), pm, pest, pci) != 0)
			goto out;
		widen_by(est[0], pest[0], pci[0], pci[1], &ci[0], &ci[1]);
		widen_by(est[1], pest[1], pci[2], pci[3], &ci[2], &ci[3]);
	}
	out->mean = sb_estimate_of(est[0], ci[0], ci[1]);
	out->median = sb_estimate_of(est[1], ci[2], ci[3]);
	rc = 0;
out:
	free(pm);
	return rc;
}

int sb_paired_over_placements(const double *a, const double *b, const size_t *placement, const size_t *process,
			      size_t n, unsigned n_boot, uint64_t seed, struct sb_paired *out)
{
	memset(out, 0, sizeof(*out));
	out->mean = out->median = sb_estimate_absent("no blocks");
	if (n == 0)
		return -1;
	double *d = malloc(n * sizeof(*d));
	struct layout byplace = {0}, byproc = {0};
	int rc = -1;
	if (!d || layout_of(placement, process, n, &byplace) != 0 ||
	    (process && layout_of(process, NULL, n, &byproc) != 0))
		goto out;
	for (size_t i = 0; i < n; i++)
		d[i] = a[i] - b[i];
	rc = paired_figures(&byplace, process ? &byproc : NULL, d, n_boot, seed, out);
out:
	free(d);
	layout_free(&byplace), layout_free(&byproc);
	return rc;
}

/* The mean of cell c of l over the blocks' values v. */
static double cell_mean(const struct layout *l, const double *v, size_t c)
{
	double sum = 0;
	for (size_t u = l->cell_start[c]; u < l->cell_start[c + 1]; u++)
		sum += v[l->block[u]];
	return sum / (double)(l->cell_start[c + 1] - l->cell_start[c]);
}

/* The (placement, process) cells of a and b (layouts la, lb) that both
 * have, walked in their sorted order: per cell a's mean in ca, b's in cb,
 * its placement and process; the number of cells, or -1 out of memory. */
static long common_cells(const struct sb_arm_blocks *a, const struct layout *la, const struct sb_arm_blocks *b,
			 const struct layout *lb, double **ca, double **cb, size_t **pl, size_t **pr)
{
	size_t most = la->n_cells < lb->n_cells ? la->n_cells : lb->n_cells, m = 0;
	*ca = malloc((most + 1) * sizeof(**ca)), *cb = malloc((most + 1) * sizeof(**cb));
	*pl = malloc((most + 1) * sizeof(**pl)), *pr = malloc((most + 1) * sizeof(**pr));
	if (!*ca || !*cb || !*pl || !*pr)
		return -1;
	size_t pa = 0, pb = 0;
	for (size_t x = 0, y = 0; x < la->n_cells && y < lb->n_cells;) {
		while (la->place_start[pa + 1] <= x)
			pa++;
		while (lb->place_start[pb + 1] <= y)
			pb++;
		size_t ka = la->place_key[pa], kb = lb->place_key[pb];
		size_t qa = a->process ? a->process[la->block[la->cell_start[x]]] : 0;
		size_t qb = b->process ? b->process[lb->block[lb->cell_start[y]]] : 0;
		if (ka != kb || qa != qb) {
			if (ka < kb || (ka == kb && qa < qb))
				x++;
			else
				y++;
			continue;
		}
		(*ca)[m] = cell_mean(la, a->value, x) + a->removed, (*cb)[m] = cell_mean(lb, b->value, y) + b->removed;
		(*pl)[m] = ka, (*pr)[m++] = qa;
		x++, y++;
	}
	return (long)m;
}

int sb_paired_between_placements(const struct sb_arm_blocks *a, const struct sb_arm_blocks *b, unsigned n_boot,
				 uint64_t seed, struct sb_paired *out)
{
	memset(out, 0, sizeof(*out));
	out->mean = out->median = sb_estimate_absent("no blocks");
	if (a->n == 0 || b->n == 0)
		return -1;
	struct layout la = {0}, lb = {0};
	double *ca = NULL, *cb = NULL;
	size_t *pl = NULL, *pr = NULL;
	size_t *one = calloc(a->n > b->n ? a->n : b->n, sizeof(*one)); /* a NULL placement: one for all */
	long m = -1;
	if (one && layout_of(a->placement ? a->placement : one, a->process, a->n, &la) == 0 &&
	    layout_of(b->placement ? b->placement : one, b->process, b->n, &lb) == 0)
		m = common_cells(a, &la, b, &lb, &ca, &cb, &pl, &pr);
	int rc = m < 0 ? -1 : 0;
	if (m == 0 || m == 1)
		out->mean = out->median =
			sb_estimate_absent(m ? "one placement and process in both, no CI: a longer --time"
					     : "no placement and process in both: a longer --time");
	else if (m > 1) {
		/* All at one placement: each cell a placement of its own. */
		int one_place = pl[0] == pl[m - 1];
		rc = sb_paired_over_placements(ca, cb, one_place ? NULL : pl,
					       a->process && b->process && !one_place ? pr : NULL, (size_t)m, n_boot,
					       seed, out);
	}
	free(one), free(ca), free(cb), free(pl), free(pr);
	layout_free(&la), layout_free(&lb);
	return rc;
}

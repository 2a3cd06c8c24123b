/* paired_placements.c: a - b over placements, hierarchical bootstrap; see
 * paired_placements.h. */
#include "stubbench/paired_placements.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/rng.h"

#define MODE_MIN_SEP 0.3 /* cycles: closer differences are one mode */

/* The blocks sorted by placement, then process: cells of one placement and
 * one process, and the placements as runs of cells. */
struct layout {
	size_t *block;       /* block indices, sorted */
	size_t *cell_start;  /* cell c: block[cell_start[c] .. cell_start[c + 1]) */
	size_t *place_start; /* placement p: cells place_start[p] .. place_start[p + 1] */
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
	free(l->block), free(l->cell_start), free(l->place_start);
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
	if (!k || !l->block || !l->cell_start || !l->place_start) {
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
		if (new_place)
			l->place_start[l->n_places++] = l->n_cells;
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

/* Bootstrap of the mean and median over the groups of l: lo/hi of each. */
static int boot(const struct layout *l, const double *d, unsigned n_boot, uint64_t seed, double ci[4])
{
	size_t g = l->n_places;
	double *pm = malloc(g * sizeof(*pm)), *rm = malloc(n_boot * sizeof(*rm)), *rd = malloc(n_boot * sizeof(*rd));
	if (!pm || !rm || !rd) {
		free(pm), free(rm), free(rd);
		return -1;
	}
	struct sb_rng rng;
	sb_rng_seed(&rng, seed);
	for (unsigned bt = 0; bt < n_boot; bt++) {
		for (size_t j = 0; j < g; j++)
			pm[j] = place_mean(l, d, g > 1 ? (size_t)sb_rng_below(&rng, g) : 0, &rng);
		rm[bt] = mean_of(pm, g);
		rd[bt] = sb_median(pm, g);
	}
	percentiles(rm, n_boot, &ci[0], &ci[1]);
	percentiles(rd, n_boot, &ci[2], &ci[3]);
	free(pm), free(rm), free(rd);
	return 0;
}

/* lo/hi about est widened by the deviations of a second interval about its
 * own estimate, in quadrature on each side. */
static void widen_by(double est, double pest, double plo, double phi, double *lo, double *hi)
{
	*lo = est - hypot(est - *lo, pest - plo);
	*hi = est + hypot(*hi - est, phi - pest);
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
	double *pm = d ? malloc(n * sizeof(*pm)) : NULL;
	int rc = -1;
	if (!pm || layout_of(placement, process, n, &byplace) != 0 ||
	    (process && layout_of(process, NULL, n, &byproc) != 0))
		goto out;
	for (size_t i = 0; i < n; i++)
		d[i] = a[i] - b[i];
	size_t g = byplace.n_places;
	for (size_t j = 0; j < g; j++)
		pm[j] = place_mean(&byplace, d, j, NULL);
	double mean = mean_of(pm, g), median = sb_median(pm, g);
	out->n_placements = g;
	out->n_processes = process ? byproc.n_places : 1;
	out->n_modes = sb_find_modes(pm, g, MODE_MIN_SEP, out->modes, SB_MAX_MODES, NULL);
	double ci[4] = {NAN, NAN, NAN, NAN};
	if (g > 1 && n_boot > 1) {
		if (boot(&byplace, d, n_boot, seed, ci) != 0)
			goto out;
		widen_for_few(g, mean, &ci[0], &ci[1]);
		widen_for_few(g, median, &ci[2], &ci[3]);
		if (out->n_processes > 1) {
			size_t np = byproc.n_places;
			double pci[4];
			for (size_t p = 0; p < np; p++)
				pm[p] = place_mean(&byproc, d, p, NULL);
			double pmean = mean_of(pm, np), pmedian = sb_median(pm, np);
			if (boot(&byproc, d, n_boot, seed + 1, pci) != 0)
				goto out;
			widen_for_few(np, pmean, &pci[0], &pci[1]);
			widen_for_few(np, pmedian, &pci[2], &pci[3]);
			widen_by(mean, pmean, pci[0], pci[1], &ci[0], &ci[1]);
			widen_by(median, pmedian, pci[2], pci[3], &ci[2], &ci[3]);
		}
	}
	out->mean = sb_estimate_of(mean, ci[0], ci[1]);
	out->median = sb_estimate_of(median, ci[2], ci[3]);
	rc = 0;
out:
	free(d), free(pm);
	layout_free(&byplace), layout_free(&byproc);
	return rc;
}

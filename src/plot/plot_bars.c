/* plot_bars.c: the lab drawn as ranked bars: a panel per return flavour
 * (a row each: ret, rethunk, calldepth, srso, srso-alias) and shape (a
 * column each), in which the alternatives' cost vs their baseline at the
 * panel's largest batch (with CIs, where there is one) stands as bars
 * with CI whiskers, cheapest first, in a colour fixed per alternative; the placement control's CI is a grey
 * band across the panel, so that what overlaps it reads as
 * indistinguishable from it. */
#include "plot_script.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const shapes[] = {"per-run", "in-loop"};
static const char *const returns[] = {"ret", "rethunk", "calldepth", "srso", "srso-alias"};
static const char *const alternatives[] = {"mainline", "reload", "callee-saved", "spill-once", "placement-control"};
static const int alternative_colours[] = {PLOT_BLUE, PLOT_VERMILLION, PLOT_GREEN, PLOT_ORANGE, PLOT_GREY};
#define N_SHAPES 2
#define N_RETURNS 5
#define N_ALTERNATIVES 5
#define MAX_BARS 12

struct bar {
	const struct sb_run_row *row;
	const struct sb_estimate *e;
};

struct bar_panel {
	uint64_t batch; /* the bars' */
	struct bar bars[MAX_BARS];
	int n;
	int index; /* its block in the data */
};

static int index_of(const char *const *list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

/* An alternative of the lab at no other placement with the figure known. */
static const struct sb_estimate *bar_figure(const struct plot_job *job, const struct sb_run_row *r)
{
	const struct sb_estimate *e = &r->figures[job->figure];
	if (r->key.side != SB_SIDE_LAB || r->key.placement >= 0 || strcmp(r->key.codegen, "baseline") == 0)
		return NULL;
	return sb_estimate_known(e) && isfinite(e->value) ? e : NULL;
}

/* The largest batch at which an alternative in return ret and shape has
 * the figure with a CI (else without one); 0 when none. */
static uint64_t bar_batch(const struct plot_job *job, int ret, int shape)
{
	uint64_t with_ci = 0, any = 0;
	for (size_t i = 0; i < job->run->n_rows; i++) {
		const struct sb_run_row *r = &job->run->rows[i];
		const struct sb_estimate *e = bar_figure(job, r);
		if (!e || strcmp(r->key.ret, returns[ret]) || strcmp(r->key.shape, shapes[shape]))
			continue;
		any = r->batch > any ? r->batch : any;
		if (isfinite(e->lo) && isfinite(e->hi) && r->batch > with_ci)
			with_ci = r->batch;
	}
	return with_ci ? with_ci : any;
}

static int cmp_bar(const void *a, const void *b)
{
	double x = ((const struct bar *)a)->e->value, y = ((const struct bar *)b)->e->value;
	return (x > y) - (x < y);
}

static int colour_of(const struct sb_run_row *r)
{
	int a = index_of(alternatives, N_ALTERNATIVES, r->key.codegen);
	return a < 0 ? PLOT_PINK : alternative_colours[a];
}

/* The bars of every panel (return * N_SHAPES + shape), sorted. */
static int collect(const struct plot_job *job, struct bar_panel *panels)
{
	int n = 0;
	for (int p = 0; p < N_SHAPES * N_RETURNS; p++)
		panels[p].batch = bar_batch(job, p / N_SHAPES, p % N_SHAPES);
	for (size_t i = 0; i < job->run->n_rows; i++) {
		const struct sb_run_row *r = &job->run->rows[i];
		const struct sb_estimate *e = bar_figure(job, r);
		int s = index_of(shapes, N_SHAPES, r->key.shape), ret = index_of(returns, N_RETURNS, r->key.ret);
		if (!e || s < 0 || ret < 0)
			continue;
		struct bar_panel *p = &panels[ret * N_SHAPES + s];
		if (r->batch == p->batch && p->n < MAX_BARS)
			p->bars[p->n++] = (struct bar){r, e}, n++;
	}
	for (int p = 0; p < N_SHAPES * N_RETURNS; p++)
		qsort(panels[p].bars, (size_t)panels[p].n, sizeof(struct bar), cmp_bar);
	return n;
}

/* A block per panel with bars (gnuplot's index: its place among them). */
static void write_data(FILE *dat, const struct plot_job *job, struct bar_panel *panels)
{
	plot_data_header(dat, job, "rank, value, CI low, CI high, colour; a block per panel");
	int index = 0;
	for (int p = 0; p < N_SHAPES * N_RETURNS; p++) {
		if (!panels[p].n)
			continue;
		panels[p].index = index;
		fprintf(dat, "%s# %s, %s, batch %llu\n", index++ ? "\n\n" : "", shapes[p % N_SHAPES],
			returns[p / N_SHAPES], (unsigned long long)panels[p].batch);
		for (int i = 0; i < panels[p].n; i++) {
			const struct bar *b = &panels[p].bars[i];
			char name[128];
			plot_clean_text(b->row->variant, name, sizeof(name));
			fprintf(dat, "# %s\n%d", name, i);
			plot_put_num(dat, b->e->value);
			plot_put_num(dat, b->e->lo);
			plot_put_num(dat, b->e->hi);
			fprintf(dat, " %d\n", colour_of(b->row));
		}
	}
}

/* The placement control's bar in p, or NULL. */
static const struct bar *control_of(const struct bar_panel *p)
{
	for (int i = 0; i < p->n; i++)
		if (strcmp(p->bars[i].row->key.codegen, "placement-control") == 0)
			return &p->bars[i];
	return NULL;
}

static void write_panel(FILE *gp, const struct bar_panel *panels, int p)
{
	const struct bar_panel *bp = &panels[p];
	struct plot_range range;
	plot_range_init(&range);
	for (int i = 0; i < bp->n; i++)
		plot_range_add(&range, bp->bars[i].e->value, bp->bars[i].e->lo, bp->bars[i].e->hi);
	double lo, hi;
	int cut = 0;
	plot_range_get(&range, 1, &lo, &hi);
	for (int i = 0; i < bp->n; i++)
		cut |= bp->bars[i].e->lo < lo || bp->bars[i].e->hi > hi;
	const struct bar *control = control_of(bp);
	int band = control && isfinite(control->e->lo) && isfinite(control->e->hi);
	char title[256];
	snprintf(title, sizeof(title), "%s, %s, batch %llu%s", shapes[p % N_SHAPES], returns[p / N_SHAPES],
		 (unsigned long long)bp->batch, cut ? "; cut whiskers run on" : "");
	fputs("set title ", gp);
	plot_put_quoted(gp, title); /* this file's own */
	fprintf(gp, " noenhanced\nset yrange [%.6g:%.6g]\nset xrange [-0.6:%g]\nset xtics (", lo, hi, bp->n - 0.4);
	for (int i = 0; i < bp->n; i++) {
		fputs(i ? ", " : "", gp);
		plot_put_label(gp, bp->bars[i].row->key.codegen);
		fprintf(gp, " %d", i);
	}
	fputs(")\n", gp);
	if (band)
		fprintf(gp, "set object 1 rect from graph 0, first %.6g to graph 1, first %.6g behind "
			    "fc rgb '#999999' fs transparent solid 0.2 noborder\n", control->e->lo, control->e->hi);
	else
		fputs("unset object 1\n", gp);
	fprintf(gp, "plot sb_data index %d using 1:2:5 with boxes lc variable notitle, \\\n"
		    "     sb_data index %d using 1:2:3:4 with yerrorbars lc rgb '#000000' pt 7 ps 0.5 lw 1.5 notitle\n",
		bp->index, bp->index);
	fputs("unset label 1\n", gp); /* the subtitle: drawn once */
}

int plot_bars(const struct plot_job *job, FILE *dat, FILE *gp, char *err, size_t errlen)
{
	struct bar_panel panels[N_SHAPES * N_RETURNS];
	memset(panels, 0, sizeof(panels));
	if (collect(job, panels) == 0) {
		snprintf(err, errlen, "plot: %s: no result to plot: no lab alternative has a cost vs its baseline", job->run->path);
		return -1;
	}
	int rows = 0;
	for (int ret = 0; ret < N_RETURNS; ret++)
		rows += panels[ret * N_SHAPES].n + panels[ret * N_SHAPES + 1].n > 0;
	write_data(dat, job, panels);
	/* Room above the panels for the title and the subtitle, between them
	 * for a panel's bar names and the next one's title. */
	int height = 100 + 320 * rows;
	char layout[160];
	snprintf(layout, sizeof(layout), "margins 0.06, 0.98, %.4f, %.4f spacing 0.06, %.4f", 40.0 / height,
		 1 - 100.0 / height, 70.0 / height);
	plot_begin(gp, job, height, rows, N_SHAPES, layout);
	fprintf(gp, "set label 1 'each alternative''s cost vs its baseline, cheapest first, with its 95%% CI; "
		    "grey band: the placement control''s CI' at screen 0.5, screen %.4f center noenhanced\n",
		1 - 45.0 / height);
	fputs("set style fill solid 0.85 border lc rgb '#333333'\nset boxwidth 0.65\nset xzeroaxis lt -1 lw 1\n"
	      "set grid noxtics ytics\nset xtics scale 0 noenhanced\nunset key\nset ylabel ", gp);
	plot_put_quoted(gp, plot_figure_axis(job->figure)); /* the figure table's */
	fputc('\n', gp);
	for (int ret = 0; ret < N_RETURNS; ret++) {
		if (panels[ret * N_SHAPES].n + panels[ret * N_SHAPES + 1].n == 0)
			continue;
		for (int s = 0; s < N_SHAPES; s++) {
			if (panels[ret * N_SHAPES + s].n)
				write_panel(gp, panels, ret * N_SHAPES + s);
			else
				fputs("set multiplot next\n", gp); /* keeps the shapes in their columns */
		}
	}
	fputs("unset multiplot\nset output\n", gp);
	return 0;
}

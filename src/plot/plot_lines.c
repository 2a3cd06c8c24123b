/* plot_lines.c: runs drawn as lines over the batch size: the main sweep
 * (cost per iteration, and the cost vs baseline, per variant), the kernel
 * run (per shape and codegen, the cost the variant adds in the kernel, in
 * its twin and in the twin placed like the loads: one colour per side in
 * every panel) and the footprint (cost vs copies). Each panel's y range is
 * set by batch >= 64 when the small batches sit far apart. */
#include "plot_script.h"

#include <math.h>
#include <string.h>

#include "output/figures.h"

#define MAX_PANELS 16
#define MAX_SERIES 96
#define MAX_CODEGENS 3
enum { METRIC_CYCLES = -1 };

struct line_panel {
	char title[256];
	int metric; /* METRIC_CYCLES or a figure index */
};

struct line_series {
	const char *variant; /* its rows: this name, in its panel */
	int panel, colour, point;
	int slot; /* its place side by side at a batch: the same in every panel */
	char legend[128];
};

struct line_plot {
	const struct plot_job *job;
	enum plot_line_kind kind;
	struct line_panel panels[MAX_PANELS];
	int n_panels, cols;
	const char *codegens[MAX_CODEGENS]; /* kernel: the panels' columns */
	int n_codegens;
	struct line_series series[MAX_SERIES];
	int n_left_out;                   /* rows of series past MAX_SERIES: the plot is refused */
	int n_series;
};

static const char *const kernel_shapes[] = {"per-run", "in-loop", "htab"};
#define N_KERNEL_SHAPES 3

static int index_of(const char *const *list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

static const struct sb_estimate *metric_of(const struct sb_run_row *r, int m)
{
	return m == METRIC_CYCLES ? &r->cycles : &r->figures[m];
}

static const char *metric_axis(int m)
{
	return m == METRIC_CYCLES ? "core cycles per iteration" : plot_figure_axis(m);
}

/* Kernel panels: a row per shape, a column per codegen that has a cost
 * (not the baseline), in the run's order; the last panel holds rows
 * without a key. */
static void kernel_panels(struct line_plot *lp)
{
	const struct sb_run_file *run = lp->job->run;
	for (size_t i = 0; i < run->n_rows; i++) {
		const struct sb_cell_key *k = &run->rows[i].key;
		if (k->side == SB_SIDE_NONE || !k->codegen[0] || strcmp(k->codegen, "baseline") == 0 ||
		    lp->n_codegens == MAX_CODEGENS || index_of(lp->codegens, lp->n_codegens, k->codegen) >= 0)
			continue;
		lp->codegens[lp->n_codegens++] = k->codegen;
	}
	int cols = lp->n_codegens ? lp->n_codegens : 1;
	for (int s = 0; s < N_KERNEL_SHAPES; s++)
		for (int c = 0; c < cols; c++) {
			struct line_panel *p = &lp->panels[s * cols + c];
			char codegen[64];
			plot_clean_text(lp->n_codegens ? lp->codegens[c] : "", codegen, sizeof(codegen));
			p->metric = lp->job->figure;
			snprintf(p->title, sizeof(p->title), "%s%s%s, kernel vs twins (95%% CI)", kernel_shapes[s],
				 codegen[0] ? ", " : "", codegen);
		}
	struct line_panel *other = &lp->panels[N_KERNEL_SHAPES * cols];
	other->metric = lp->job->figure;
	snprintf(other->title, sizeof(other->title), "rows without a shape (95%% CI)");
	lp->n_panels = N_KERNEL_SHAPES * cols + 1, lp->cols = cols;
}

static void make_panels(struct line_plot *lp)
{
	if (lp->kind == PLOT_KERNEL) {
		kernel_panels(lp);
		return;
	}
	lp->cols = 1;
	if (lp->kind == PLOT_FOOTPRINT) {
		lp->panels[0] = (struct line_panel){"cost per call vs placed copies, called round-robin (mean, 95% CI); "
						    "packed as bpf_prog_pack, or spread a 4 KiB page each", METRIC_CYCLES};
		lp->n_panels = 1;
		return;
	}
	lp->panels[0] = (struct line_panel){"cost per call: core cycles per iteration (mean, 95% CI)", METRIC_CYCLES};
	lp->panels[1].metric = lp->job->figure;
	snprintf(lp->panels[1].title, sizeof(lp->panels[1].title), "cost vs its baseline: %s (95%% CI)",
		 metric_axis(lp->job->figure));
	lp->n_panels = 2;
}

/* The panel a row goes to, or -1. */
static int panel_of(const struct line_plot *lp, const struct sb_run_row *r, int p)
{
	if (lp->kind != PLOT_KERNEL)
		return p;
	int s = r->key.side == SB_SIDE_NONE ? -1 : index_of(kernel_shapes, N_KERNEL_SHAPES, r->key.shape);
	int c = lp->n_codegens ? index_of(lp->codegens, lp->n_codegens, r->key.codegen) : 0;
	if (s < 0)
		return lp->n_panels - 1;
	return c < 0 ? -1 : s * lp->cols + c;
}

/* Colour, point and legend: kernel sides by the side (the same in every
 * panel), everything else by the rank of its name among those drawn. */
static void dress(const struct line_plot *lp, const struct sb_run_row *r, struct line_series *s)
{
	/* In the order series come: orange (next to vermillion, the second
	 * series) last but grey, so that a run of both flavours' six variants
	 * draws host-private and private in colours unlike each other. */
	static const int colours[] = {PLOT_BLUE, PLOT_VERMILLION, PLOT_GREEN, PLOT_PINK,
				      PLOT_BLACK, PLOT_SKY, PLOT_ORANGE, PLOT_GREY};
	static const int points[] = {7, 5, 9, 11, 13, 15, 6, 4};
	if (lp->kind == PLOT_KERNEL && r->key.side != SB_SIDE_NONE) {
		int side = r->key.side == SB_SIDE_KERNEL ? 0 : r->key.side == SB_SIDE_TWIN ? 1 : 2;
		/* The kernel's programs ran as the run says: by BPF_PROG_TEST_RUN
		 * (raw_tp), or by page faults (perf_event programs). */
		const char *kernel = strstr(lp->job->run->kernel_driver, "perf_event") ? "kernel (page faults)"
										      : "kernel (test run)";
		const char *const names[] = {kernel, "twin", "placed twin"};
		s->colour = (int[]){PLOT_VERMILLION, PLOT_BLUE, PLOT_GREEN}[side];
		s->point = points[side], s->slot = side;
		snprintf(s->legend, sizeof(s->legend), "%s", names[side]);
		return;
	}
	/* Its rank among the variants drawn so far (the same name, the same rank). */
	int rank = 0;
	for (int k = 0; k < lp->n_series && strcmp(lp->series[k].variant, r->variant); k++) {
		int j;
		for (j = 0; j < k && strcmp(lp->series[j].variant, lp->series[k].variant); j++)
			;
		rank += j == k;
	}
	s->colour = colours[rank % 8], s->point = points[(rank + rank / 8) % 8], s->slot = rank;
	snprintf(s->legend, sizeof(s->legend), "%s", r->variant);
}

static void make_series(struct line_plot *lp)
{
	const struct sb_run_file *run = lp->job->run;
	for (int p = 0; p < lp->n_panels; p++)
		for (size_t i = 0; i < run->n_rows; i++) {
			const struct sb_run_row *r = &run->rows[i];
			if (lp->kind == PLOT_MAIN && r->key.side != SB_SIDE_NONE && r->key.placement >= 0)
				continue; /* copies: in their variant's row over placements */
			const struct sb_estimate *e = metric_of(r, lp->panels[p].metric);
			if (panel_of(lp, r, p) != p || !sb_estimate_known(e) || !isfinite(e->value))
				continue;
			int k;
			for (k = 0; k < lp->n_series && !(lp->series[k].panel == p && !strcmp(lp->series[k].variant, r->variant));
			     k++)
				;
			if (k < lp->n_series)
				continue;
			if (lp->n_series == MAX_SERIES) {
				lp->n_left_out++;
				continue;
			}
			struct line_series *s = &lp->series[lp->n_series];
			*s = (struct line_series){.variant = r->variant, .panel = p};
			dress(lp, r, s);
			lp->n_series++;
		}
}

/* The rows of series s, with their value in its panel's metric. */
#define FOR_ROWS(lp, s, r, e)                                                                       \
	for (size_t i_ = 0; i_ < (lp)->job->run->n_rows; i_++)                                      \
		if ((r = &(lp)->job->run->rows[i_]), (e = metric_of(r, (lp)->panels[(s)->panel].metric)), \
		    strcmp(r->variant, (s)->variant) == 0 && sb_estimate_known(e) && isfinite(e->value))

static void write_data(FILE *dat, const struct line_plot *lp)
{
	plot_data_header(dat, lp->job, lp->kind == PLOT_FOOTPRINT ? "copies, value, CI low, CI high"
								    : "batch, value, CI low, CI high");
	for (int k = 0; k < lp->n_series; k++) {
		const struct line_series *s = &lp->series[k];
		char name[256], legend[256];
		plot_clean_text(s->variant, name, sizeof(name));
		plot_clean_text(s->legend, legend, sizeof(legend));
		fprintf(dat, "%s# %s: %s (%s)\n", k ? "\n\n" : "", name, legend, metric_axis(lp->panels[s->panel].metric));
		const struct sb_run_row *r;
		const struct sb_estimate *e;
		FOR_ROWS(lp, s, r, e) {
			fprintf(dat, "%llu", (unsigned long long)r->batch);
			plot_put_num(dat, e->value);
			plot_put_num(dat, isfinite(e->lo) ? e->lo : e->value);
			plot_put_num(dat, isfinite(e->hi) ? e->hi : e->value);
			fputc('\n', dat);
		}
	}
}

/* The panel's y range: set by batch >= 64 when the smaller batches would
 * stretch it more than 3 times, and always for the kernel run. Returns 1
 * when it is set so. */
static int panel_range(const struct line_plot *lp, int p, double *lo, double *hi)
{
	struct plot_range all, big;
	plot_range_init(&all);
	plot_range_init(&big);
	int zero = lp->panels[p].metric != METRIC_CYCLES;
	for (int k = 0; k < lp->n_series; k++) {
		const struct sb_run_row *r;
		const struct sb_estimate *e;
		if (lp->series[k].panel == p)
			FOR_ROWS(lp, &lp->series[k], r, e) {
				plot_range_add(&all, e->value, e->lo, e->hi);
				if (r->batch >= 64 || lp->kind == PLOT_FOOTPRINT)
					plot_range_add(&big, e->value, e->lo, e->hi);
			}
	}
	double blo, bhi;
	plot_range_get(&all, zero, lo, hi);
	if (plot_range_get(&big, zero, &blo, &bhi) != 0 || (lp->kind != PLOT_KERNEL && *hi - *lo <= 3 * (bhi - blo)))
		return 0;
	*lo = blo, *hi = bhi;
	return 1;
}

/* What the panel's title says of its y axis: set by batch >= 64 and the
 * batches whose values are off it; whiskers cut at its edge. */
static void range_note(const struct line_plot *lp, int p, int by_big, double lo, double hi, char *note, size_t len)
{
	uint64_t off[16];
	int n = 0, cut = 0;
	for (int k = 0; k < lp->n_series; k++) {
		const struct sb_run_row *r;
		const struct sb_estimate *e;
		if (lp->series[k].panel == p)
			FOR_ROWS(lp, &lp->series[k], r, e) {
				int j, in = e->value >= lo && e->value <= hi;
				for (j = 0; j < n && off[j] != r->batch; j++)
					;
				if (!in && j == n && n < 16)
					off[n++] = r->batch;
				cut |= in && (e->lo < lo || e->hi > hi);
			}
	}
	size_t at = (size_t)snprintf(note, len, "%s", by_big ? "y from batch >= 64" : "");
	for (int j = 0; j < n && at < len; j++)
		at += (size_t)snprintf(note + at, len - at, "%s%llu", j ? ", " : at ? ", off it: batch " : "off it: batch ",
				       (unsigned long long)off[j]);
	if (cut && at < len)
		snprintf(note + at, len - at, "%scut whiskers run on", at ? "; " : "");
}

/* The x axis: ticks at the batches drawn. */
static void write_xaxis(FILE *gp, const struct line_plot *lp)
{
	uint64_t b[32] = {0};
	int n = 0;
	for (int k = 0; k < lp->n_series; k++) {
		const struct sb_run_row *r;
		const struct sb_estimate *e;
		FOR_ROWS(lp, &lp->series[k], r, e) {
			int j;
			for (j = 0; j < n && b[j] != r->batch; j++)
				;
			if (j == n && n < 32)
				b[n++] = r->batch;
		}
	}
	uint64_t lo = b[0], hi = b[0];
	fputs("set logscale x 2\nset xtics (", gp);
	for (int j = 0; j < n; j++) {
		fprintf(gp, "%s%llu", j ? ", " : "", (unsigned long long)b[j]);
		lo = b[j] < lo ? b[j] : lo, hi = b[j] > hi ? b[j] : hi;
	}
	fprintf(gp, ")\nset xrange [%g:%g]\nset xlabel '%s'\n", (double)lo / 1.5, (double)hi * 1.5,
		lp->kind == PLOT_FOOTPRINT ? "copies of each variant" : "batch (iterations per sample)");
}

/* Series k is the first of its legend and colour among the series drawn
 * (the legend above the panels names each such pair once). */
static int first_of_kind(const struct line_plot *lp, int k)
{
	for (int j = 0; j < k; j++)
		if (lp->series[j].colour == lp->series[k].colour && !strcmp(lp->series[j].legend, lp->series[k].legend))
			return 0;
	return 1;
}

/* The panel with the most series: its legend is the plot's, above the
 * panels, with the series of other panels it lacks (the colours mean the
 * same in every panel; no legend inside a panel, over its data); -1 when
 * they are more than fit in a line or two: then each panel has its legend
 * on its right, outside it. */
static int key_panel(const struct line_plot *lp)
{
	int best = 0, most = -1, kinds = 0;
	for (int p = 0; p < lp->n_panels; p++) {
		int m = 0;
		for (int k = 0; k < lp->n_series; k++)
			m += lp->series[k].panel == p;
		if (m > most)
			best = p, most = m;
	}
	for (int k = 0; k < lp->n_series; k++)
		kinds += first_of_kind(lp, k);
	return kinds > 6 ? -1 : best;
}

/* The legend: the plot's above the panels, in the key panel's plot; none
 * in the other panels; each panel's on its right where key < 0. */
static void write_key(FILE *gp, int p, int key, int height)
{
	if (key < 0)
		fputs("set key outside right top vertical Left reverse noenhanced samplen 2\n", gp);
	else if (p == key)
		fprintf(gp, "set key at screen 0.5, screen %.4f center top horizontal Left reverse "
			"noenhanced samplen 3 width 1\n", 1 - 32.0 / height);
	else
		fputs("unset key\n", gp);
}

/* Series k's legend entry in the key panel's plot, where its panel is
 * another and the key panel has none of its kind: no point drawn. */
static int key_only(const struct line_plot *lp, int k, int key)
{
	if (key < 0 || lp->series[k].panel == key || !first_of_kind(lp, k))
		return 0;
	for (int j = 0; j < lp->n_series; j++)
		if (lp->series[j].panel == key && lp->series[j].colour == lp->series[k].colour &&
		    !strcmp(lp->series[j].legend, lp->series[k].legend))
			return 0;
	return 1;
}

static void write_panel(FILE *gp, const struct line_plot *lp, int p, int key, int height)
{
	char note[192];
	double lo, hi;
	int by_big = panel_range(lp, p, &lo, &hi);
	range_note(lp, p, by_big, lo, hi, note, sizeof(note));
	/* The title on two lines where the axis has a note, so that it stays
	 * within a panel's width. */
	fputs("set title ", gp);
	plot_put_quoted(gp, lp->panels[p].title); /* this file's own, codegen names cleaned */
	if (note[0]) {
		fputs(" . \"\\n\" . ", gp);
		plot_put_quoted(gp, note);
	}
	fputs(" noenhanced\nset ylabel ", gp);
	plot_put_quoted(gp, metric_axis(lp->panels[p].metric)); /* this file's own, or the figure table's */
	/* Which way is faster, on a second line of the axis's label: a cost,
	 * lower; a cost against the baseline, below 0. */
	fprintf(gp, " . \"\\n\" . '%s'", lp->panels[p].metric == METRIC_CYCLES ? "(lower: faster)" : "(below 0: faster)");
	fprintf(gp, "\nset yrange [%.6g:%.6g]\n%s", lo, hi,
		lp->panels[p].metric != METRIC_CYCLES ? "set xzeroaxis lt -1 lw 1\n" : "unset xzeroaxis\n");
	write_key(gp, p, key, height);
	int slots = 0, i = 0;
	for (int k = 0; k < lp->n_series; k++)
		slots = lp->series[k].slot >= slots ? lp->series[k].slot + 1 : slots;
	fputs("plot ", gp);
	for (int k = 0; k < lp->n_series; k++) {
		const struct line_series *s = &lp->series[k];
		if (p == key && key_only(lp, k, key)) {
			fprintf(gp, "%skeyentry with yerrorlines lc %d pt %d title ",
				i++ ? ", \\\n     " : "", s->colour, s->point);
			plot_put_label(gp, s->legend);
			continue;
		}
		if (s->panel != p)
			continue;
		/* Side by side at each batch: a tenth of an octave apart, half an
		 * octave at most in all. */
		double step = slots > 6 ? 0.5 / (slots - 1) : 0.1;
		double shift = pow(2, step * (s->slot - (slots - 1) / 2.0));
		fprintf(gp, "%ssb_data index %d using ($1*%.4f):2:3:4 with yerrorlines lc %d pt %d ",
			i ? ", \\\n     " : "", k, shift, s->colour, s->point);
		fputs("title ", gp);
		plot_put_label(gp, s->legend);
		i++;
	}
	fputc('\n', gp);
}

int plot_lines(const struct plot_job *job, enum plot_line_kind kind, FILE *dat, FILE *gp, char *err, size_t errlen)
{
	struct line_plot lp;
	memset(&lp, 0, sizeof(lp));
	lp.job = job, lp.kind = kind;
	make_panels(&lp);
	make_series(&lp);
	if (lp.n_series == 0) {
		snprintf(err, errlen, "plot: %s: no result with a number to plot", job->run->path);
		return -1;
	}
	/* More lines than a panel's legend and colours can tell apart: refused
	 * whole, never drawn in part. */
	if (lp.n_left_out) {
		snprintf(err, errlen, "plot: %s: more than %d series (variant and panel) to draw: not drawn "
			 "(the CSV or `stubbench report` shows them all)", job->run->path, MAX_SERIES);
		return -1;
	}
	int used[MAX_PANELS] = {0}, n_used = 0;
	for (int k = 0; k < lp.n_series; k++)
		used[lp.series[k].panel] = 1;
	for (int p = 0; p < lp.n_panels; p++)
		n_used += used[p];
	int cols = lp.cols > n_used ? n_used : lp.cols, rows = (n_used + cols - 1) / cols;
	write_data(dat, &lp);
	/* Room above the panels for the title and the legend, between them
	 * for a panel's x label and the next one's title (two lines). */
	int height = 114 + 394 * rows, key = key_panel(&lp);
	char layout[160];
	snprintf(layout, sizeof(layout), "margins 0.06, %.2f, %.4f, %.4f spacing 0.06, %.4f", key < 0 ? 0.8 : 0.98,
		 55.0 / height, 1 - 114.0 / height, 109.0 / height);
	plot_begin(gp, job, height, rows, cols, layout);
	write_xaxis(gp, &lp);
	for (int p = 0; p < lp.n_panels; p++)
		if (used[p])
			write_panel(gp, &lp, p, key, height);
	fputs("unset multiplot\nset output\n", gp);
	return 0;
}

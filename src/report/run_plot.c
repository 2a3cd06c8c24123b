/* run_plot.c: runs drawn by gnuplot; see run_plot.h. */
#define _GNU_SOURCE
#include "stubbench/run_plot.h"
#include "stubbench/error.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PANELS 12
#define MAX_SERIES 96

enum kind { KIND_MAIN, KIND_KERNEL, KIND_LAB, KIND_FOOTPRINT };
/* What a panel draws: the cycles per iteration, or a figure of the figure
 * table (figures.h) by its index. */
enum { METRIC_CYCLES = -1 };

struct panel {
	char title[192];
	int metric; /* METRIC_CYCLES or a figure index */
};

struct series {
	const char *name;
	const struct sb_run_row *row; /* its first row: the key it is drawn by */
	int panel;
};

/* A file written with unchecked fprintf calls: any failed write (ENOSPC,
 * EIO) left its error flag, and the close flushes the rest. */
static int close_written(FILE *f)
{
	int bad = ferror(f);
	return (fclose(f) != 0 || bad) ? -1 : 0;
}

static const char *const kernel_shapes[] = {"per-run", "in-loop", "htab"};
/* The lab's shapes (key values) and their names in the panel titles. */
static const char *const lab_shapes[] = {"per-run", "in-loop"};
static const char *const lab_shape_titles[] = {"perrun", "inloop"};
/* The lab's five return flavours (key values, as in the titles). */
static const char *const lab_returns[] = {"ret", "rethunk", "calldepth", "srso", "srso-alias"};
#define N_LAB_SHAPES 2
#define N_LAB_RETURNS 5

static int index_of(const char *const *list, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return i;
	return -1;
}

/* Lab panels by the key: one per return flavour and shape (a row per
 * return, a column per shape); -1 for a row without a lab key. */
static int lab_panel(const struct sb_run_row *r)
{
	if (r->key.side != SB_SIDE_LAB)
		return -1;
	int shape = index_of(lab_shapes, N_LAB_SHAPES, r->key.shape);
	int ret = index_of(lab_returns, N_LAB_RETURNS, r->key.ret);
	return shape < 0 || ret < 0 ? -1 : ret * N_LAB_SHAPES + shape;
}

/* Kernel panels by the key's shape; the last ("other") without one. */
static int kernel_panel(const struct sb_run_row *r)
{
	int s = r->key.side == SB_SIDE_NONE ? -1 : index_of(kernel_shapes, 3, r->key.shape);
	return s < 0 ? 3 : s;
}

/* gnuplot single-quoted string: '' is a quote. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n')
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fputs(" NaN", f);
}

/* The axis label of what a panel draws. */
static const char *metric_label(int m)
{
	return m == METRIC_CYCLES ? "core cycles per iteration" : sb_figure_at((size_t)m)->title;
}

/* One data row: batch, value, CI low, CI high, range low, range high. */
static int write_row(FILE *f, const struct sb_run_file *run, const struct sb_run_row *r, int m)
{
	double v, lo, hi, rlo = NAN, rhi = NAN;
	const struct sb_estimate *e = m == METRIC_CYCLES ? &r->cycles : &r->figures[m];
	v = sb_estimate_known(e) ? e->value : NAN, lo = e->lo, hi = e->hi;
	if (m == METRIC_CYCLES) {
		if (r->n_modes > 1)
			rlo = r->mode_min, rhi = r->mode_max;
	} else if (m == SB_FIGURE_DELTA) {
		/* The steady states against the baseline's mean (its cost from the ratio). */
		double base = sb_estimate_known(&r->cycles) ? r->cycles.value / (1 + v / 100) : NAN;
		if (r->n_modes > 1 && base > 0)
			rlo = (r->mode_min / base - 1) * 100, rhi = (r->mode_max / base - 1) * 100;
		/* Copies at other placements: the range of their deltas. */
		const struct sb_run_spread *sp = sb_run_file_spread_of(run, r);
		if (sp && sp->k > 1)
			rlo = sp->min, rhi = sp->max;
	}
	if (!isfinite(v))
		return 0;
	fprintf(f, "%llu", (unsigned long long)r->batch);
	put_num(f, v);
	put_num(f, isfinite(lo) ? lo : v);
	put_num(f, isfinite(hi) ? hi : v);
	put_num(f, rlo);
	put_num(f, rhi);
	fputc('\n', f);
	return isfinite(rlo) ? 2 : 1;
}

/* The same colour for the same line in every panel: lab alternatives by
 * their key's codegen (the panel says shape and return; a copy at another
 * placement adds "@p<j>"), everything else by its name. */
static void legend_name(enum kind kind, const struct sb_run_row *r, char *buf, size_t len)
{
	if (kind != KIND_LAB || r->key.side != SB_SIDE_LAB || !r->key.codegen[0])
		snprintf(buf, len, "%s", r->variant);
	else if (r->key.placement >= 0)
		snprintf(buf, len, "%s@p%d", r->key.codegen, r->key.placement);
	else
		snprintf(buf, len, "%s", r->key.codegen);
}

static int colour_of(enum kind kind, const struct series *series, size_t k)
{
	/* 1 + the rank of its legend text among the distinct ones so far. */
	char names[MAX_SERIES][128];
	int n = 0;
	for (size_t i = 0; i <= k; i++) {
		char label[128];
		int j;
		legend_name(kind, series[i].row, label, sizeof(label));
		for (j = 0; j < n && strcmp(names[j], label); j++)
			;
		if (j == n)
			snprintf(names[n++], sizeof(names[0]), "%s", label);
		if (i == k)
			return j + 1;
	}
	return 1;
}

/* "out.png" -> "out.gp" (ext with its dot). */
static void beside(const char *image, const char *ext, char *buf, size_t len)
{
	const char *dot = strrchr(image, '.');
	size_t stem = dot ? (size_t)(dot - image) : strlen(image);
	snprintf(buf, len, "%.*s%s", (int)stem, image, ext);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* The first two words of the kernel's uname ("Linux 6.18.0"). */
static void kernel_release(const char *kernel, char *buf, size_t len)
{
	const char *sp = strchr(kernel, ' ');
	sp = sp ? strchr(sp + 1, ' ') : NULL;
	snprintf(buf, len, "%.*s", sp ? (int)(sp - kernel) : (int)strlen(kernel), kernel);
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		return 0;
	char *dirs = strdup(path), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char exe[4096];
		snprintf(exe, sizeof(exe), "%s/gnuplot", *d ? d : ".");
		found = access(exe, X_OK) == 0;
	}
	free(dirs);
	return found;
}

/* gnuplot SCRIPT in DIR (the script names its files relative to it). */
static int run_gnuplot(const char *dir, const char *script)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The gnuplot terminal for the image's extension (a printf format taking
 * the height), or NULL with a reason. */
static const char *terminal_of(const char *image, char *err, size_t errlen)
{
	const char *dot = image ? strrchr(image, '.') : NULL;
	if (!image || strchr(image, '\n') || strchr(image, '\'')) {
		sb_set_err(err, errlen, "plot: %s: the file name has a newline or a quote", image ? image : "(none)");
		return NULL;
	}
	if (dot && strcmp(dot, ".svg") == 0)
		return "svg size 1400,%d dynamic enhanced font 'sans,10'";
	if (dot && strcmp(dot, ".png") == 0)
		return "pngcairo size 1400,%d enhanced font 'sans,10'";
	sb_set_err(err, errlen, "plot: %s: the file name must end in .svg or .png", image);
	return NULL;
}

int sb_run_plot_check_path(const char *image, char *err, size_t errlen)
{
	if (!terminal_of(image, err, errlen))
		return -1;
	/* Open it for writing without truncating it; remove it again if it
	 * was not there (a file the run will not write must not be left). */
	int existed = access(image, F_OK) == 0;
	int fd = open(image, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		sb_set_err(err, errlen, "plot: %s: %s", image, strerror(errno));
		return -1;
	}
	close(fd);
	if (!existed)
		unlink(image);
	if (!have_gnuplot()) {
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox), "
			   "%s will not be written", image);
		return 1;
	}
	return 0;
}

int sb_run_plot(const struct sb_run_file *run, const char *image, int figure, char *err, size_t errlen)
{
	const char *term = terminal_of(image, err, errlen);
	if (!term)
		return 2;
	enum kind kind = strstr(run->tool, "kernel")      ? KIND_KERNEL
			 : strstr(run->tool, "lab")       ? KIND_LAB
			 : strstr(run->tool, "footprint") ? KIND_FOOTPRINT
							  : KIND_MAIN;
	/* footprint: x is the number of placed copies, not the batch. */
	const char *xname = kind == KIND_FOOTPRINT ? "copies" : "batch";

	/* Panels and the series in each. */
	struct panel panels[MAX_PANELS];
	int n_panels = 0, cols = 1;
	if (kind == KIND_MAIN) {
		panels[0] = (struct panel){"cost per iteration (mean, 95% CI; band: steady states)", METRIC_CYCLES};
		panels[1] = (struct panel){"cost vs baseline, % (95% CI; band: spread over placements or states)",
					   figure};
		if (figure != SB_FIGURE_DELTA)
			snprintf(panels[1].title, sizeof(panels[1].title), "%s (95%% CI)", sb_figure_at((size_t)figure)->title);
		n_panels = 2, cols = 2;
	} else if (kind == KIND_KERNEL) {
		for (int s = 0; s < 4; s++) {
			panels[s].metric = figure;
			snprintf(panels[s].title, sizeof(panels[s].title),
				 "%s: cost added to baseline, %% (kernel, twin, twin placed like the loads; band: loads)",
				 s < 3 ? kernel_shapes[s] : "other");
		}
		n_panels = 4, cols = 1;
	} else if (kind == KIND_FOOTPRINT) {
		panels[0] = (struct panel){"cost per call vs placed copies, called round-robin (mean, 95% CI); "
					   "packed as bpf_prog_pack, or spread a 4 KiB page each", METRIC_CYCLES};
		n_panels = 1, cols = 1;
	} else {
		for (int fl = 0; fl < N_LAB_RETURNS; fl++)
			for (int s = 0; s < N_LAB_SHAPES; s++) {
				struct panel *p = &panels[fl * N_LAB_SHAPES + s];
				p->metric = METRIC_CYCLES;
				snprintf(p->title, sizeof(p->title), "%s, %s", lab_shape_titles[s], lab_returns[fl]);
			}
		panels[N_LAB_RETURNS * N_LAB_SHAPES] = (struct panel){"other", METRIC_CYCLES};
		n_panels = N_LAB_RETURNS * N_LAB_SHAPES + 1, cols = N_LAB_SHAPES;
	}
	struct series series[MAX_SERIES];
	size_t n_series = 0;
	int used[MAX_PANELS] = {0};
	for (int p = 0; p < n_panels; p++)
		for (size_t i = 0; i < run->n_rows; i++) {
			const struct sb_run_row *r = &run->rows[i];
			if (kind == KIND_MAIN && r->key.side != SB_SIDE_NONE && r->key.placement >= 0)
				continue; /* copies: shown as the spread of their variant */
			int panel = kind == KIND_MAIN || kind == KIND_FOOTPRINT ? p
				    : kind == KIND_KERNEL			   ? kernel_panel(r)
										   : lab_panel(r);
			if (panel < 0)
				panel = n_panels - 1;
			const struct sb_estimate *e = panels[p].metric == METRIC_CYCLES ? &r->cycles : &r->figures[panels[p].metric];
			if (panel != p || !sb_estimate_known(e) || !isfinite(e->value))
				continue;
			size_t k;
			for (k = 0; k < n_series && !(series[k].panel == p && strcmp(series[k].name, r->variant) == 0); k++)
				;
			if (k == n_series && n_series < MAX_SERIES) {
				series[n_series++] = (struct series){r->variant, r, p};
				used[p] = 1;
			}
		}
	if (n_series == 0) {
		sb_set_err(err, errlen, "plot: %s: no result with a number to plot", run->path);
		return 2;
	}
	int n_used = 0;
	for (int p = 0; p < n_panels; p++)
		n_used += used[p];
	if (cols > n_used)
		cols = n_used;
	int rows = (n_used + cols - 1) / cols;

	char gp_path[4096], dat_path[4096], dir[4096];
	beside(image, ".gp", gp_path, sizeof(gp_path));
	beside(image, ".dat", dat_path, sizeof(dat_path));
	const char *slash = strrchr(image, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - image + (slash == image)) : 1, slash ? image : ".");

	/* The data: one block per series (gnuplot's index), with its name. */
	FILE *dat = fopen(dat_path, "w");
	if (!dat) {
		sb_set_err(err, errlen, "plot: %s: %s", dat_path, strerror(errno));
		return 2;
	}
	int has_range[MAX_SERIES] = {0};
	fprintf(dat, "# %s: %s\n# columns: %s, value, CI low, CI high, range low, range high (NaN: none)\n",
		run->tool, run->path, xname);
	for (size_t k = 0; k < n_series; k++) {
		fprintf(dat, "%s# %s (%s)\n", k ? "\n\n" : "", series[k].name,
			metric_label(panels[series[k].panel].metric));
		for (size_t i = 0; i < run->n_rows; i++)
			if (strcmp(run->rows[i].variant, series[k].name) == 0)
				has_range[k] |= write_row(dat, run, &run->rows[i], panels[series[k].panel].metric) == 2;
	}
	if (close_written(dat) != 0) {
		sb_set_err(err, errlen, "plot: %s: %s", dat_path, strerror(errno));
		return 2;
	}

	/* The script. */
	FILE *gp = fopen(gp_path, "w");
	if (!gp) {
		sb_set_err(err, errlen, "plot: %s: %s", gp_path, strerror(errno));
		return 2;
	}
	char release[128], title[1024];
	kernel_release(run->kernel, release, sizeof(release));
	/* The JIT flavour's last clause says how JITed code returns. */
	const char *thunk = strrchr(run->thunk, ',');
	thunk = thunk ? thunk + 1 + (thunk[1] == ' ') : run->thunk;
	/* The machine line of a run made in this process names the kernel
	 * already ("..., Linux 6.18.44"): said once. */
	int kernel_named = release[0] && strstr(run->machine, release) != NULL;
	snprintf(title, sizeof(title), "%s: %s%s%s%s%s; %s", run->tool[0] ? run->tool : "stubbench",
		 run->machine[0] ? run->machine : "machine unknown", kernel_named ? "" : "; ",
		 kernel_named ? "" : (release[0] ? release : "kernel unknown"), thunk[0] ? "; returns: " : "",
		 thunk, run->date[0] ? run->date : "date unknown");
	fprintf(gp, "# %s, drawn from %s by stubbench plot; rerun: gnuplot %s\nset terminal ", run->tool,
		run->path, base_name(gp_path));
	fprintf(gp, term, 260 + 380 * rows);
	fputs("\nset output ", gp);
	put_quoted(gp, base_name(image));
	fprintf(gp, "\nset datafile missing 'NaN'\nset logscale x 2\nset grid\nset xlabel '%s'\n"
		    "set key below noenhanced\nset offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\nset style fill transparent solid 0.15 noborder\n"
		    "set multiplot layout %d,%d title ",
		kind == KIND_FOOTPRINT ? "copies of each variant" : "batch (iterations per sample)", rows, cols);
	put_quoted(gp, title);
	fputs(" noenhanced\n", gp);
	for (int p = 0; p < n_panels; p++) {
		if (!used[p])
			continue;
		fputs("set title ", gp);
		put_quoted(gp, panels[p].title);
		fprintf(gp, " noenhanced\nset ylabel '%s'\n", metric_label(panels[p].metric));
		fputs(panels[p].metric != METRIC_CYCLES ? "set xzeroaxis lt -1\n" : "unset xzeroaxis\n", gp);
		fputs("plot ", gp);
		int first = 1;
		for (size_t k = 0; k < n_series; k++) {
			if (series[k].panel != p)
				continue;
			int colour = colour_of(kind, series, k);
			if (has_range[k]) {
				fprintf(gp, "%s'%s' index %zu using 1:5:6 with filledcurves lc %d notitle", first ? "" : ", \\\n     ",
					base_name(dat_path), k, colour);
				first = 0;
			}
			fprintf(gp, "%s'%s' index %zu using 1:2:3:4 with yerrorlines lc %d lw 1.5 pt 7 ps 0.6 title ",
				first ? "" : ", \\\n     ", base_name(dat_path), k, colour);
			char label[128];
			legend_name(kind, series[k].row, label, sizeof(label));
			put_quoted(gp, label);
			first = 0;
		}
		fputc('\n', gp);
	}
	fputs("unset multiplot\nset output\n", gp);
	if (close_written(gp) != 0) {
		sb_set_err(err, errlen, "plot: %s: %s", gp_path, strerror(errno));
		return 2;
	}
	if (!have_gnuplot()) {
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox): %s not drawn; "
			   "%s and %s written", image, gp_path, dat_path);
		return 1;
	}
	/* Truncate first: "non-empty afterwards" then means written by this gnuplot. */
	FILE *probe = fopen(image, "w");
	if (!probe) {
		sb_set_err(err, errlen, "plot: %s: %s", image, strerror(errno));
		return 2;
	}
	fclose(probe);
	int rc = run_gnuplot(dir, base_name(gp_path));
	struct stat st;
	if (rc != 0 || stat(image, &st) != 0 || st.st_size == 0) {
		sb_set_err(err, errlen, "plot: gnuplot failed on %s (status %d), %s not written", gp_path, rc, image);
		return 1;
	}
	return 0;
}

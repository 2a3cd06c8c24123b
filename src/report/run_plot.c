/* run_plot.c: runs drawn by gnuplot; see run_plot.h. */
#define _GNU_SOURCE
#include "stubbench/run_plot.h"
#include "stubbench/error.h"
#include "stubbench/figures.h"
#include "stubbench/safe_file.h"

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

static const char *const kernel_shapes[] = {"per-run", "in-loop", "htab"};
/* The lab's shapes (key values) and their names in the panel titles. */
static const char *const lab_shapes[] = {"per-run", "in-loop"};
static const char *const lab_shape_titles[] = {"perrun", "inloop"};
/* The lab's five return flavours (key values, as in the titles). */
static const char *const lab_returns[] = {"ret", "rethunk", "calldepth", "srso", "srso-alias"};
#define N_LAB_SHAPES 2
#define N_LAB_RETURNS 5

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

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

/* Text that goes into the script (names from the JSON, file names): only
 * letters, digits, space and -_.,:/+%()[]=@ are kept, anything else (a
 * quote, a newline, a backquote, a backslash, '$', '#', bytes above 0x7f)
 * becomes '_', so that no text of a run can end a string or a line of the
 * script. */
static void clean_text(const char *s, char *buf, size_t len)
{
	static const char extra[] = " -_.,:/+%()[]=@";
	size_t n = 0;
	for (; *s && n + 1 < len; s++) {
		unsigned char c = (unsigned char)*s;
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			 (c && strchr(extra, c));
		buf[n++] = ok ? (char)c : '_';
	}
	if (len)
		buf[n] = '\0';
}

/* Text of this file's own (panel titles, a title of cleaned parts) in
 * single quotes: '' is a quote. */
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

/* A label of the script from a run's text: clean_text in single quotes. */
static void put_label(FILE *f, const char *s)
{
	char buf[1024];
	clean_text(s, buf, sizeof(buf));
	fprintf(f, "'%s'", buf);
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

/* "out.png" -> "out.gp" (ext with its dot; NULL: the image itself).
 * Returns 0, or -1 (buf empty) when it would be longer than
 * SB_SAFE_FILE_PATH_MAX. */
static int beside(const char *image, const char *ext, char *buf, size_t len)
{
	const char *dot = strrchr(image, '.');
	size_t stem = dot && ext ? (size_t)(dot - image) : strlen(image);
	int n = snprintf(buf, len, "%.*s%s", (int)stem, image, ext ? ext : "");
	if (n < 0 || (size_t)n >= len || n > SB_SAFE_FILE_PATH_MAX) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
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

/* gnuplot SCRIPT in DIR, its data and output at the temporaries data and
 * image (names in DIR, made by safe_file.c: letters, digits, '.' and '-'
 * only), given as variables so that no name of the user's reaches gnuplot's
 * command line. Its exit status, or -1. */
static int run_gnuplot(const char *dir, const char *script, const char *data, const char *image)
{
	char vars[2 * SB_SAFE_FILE_PATH_MAX + 64];
	snprintf(vars, sizeof(vars), "sb_data='%s'; sb_output='%s'", data, image);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(dir) != 0)
			_exit(127);
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execlp("gnuplot", "gnuplot", "-e", vars, script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Is the image gnuplot wrote whole? A PNG ends with its IEND chunk, an SVG
 * with its closing tag; a disk that filled up cuts either short. */
static int image_complete(const char *path, int png)
{
	static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
	unsigned char tail[64];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return 0;
	int ok = 0;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(tail)) {
		ok = pread(fd, tail, sizeof(tail), st.st_size - (off_t)sizeof(tail)) == (ssize_t)sizeof(tail);
		if (ok && png)
			ok = memcmp(tail + sizeof(tail) - sizeof(iend), iend, sizeof(iend)) == 0;
		else if (ok)
			ok = memmem(tail, sizeof(tail), "</svg>", 6) != NULL;
	}
	close(fd);
	return ok;
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
	/* The image, its script and its data: each missing or a regular file
	 * (not a FIFO, a device or a symbolic link), in a directory that takes
	 * a new file. Nothing is left behind. */
	char side[SB_SAFE_FILE_PATH_MAX + 1], why[SB_SAFE_FILE_PATH_MAX + 200];
	for (int i = 0; i < 3; i++) {
		if (beside(image, i == 0 ? NULL : i == 1 ? ".gp" : ".dat", side, sizeof(side)) != 0 ||
		    sb_safe_file_check(side, why, sizeof(why)) != 0) {
			sb_set_err(err, errlen, "plot: %s", i && !side[0] ? "the path is too long" : why);
			return -1;
		}
	}
	if (!have_gnuplot()) {
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox), "
			   "%s will not be written", image);
		return 1;
	}
	return 0;
}

/* What sb_run_plot drew up: the panels, the series in them, the layout. */
struct plan {
	const struct sb_run_file *run;
	const char *image, *term;
	enum kind kind;
	const struct panel *panels;
	int n_panels, rows, cols;
	const int *used;
	const struct series *series;
	size_t n_series;
	int has_range[MAX_SERIES]; /* set by write_data */
};

/* The data: one block per series (gnuplot's index), with its name. */
static void write_data(FILE *dat, struct plan *pl)
{
	const struct sb_run_file *run = pl->run;
	char tool[256], path[1024], name[256];
	clean_text(run->tool, tool, sizeof(tool));
	clean_text(run->path, path, sizeof(path));
	fprintf(dat, "# %s: %s\n# columns: %s, value, CI low, CI high, range low, range high (NaN: none)\n", tool,
		path, pl->kind == KIND_FOOTPRINT ? "copies" : "batch");
	for (size_t k = 0; k < pl->n_series; k++) {
		int m = pl->panels[pl->series[k].panel].metric;
		clean_text(pl->series[k].name, name, sizeof(name));
		fprintf(dat, "%s# %s (%s)\n", k ? "\n\n" : "", name, metric_label(m));
		for (size_t i = 0; i < run->n_rows; i++)
			if (strcmp(run->rows[i].variant, pl->series[k].name) == 0)
				pl->has_range[k] |= write_row(dat, run, &run->rows[i], m) == 2;
	}
}

/* The title: tool, machine, kernel, how returns go, date; each part from
 * clean_text. */
static void plot_title(const struct sb_run_file *run, char *title, size_t len)
{
	char release[128], tool[128], machine[384], thunk_text[128], date[64];
	kernel_release(run->kernel, title, len);
	clean_text(title, release, sizeof(release));
	clean_text(run->tool, tool, sizeof(tool));
	clean_text(run->machine, machine, sizeof(machine));
	clean_text(run->date, date, sizeof(date));
	/* The JIT flavour's last clause says how JITed code returns. */
	const char *thunk = strrchr(run->thunk, ',');
	clean_text(thunk ? thunk + 1 + (thunk[1] == ' ') : run->thunk, thunk_text, sizeof(thunk_text));
	/* The machine line of a run made in this process names the kernel
	 * already ("..., Linux 6.18.44"): said once. */
	int kernel_named = release[0] && strstr(machine, release) != NULL;
	snprintf(title, len, "%s: %s%s%s%s%s; %s", tool[0] ? tool : "stubbench", machine[0] ? machine : "machine unknown",
		 kernel_named ? "" : "; ", kernel_named ? "" : (release[0] ? release : "kernel unknown"),
		 thunk_text[0] ? "; returns: " : "", thunk_text, date[0] ? date : "date unknown");
}

/* The script: every text in it from clean_text; the data and the image
 * by the variables sb_data and sb_output (run_gnuplot sets them; a rerun
 * by hand takes the names beside the image). */
static void write_script(FILE *gp, const struct plan *pl, const char *gp_path, const char *dat_path)
{
	char title[1024], a[1024], b[1024];
	plot_title(pl->run, title, sizeof(title));
	clean_text(pl->run->tool, a, sizeof(a));
	clean_text(pl->run->path, b, sizeof(b));
	fprintf(gp, "# %s, drawn from %s by stubbench plot; rerun: gnuplot ", a, b);
	clean_text(base_name(gp_path), a, sizeof(a));
	fprintf(gp, "%s\nif (!exists(\"sb_data\")) sb_data = ", a);
	put_label(gp, base_name(dat_path));
	fputs("\nif (!exists(\"sb_output\")) sb_output = ", gp);
	put_label(gp, base_name(pl->image));
	fputs("\nset terminal ", gp);
	fprintf(gp, pl->term, 260 + 380 * pl->rows);
	fprintf(gp, "\nset output sb_output\nset datafile missing 'NaN'\nset logscale x 2\nset grid\nset xlabel '%s'\n"
		    "set key below noenhanced\nset offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05\n"
		    "set style fill transparent solid 0.15 noborder\nset multiplot layout %d,%d title ",
		pl->kind == KIND_FOOTPRINT ? "copies of each variant" : "batch (iterations per sample)", pl->rows,
		pl->cols);
	put_quoted(gp, title); /* its parts cleaned */
	fputs(" noenhanced\n", gp);
	for (int p = 0; p < pl->n_panels; p++) {
		if (!pl->used[p])
			continue;
		fputs("set title ", gp);
		put_quoted(gp, pl->panels[p].title); /* this file's own */
		fprintf(gp, " noenhanced\nset ylabel '%s'\n", metric_label(pl->panels[p].metric));
		fputs(pl->panels[p].metric != METRIC_CYCLES ? "set xzeroaxis lt -1\n" : "unset xzeroaxis\n", gp);
		fputs("plot ", gp);
		int first = 1;
		for (size_t k = 0; k < pl->n_series; k++) {
			if (pl->series[k].panel != p)
				continue;
			int colour = colour_of(pl->kind, pl->series, k);
			if (pl->has_range[k]) {
				fprintf(gp, "%ssb_data index %zu using 1:5:6 with filledcurves lc %d notitle",
					first ? "" : ", \\\n     ", k, colour);
				first = 0;
			}
			fprintf(gp, "%ssb_data index %zu using 1:2:3:4 with yerrorlines lc %d lw 1.5 pt 7 ps 0.6 title ",
				first ? "" : ", \\\n     ", k, colour);
			char label[128];
			legend_name(pl->kind, pl->series[k].row, label, sizeof(label));
			put_label(gp, label);
			first = 0;
		}
		fputc('\n', gp);
	}
	fputs("unset multiplot\nset output\n", gp);
}

/* Commits the script and the data (kept whether gnuplot drew or not);
 * 0, or -1 with err. */
static int keep_sides(struct sb_safe_file *gp, struct sb_safe_file *dat, char *err, size_t errlen)
{
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	if (sb_safe_file_commit(dat, why, sizeof(why)) != 0) {
		sb_safe_file_abort(gp);
		sb_set_err(err, errlen, "plot: %s", why);
		return -1;
	}
	if (sb_safe_file_commit(gp, why, sizeof(why)) != 0) {
		sb_set_err(err, errlen, "plot: %s", why);
		return -1;
	}
	return 0;
}

/* Writes the data and the script beside the image, then gnuplot draws the
 * image into a temporary, renamed over the image only when gnuplot exited
 * 0 and the image is whole. */
static int draw(struct plan *pl, char *err, size_t errlen)
{
	char gp_path[SB_SAFE_FILE_PATH_MAX + 1], dat_path[SB_SAFE_FILE_PATH_MAX + 1], dir[SB_SAFE_FILE_PATH_MAX + 1];
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	const char *image = pl->image;
	if (beside(image, ".gp", gp_path, sizeof(gp_path)) || beside(image, ".dat", dat_path, sizeof(dat_path)) ||
	    sb_safe_file_path_ok(image, why, sizeof(why))) {
		sb_set_err(err, errlen, "plot: '%.60s...': the path is too long", image);
		return 2;
	}
	const char *slash = strrchr(image, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - image + (slash == image)) : 1, slash ? image : ".");
	struct sb_safe_file dat, gp, img;
	if (sb_safe_file_open(&dat, dat_path, 0, why, sizeof(why)) != 0) {
		sb_set_err(err, errlen, "plot: %s", why);
		return 2;
	}
	write_data(dat.f, pl);
	if (sb_safe_file_open(&gp, gp_path, 0, why, sizeof(why)) != 0) {
		sb_safe_file_abort(&dat);
		sb_set_err(err, errlen, "plot: %s", why);
		return 2;
	}
	write_script(gp.f, pl, gp_path, dat_path);
	if (sb_safe_file_detach(&dat, why, sizeof(why)) != 0 || sb_safe_file_detach(&gp, why, sizeof(why)) != 0) {
		sb_safe_file_abort(&dat);
		sb_safe_file_abort(&gp);
		sb_set_err(err, errlen, "plot: %s, nothing written", why);
		return 1;
	}
	if (!have_gnuplot()) {
		if (keep_sides(&gp, &dat, err, errlen) != 0)
			return 1;
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox): %s not drawn; "
			   "%s and %s written", image, gp_path, dat_path);
		return 1;
	}
	if (sb_safe_file_open(&img, image, 0, why, sizeof(why)) != 0 || sb_safe_file_detach(&img, why, sizeof(why))) {
		sb_safe_file_abort(&dat);
		sb_safe_file_abort(&gp);
		sb_set_err(err, errlen, "plot: %s", why);
		return 2;
	}
	int rc = run_gnuplot(dir, base_name(gp.tmp), base_name(dat.tmp), base_name(img.tmp));
	if (keep_sides(&gp, &dat, err, errlen) != 0) {
		sb_safe_file_abort(&img);
		return 1;
	}
	if (rc != 0 || !image_complete(img.tmp, ends_with(image, ".png"))) {
		sb_safe_file_abort(&img);
		if (rc != 0)
			sb_set_err(err, errlen, "plot: gnuplot failed on %s (status %d), %s not written", gp_path, rc, image);
		else
			sb_set_err(err, errlen, "plot: gnuplot's image for %s is incomplete (a full disk?): not written",
				   image);
		return 1;
	}
	if (sb_safe_file_commit(&img, why, sizeof(why)) != 0) {
		sb_set_err(err, errlen, "plot: %s", why);
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

	struct plan pl = {run, image, term, kind, panels, n_panels, rows, cols, used, series, n_series, {0}};
	return draw(&pl, err, errlen);
}

/* plot.c: cost vs batch size through gnuplot; see plot.h. */
#define _GNU_SOURCE
#include "stubbench/plot.h"
#include "stubbench/error.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stubbench/lab.h"
#include "stubbench/variants.h"

#define MAX_LINES 64
#define SHAPES 3

static const char *const shape_title[SHAPES] = {"per-run", "in-loop", "other"};

int sb_plot_have_gnuplot(void)
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

static int shape_of(const char *arm_name)
{
	const struct sb_variant *v = sb_variant_find(arm_name);
	if (!v || !v->shape)
		return 2;
	return strcmp(v->shape, "in-loop") == 0 ? 1 : strcmp(v->shape, "per-run") == 0 ? 0 : 2;
}

/* Dash type per return flavour of a lab arm (1 solid for everything else). */
static int dash_of(const char *arm_name)
{
	const struct sb_variant *v = sb_variant_find(arm_name);
	const struct sb_lab_info *li = v ? sb_lab_info_of(v) : NULL;
	return li ? 1 + (int)li->ret : 1;
}

/* Colour per alternative of a lab arm, the same across return flavours
 * (0: let gnuplot choose). */
static int colour_of(const char *arm_name)
{
	const struct sb_variant *v = sb_variant_find(arm_name);
	const struct sb_lab_info *li = v ? sb_lab_info_of(v) : NULL;
	return li ? 1 + (int)li->alt : 0;
}

/* gnuplot single-quoted string: '' is a quote. */
static void put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

struct line {
	const char *name;
	int shape;
};

/* The gnuplot terminal for path's extension, or NULL with a reason. */
static const char *terminal_of(const char *path, char *err, size_t errlen)
{
	if (!path || !*path) {
		sb_set_err(err, errlen, "plot: no file name");
		return NULL;
	}
	if (strchr(path, '\n')) {
		sb_set_err(err, errlen, "plot: the file name has a newline");
		return NULL;
	}
	const char *dot = strrchr(path, '.');
	if (dot && strcmp(dot, ".svg") == 0)
		return "svg size 1100,900 dynamic enhanced font 'sans,10'";
	if (dot && strcmp(dot, ".png") == 0)
		return "pngcairo size 1100,900 enhanced font 'sans,10'";
	sb_set_err(err, errlen, "plot: %s: the file name must end in .svg or .png", path);
	return NULL;
}

int sb_plot_check_path(const char *path, char *err, size_t errlen)
{
	if (!terminal_of(path, err, errlen))
		return -1;
	/* Open it for writing without truncating it; remove it again if it
	 * was not there (a file the run will not write must not be left). */
	int existed = access(path, F_OK) == 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		sb_set_err(err, errlen, "plot: %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (!existed)
		unlink(path);
	if (!sb_plot_have_gnuplot()) {
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox), "
			"%s will not be written", path);
		return 1;
	}
	return 0;
}

int sb_plot_write(const struct sb_results *r, const char *path, char *err, size_t errlen)
{
	return sb_plot_write_labelled(r, path, NULL, err, errlen);
}

int sb_plot_write_labelled(const struct sb_results *r, const char *path, const struct sb_plot_labels *labels,
			   char *err, size_t errlen)
{
	static const struct sb_plot_labels batch_labels = {
		"stubbench: cost per iteration vs batch size (mean, 95% CI; solid ret, dashed rethunk, dotted call depth)",
		"batch (iterations per sample)", "core cycles per iteration", "other"};
	if (!labels)
		labels = &batch_labels;
	const char *term = terminal_of(path, err, errlen);
	if (!term)
		return -1;
	if (!r || r->n_cells == 0) {
		sb_set_err(err, errlen, "plot: %s: no results to plot", path);
		return -1;
	}
	if (!sb_plot_have_gnuplot()) {
		sb_set_err(err, errlen, "plot: gnuplot not found on PATH (apt-get install gnuplot-nox), "
			"%s not written", path);
		return -1;
	}

	/* The lines: distinct arm names in order of appearance. */
	struct line lines[MAX_LINES];
	size_t n_lines = 0;
	for (size_t c = 0; c < r->n_cells; c++) {
		const char *name = r->cells[c].arm ? r->cells[c].arm->name : NULL;
		if (!name || r->cells[c].no_samples[0])
			continue;
		size_t l;
		for (l = 0; l < n_lines && strcmp(lines[l].name, name); l++)
			;
		if (l == n_lines && n_lines < MAX_LINES)
			lines[n_lines++] = (struct line){name, shape_of(name)};
	}
	if (n_lines == 0) {
		sb_set_err(err, errlen, "plot: %s: no named arms to plot", path);
		return -1;
	}
	int used[SHAPES] = {0, 0, 0}, n_panels = 0;
	for (size_t l = 0; l < n_lines; l++)
		used[lines[l].shape] = 1;
	for (int s = 0; s < SHAPES; s++)
		n_panels += used[s];

	/* Truncate now: a clear error for a path that cannot be written, and
	 * "non-empty afterwards" means written by this gnuplot run. */
	FILE *probe = fopen(path, "w");
	if (!probe) {
		sb_set_err(err, errlen, "plot: %s: %s", path, strerror(errno));
		return -1;
	}
	fclose(probe);
	/* gnuplot's own messages go to stderr; a gnuplot that dies early must
	 * not take this process down with SIGPIPE. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGPIPE, &ign, &old);
	FILE *gp = popen("gnuplot 1>&2", "w");
	if (!gp) {
		sb_set_err(err, errlen, "plot: cannot start gnuplot: %s", strerror(errno));
		sigaction(SIGPIPE, &old, NULL);
		return -1;
	}
	fprintf(gp, "set terminal %s\nset output ", term);
	put_quoted(gp, path);
	fputc('\n', gp);
	/* One data block per line: batch, mean, CI low, CI high. */
	for (size_t l = 0; l < n_lines; l++) {
		fprintf(gp, "$d%zu << EOD\n", l);
		for (size_t c = 0; c < r->n_cells; c++) {
			const struct sb_cell *cell = &r->cells[c];
			if (!cell->arm || !cell->arm->name || strcmp(cell->arm->name, lines[l].name) ||
			    cell->no_samples[0])
				continue;
			fprintf(gp, "%llu %.6g %.6g %.6g\n", (unsigned long long)cell->batch,
				cell->cycles.mean, cell->cycles.ci_lo, cell->cycles.ci_hi);
		}
		fprintf(gp, "EOD\n");
	}
	fprintf(gp, "set multiplot layout %d,1 title ", n_panels);
	put_quoted(gp, labels->title);
	fprintf(gp, " noenhanced\nset logscale x 2\nset grid\nset key outside right top noenhanced\nset xlabel ");
	put_quoted(gp, labels->xlabel);
	fprintf(gp, "\nset ylabel ");
	put_quoted(gp, labels->ylabel);
	fputc('\n', gp);
	for (int s = 0; s < SHAPES; s++) {
		if (!used[s])
			continue;
		fprintf(gp, "set title ");
		put_quoted(gp, s == SHAPES - 1 ? labels->other_panel : shape_title[s]);
		fprintf(gp, " noenhanced\nplot ");
		int first = 1;
		for (size_t l = 0; l < n_lines; l++) {
			if (lines[l].shape != s)
				continue;
			fprintf(gp, "%s$d%zu using 1:2:3:4 with yerrorlines dt %d lw 1.5 ",
				first ? "" : ", ", l, dash_of(lines[l].name));
			if (colour_of(lines[l].name))
				fprintf(gp, "lc %d ", colour_of(lines[l].name));
			fprintf(gp, "title ");
			put_quoted(gp, lines[l].name);
			first = 0;
		}
		fputc('\n', gp);
	}
	fprintf(gp, "unset multiplot\nset output\n");
	int status = pclose(gp);
	sigaction(SIGPIPE, &old, NULL);
	struct stat st;
	if (status != 0) {
		sb_set_err(err, errlen, "plot: gnuplot failed writing %s (status %d)", path, status);
		return -1;
	}
	if (stat(path, &st) != 0 || st.st_size == 0) {
		sb_set_err(err, errlen, "plot: gnuplot did not write %s", path);
		return -1;
	}
	return 0;
}

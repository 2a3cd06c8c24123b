/* run_plot.c: runs drawn by gnuplot; see run_plot.h. */
#define _GNU_SOURCE
#include "plot/run_plot.h"
#include "base/error.h"
#include "output/figures.h"
#include "base/safe_file.h"
#include "plot_script.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
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

int sb_run_plot_writes(const char *image, const char *path)
{
	struct stat in;
	if (stat(path, &in) != 0)
		return 0;
	char side[SB_SAFE_FILE_PATH_MAX + 1];
	for (int i = 0; i < 3; i++) {
		struct stat st;
		if (beside(image, i == 0 ? NULL : i == 1 ? ".gp" : ".dat", side, sizeof(side)) == 0 &&
		    stat(side, &st) == 0 && st.st_dev == in.st_dev && st.st_ino == in.st_ino)
			return 1;
	}
	return 0;
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

/* The figure the cost panels draw: figure, or for SB_PLOT_FIGURE_DEFAULT
 * the cycles vs baseline where the run has them, else the %. */
static int resolve_figure(const struct sb_run_file *run, int figure)
{
	int cycles = sb_figure_index("delta-cycles");
	if (figure >= 0 || cycles < 0)
		return figure >= 0 ? figure : SB_FIGURE_DELTA;
	for (size_t i = 0; i < run->n_rows; i++)
		if (sb_estimate_known(&run->rows[i].figures[cycles]) && isfinite(run->rows[i].figures[cycles].value))
			return cycles;
	return SB_FIGURE_DELTA;
}

/* The data and the script of the run's kind; 0, or -1 with err. */
static int write_sides(const struct plot_job *job, FILE *dat, FILE *gp, char *err, size_t errlen)
{
	const char *tool = job->run->tool;
	if (strstr(tool, "lab"))
		return plot_bars(job, dat, gp, err, errlen);
	return plot_lines(job, strstr(tool, "kernel") ? PLOT_KERNEL : strstr(tool, "footprint") ? PLOT_FOOTPRINT : PLOT_MAIN,
			  dat, gp, err, errlen);
}

/* Writes the data and the script beside the image, then gnuplot draws the
 * image into a temporary, renamed over the image only when gnuplot exited
 * 0 and the image is whole. */
static int draw(struct plot_job *job, char *err, size_t errlen)
{
	char gp_path[SB_SAFE_FILE_PATH_MAX + 1], dat_path[SB_SAFE_FILE_PATH_MAX + 1], dir[SB_SAFE_FILE_PATH_MAX + 1];
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	const char *image = job->image;
	if (beside(image, ".gp", gp_path, sizeof(gp_path)) || beside(image, ".dat", dat_path, sizeof(dat_path)) ||
	    sb_safe_file_path_ok(image, why, sizeof(why))) {
		sb_set_err(err, errlen, "plot: '%.60s...': the path is too long", image);
		return 2;
	}
	job->gp_path = gp_path, job->dat_path = dat_path;
	const char *slash = strrchr(image, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - image + (slash == image)) : 1, slash ? image : ".");
	struct sb_safe_file dat, gp, img;
	if (sb_safe_file_open(&dat, dat_path, 0, why, sizeof(why)) != 0) {
		sb_set_err(err, errlen, "plot: %s", why);
		return 2;
	}
	if (sb_safe_file_open(&gp, gp_path, 0, why, sizeof(why)) != 0) {
		sb_safe_file_abort(&dat);
		sb_set_err(err, errlen, "plot: %s", why);
		return 2;
	}
	if (write_sides(job, dat.f, gp.f, err, errlen) != 0) {
		sb_safe_file_abort(&dat);
		sb_safe_file_abort(&gp);
		return 2;
	}
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
	if (figure >= (int)sb_figure_count()) {
		sb_set_err(err, errlen, "plot: figure %d: no such figure", figure);
		return 2;
	}
	struct plot_job job = {.run = run, .image = image, .term = term, .figure = resolve_figure(run, figure)};
	return draw(&job, err, errlen);
}

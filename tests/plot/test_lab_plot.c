/* The plot writer (run_plot.c) on synthetic lab results: an SVG and a PNG
 * are written and hold what they should when gnuplot is there: a panel per
 * shape and return flavour, the alternatives as bars of their cost vs the
 * baseline (a row without a lab key and the baselines are no bars);
 * without gnuplot on PATH, a bad extension, nothing to plot or an
 * unwritable path give a clear error naming the cause and leave no plot
 * behind. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "harness/harness.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0;
	*len = 0;
	for (;;) {
		if (*len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
		}
		size_t n = fread(buf + *len, 1, 4096, f);
		*len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[*len] = 0;
	return buf;
}

static off_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Whether gnuplot is on PATH, looked up independently of run_plot.c. */
static int have_gnuplot(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* Results as `stubbench lab --plot` draws them: 0, 1 (gnuplot) or 2 (input). */
static int plot(const struct sb_results *r, const char *path, char *err, size_t errlen)
{
	struct sb_run_file run;
	if (sb_run_file_from_results(r, "stubbench lab", &run) != 0)
		return -1;
	int rc = sb_run_plot(&run, path, SB_PLOT_FIGURE_DEFAULT, err, errlen);
	sb_run_file_free(&run);
	return rc;
}

int main(void)
{
	/* Arms of both shapes and four returns over three batches, known
	 * values; each arm's key is what the plot draws it by. */
	static const char *const names[] = {"lab-baseline-perrun", "lab-mainline-perrun",
					    "lab-reload-rethunk-perrun", "lab-baseline-inloop",
					    "lab-spill-once-calldepth-inloop", "lab-mainline-srso-perrun",
					    "not-a-variant"};
	static const char *const keys[][3] = {{"baseline", "ret", "per-run"},       {"mainline", "ret", "per-run"},
					      {"reload", "rethunk", "per-run"},     {"baseline", "ret", "in-loop"},
					      {"spill-once", "calldepth", "in-loop"}, {"mainline", "srso", "per-run"}};
	enum { N_ARMS = 7, N_B = 3 };
	static const uint64_t batches[N_B] = {1, 64, 4096};
	struct sb_arm arms[N_ARMS];
	struct sb_cell cells[N_ARMS * N_B];
	memset(arms, 0, sizeof(arms));
	memset(cells, 0, sizeof(cells));
	for (int a = 0; a < N_ARMS; a++) {
		arms[a].name = names[a];
		if (a < N_ARMS - 1)
			sb_cell_key_set(&arms[a].key, SB_SIDE_LAB, "lab", keys[a][0], "v6.18", keys[a][1], keys[a][2],
					names[a]);
		for (int b = 0; b < N_B; b++) {
			struct sb_cell *c = &cells[a * N_B + b];
			c->arm = &arms[a];
			c->batch = batches[b];
			c->n_samples = 10;
			c->cycles.mean = 20.0 + a + 10.0 / (double)(b + 1);
			c->cycles.ci_lo = c->cycles.mean - 0.5;
			c->cycles.ci_hi = c->cycles.mean + 0.5;
			/* Every alternative 1 + a cycles dearer than its baseline. */
			if (a > 0 && a != 3)
				c->delta_cycles = sb_estimate_of(1.0 + a, 0.5 + a, 1.5 + a);
		}
	}
	struct sb_results r;
	memset(&r, 0, sizeof(r));
	r.cells = cells;
	r.n_cells = N_ARMS * N_B;
	r.n_batches = N_B;

	char dir[] = "/tmp/stubbench_plot_XXXXXX";
	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	char svg[256], png[256], txt[256], bad[256];
	snprintf(svg, sizeof(svg), "%s/lab.svg", dir);
	snprintf(png, sizeof(png), "%s/lab.png", dir);
	snprintf(txt, sizeof(txt), "%s/lab.txt", dir);
	snprintf(bad, sizeof(bad), "%s/no/such/dir/lab.svg", dir);
	char err[512];

	int gp = have_gnuplot();
	/* The bars name the alternative; the panel says shape and flavour. */
	static const char *const legends[] = {"mainline", "reload", "spill-once"};
	if (gp) {
		err[0] = 0;
		CHECK(plot(&r, svg, err, sizeof(err)) == 0, "svg: %s", err);
		size_t len = 0;
		char *s = slurp(svg, &len);
		CHECK(s && len > 0, "svg not written");
		if (s) {
			CHECK(strstr(s, "<svg") != NULL, "not an SVG");
			for (size_t a = 0; a < sizeof(legends) / sizeof(legends[0]); a++)
				CHECK(strstr(s, legends[a]) != NULL, "SVG has no line titled %s", legends[a]);
			CHECK(strstr(s, "per-run, ret,") && strstr(s, "per-run, rethunk,") && strstr(s, "in-loop, calldepth,") &&
			      strstr(s, "per-run, srso,"), "SVG lacks a shape and flavour panel");
			CHECK(!strstr(s, "not-a-variant") && !strstr(s, ">baseline<"), "SVG draws a baseline or a row without a key");
		}
		free(s);
		CHECK(plot(&r, png, err, sizeof(err)) == 0, "png: %s", err);
		s = slurp(png, &len);
		CHECK(s && len > 8 && memcmp(s, "\x89PNG", 4) == 0, "not a PNG");
		free(s);
	} else {
		printf("gnuplot not installed: checking the error path only\n");
	}

	/* Without gnuplot on PATH: a one-line reason, status 1, no image (the
	 * script and data are written). */
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", dir, 1);
	unlink(svg);
	CHECK(plot(&r, svg, err, sizeof(err)) == 1, "plot without gnuplot did not say 1");
	CHECK(strstr(err, "gnuplot not found") && strstr(err, svg) && !strchr(err, '\n'),
	      "unclear message without gnuplot: '%s'", err);
	CHECK(file_size(svg) == -1, "a plot file appeared without gnuplot");
	/* The srso arm is drawn in the srso panel: the script's panels in
	 * order, each followed by its bars' names. */
	char gp_path[300];
	snprintf(gp_path, sizeof(gp_path), "%s/lab.gp", dir);
	size_t gp_len = 0;
	char *script = slurp(gp_path, &gp_len);
	const char *srso = script ? strstr(script, "set title 'per-run, srso, batch 4096") : NULL;
	const char *next = srso ? strstr(srso + 1, "set title") : NULL;
	const char *line = srso ? strstr(srso, "set xtics ('mainline' 0)") : NULL;
	CHECK(srso && line && (!next || line < next), "the srso arm is not in the 'per-run, srso' panel");
	/* per-run, ret: mainline (2 cycles) only; its rethunk: reload (3). */
	CHECK(script && strstr(script, "set title 'per-run, ret, batch 4096") && strstr(script, "set xtics ('reload' 0)"),
	      "the ret and rethunk panels lack their bars");
	free(script);
	if (old)
		setenv("PATH", old, 1);
	free(old);

	/* Bad input: extension, nothing to plot, unwritable path. */
	CHECK(plot(&r, txt, err, sizeof(err)) == 2 && strstr(err, txt) && strstr(err, ".svg or .png"),
	      "bad extension: '%s'", err);
	CHECK(file_size(txt) == -1, "a .txt file was written");
	struct sb_results empty;
	memset(&empty, 0, sizeof(empty));
	CHECK(plot(&empty, svg, err, sizeof(err)) == 2 && strstr(err, "no result"), "empty results: '%s'", err);
	CHECK(plot(&r, bad, err, sizeof(err)) == 2 && strstr(err, "/no/such/dir/lab."), "unwritable path: '%s'", err);

	static const char *const side[] = {"lab.svg", "lab.png", "lab.gp", "lab.dat"};
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		char path[300];
		snprintf(path, sizeof(path), "%s/%s", dir, side[i]);
		unlink(path);
	}
	rmdir(dir);
	return check_report("test_lab_plot");
}

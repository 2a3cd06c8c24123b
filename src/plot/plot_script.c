/* plot_script.c: text, first lines, colours and y ranges of the gnuplot
 * scripts run_plot.c writes; see plot_script.h. */
#include "plot_script.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/figures.h"
#include "answer/answer.h"
#include "output/figures.h"
#include "base/machine_name.h"

void plot_clean_text(const char *s, char *buf, size_t len)
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

void plot_put_quoted(FILE *f, const char *s)
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

void plot_put_label(FILE *f, const char *s)
{
	char buf[1024];
	plot_clean_text(s, buf, sizeof(buf));
	fprintf(f, "'%s'", buf);
}

void plot_put_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, " %.6g", v);
	else
		fputs(" NaN", f);
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

/* The machine as the summary names it ("Intel Emerald Rapids (6/0xcf), KVM
 * guest", else the model's words, "AMD EPYC"), and the CPU the run was
 * pinned to; through plot_clean_text but for its apostrophes ("KVM's"),
 * which plot_put_quoted doubles. */
static void plot_machine(const struct sb_run_file *run, char *buf, size_t len)
{
	char name[256], cpu[24] = "";
	sb_machine_name(&run->id, name, sizeof(name));
	if (!name[0])
		sb_answer_cpu_name(run->machine, name, sizeof(name));
	plot_clean_text(name, buf, len);
	for (size_t i = 0; buf[i] && name[i]; i++)
		if (name[i] == '\'')
			buf[i] = '\'';
	if (run->cpu >= 0)
		snprintf(cpu, sizeof(cpu), ", CPU %d", run->cpu);
	size_t n = strlen(buf);
	if (buf[0] && n < len)
		snprintf(buf + n, len - n, "%s", cpu);
}

/* The title: tool, machine, kernel, how returns go, date; each part from
 * plot_clean_text. */
static void plot_title(const struct sb_run_file *run, char *title, size_t len)
{
	char release[128], tool[128], machine[384], thunk_text[128], date[64];
	kernel_release(run->kernel, title, len);
	plot_clean_text(title, release, sizeof(release));
	plot_clean_text(run->tool, tool, sizeof(tool));
	plot_machine(run, machine, sizeof(machine));
	plot_clean_text(run->date, date, sizeof(date));
	/* The JIT flavour's last clause says how JITed code returns. */
	const char *thunk = strrchr(run->thunk, ',');
	plot_clean_text(thunk ? thunk + 1 + (thunk[1] == ' ') : run->thunk, thunk_text, sizeof(thunk_text));
	/* The machine line of a run made in this process names the kernel
	 * already ("..., Linux 6.18.44"): said once. */
	int kernel_named = release[0] && strstr(machine, release) != NULL;
	snprintf(title, len, "%s: %s%s%s%s%s; %s", tool[0] ? tool : "stubbench", machine[0] ? machine : "machine unknown",
		 kernel_named ? "" : "; ", kernel_named ? "" : (release[0] ? release : "kernel unknown"),
		 thunk_text[0] ? "; returns: " : "", thunk_text, date[0] ? date : "date unknown");
}

void plot_begin(FILE *gp, const struct plot_job *job, int height, int rows, int cols, const char *layout)
{
	/* Okabe and Ito's colours, told apart by most colour-blind readers. */
	static const char *const colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
					      "#e69f00", "#56b4e9", "#000000", "#999999"};
	char title[1024], a[1024], b[1024];
	plot_title(job->run, title, sizeof(title));
	plot_clean_text(job->run->tool, a, sizeof(a));
	plot_clean_text(job->run->path, b, sizeof(b));
	fprintf(gp, "# %s, drawn from %s by stubbench plot; rerun: gnuplot ", a, b);
	plot_clean_text(base_name(job->gp_path), a, sizeof(a));
	fprintf(gp, "%s\nif (!exists(\"sb_data\")) sb_data = ", a);
	plot_put_label(gp, base_name(job->dat_path));
	fputs("\nif (!exists(\"sb_output\")) sb_output = ", gp);
	plot_put_label(gp, base_name(job->image));
	fputs("\nset terminal ", gp);
	fprintf(gp, job->term, height);
	fputs("\nset output sb_output\nset datafile missing 'NaN'\n", gp);
	for (int i = 0; i < 8; i++)
		fprintf(gp, "set linetype %d lc rgb '%s' lw 2 pt 7 ps 0.8\n", i + 1, colours[i]);
	fputs("set linetype cycle 8\nset grid ytics lc rgb '#dddddd' lt 1 lw 1\nset border 3\nset tics nomirror\n", gp);
	fprintf(gp, "set multiplot layout %d,%d title ", rows, cols);
	plot_put_quoted(gp, title); /* its parts cleaned */
	fprintf(gp, " noenhanced font ',12'%s%s\n", layout ? " " : "", layout ? layout : "");
}

void plot_data_header(FILE *dat, const struct plot_job *job, const char *columns)
{
	char tool[256], path[1024];
	plot_clean_text(job->run->tool, tool, sizeof(tool));
	plot_clean_text(job->run->path, path, sizeof(path));
	fprintf(dat, "# %s: %s\n# columns: %s (NaN: none)\n", tool, path, columns);
}

void plot_range_init(struct plot_range *r)
{
	r->n = 0;
}

void plot_range_add(struct plot_range *r, double v, double lo, double hi)
{
	if (!isfinite(v) || r->n >= PLOT_RANGE_MAX)
		return;
	r->v[r->n] = v;
	r->lo[r->n] = isfinite(lo) && lo <= v ? lo : NAN;
	r->hi[r->n] = isfinite(hi) && hi >= v ? hi : NAN;
	r->n++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int plot_range_get(const struct plot_range *r, int with_zero, double *lo, double *hi)
{
	if (r->n == 0)
		return -1;
	double half[PLOT_RANGE_MAX];
	int n_half = 0;
	for (int i = 0; i < r->n; i++)
		if (isfinite(r->lo[i]) && isfinite(r->hi[i]))
			half[n_half++] = (r->hi[i] - r->lo[i]) / 2;
	qsort(half, (size_t)n_half, sizeof(half[0]), cmp_double);
	double cap = n_half ? 3 * half[n_half / 2] : 0;
	double a = with_zero ? 0 : r->v[0], b = a;
	for (int i = 0; i < r->n; i++) {
		double down = isfinite(r->lo[i]) ? fmin(r->v[i] - r->lo[i], cap) : 0;
		double up = isfinite(r->hi[i]) ? fmin(r->hi[i] - r->v[i], cap) : 0;
		a = fmin(a, r->v[i] - down);
		b = fmax(b, r->v[i] + up);
	}
	double pad = b > a ? 0.08 * (b - a) : fabs(a) > 0 ? 0.1 * fabs(a) : 1;
	*lo = a - pad, *hi = b + pad;
	return 0;
}

const char *plot_figure_axis(int figure)
{
	const struct sb_figure *f = sb_figure_at((size_t)figure);
	if (figure == sb_figure_index("delta-cycles"))
		return "cycles added per iteration";
	if (figure == SB_FIGURE_DELTA)
		return "% added to the baseline's cycles";
	return f ? f->title : "?";
}

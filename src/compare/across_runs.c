/* across_runs.c: saved runs side by side, a row per run; see across_runs.h. */
#include "compare/across_runs.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "base/error.h"
#include "answer/atlas.h"
#include "answer/kernel_verdict.h"
#include "base/machine_name.h"
#include "saved/state_figures.h"
#include "answer/answer.h"
#include "base/error.h"
#include "answer/kernel_verdict.h"
#include "saved/run_json.h"
#include "base/machine_name.h"
#include "saved/state_figures.h"

#define ACROSS_NAME 128
#define ACROSS_CELL 96
/* A machine's name at most this wide in a row's name (a longer one is cut). */
#define ACROSS_MACHINE_COLUMNS 40
/* A row's name: the machine's, its mark and what tells it from another row. */
#define ACROSS_LABEL 256

struct across {
	const struct sb_run_file *runs;
	size_t n;
	uint64_t batch;
	size_t *machine;           /* [run]: the first run of its row (a machine) */
	size_t n_machines;         /* rows */
	size_t n_kinds;            /* machines: rows of one machine name count once */
	int *mine;                 /* [run]: given beside the atlas's runs, marked "this run" */
	int *full_kernel;          /* [first run]: its kernel column has the whole release */
	char (*label)[ACROSS_LABEL]; /* [first run]: the row's name, no two alike */
	int width;                 /* the text form's columns */
	int dashes;                /* a "-" was printed: the footer says what it means */
	char (*cols)[ACROSS_NAME]; /* the variants, in order of first appearance */
	size_t n_cols;
	int verdicts;              /* some run is a kernel run: its twins' verdicts column */
	int states;                /* some run has figures per core state: the first column's, by state */
	char states_title[160];
	char unmatched[512];       /* the variants of one run alone, for the one line */
	const char *left_out;      /* the runs without a figure at the batch ("": none) */
	uint64_t **batches;        /* [run]: the batch sizes with a variant's row, ascending, once each */
	size_t *n_batches;
	size_t *col_slots, n_slots; /* the columns by name: index + 1, 0 empty (open addressing) */
};

static int cmp_batch(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* Each run's batch sizes with a variant's row, sorted: has_batch in O(log n). */
static int index_batches(struct across *a)
{
	a->batches = calloc(a->n, sizeof(*a->batches));
	a->n_batches = calloc(a->n, sizeof(*a->n_batches));
	if (!a->batches || !a->n_batches)
		return -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_run_file *rf = &a->runs[i];
		uint64_t *b = malloc((rf->n_rows ? rf->n_rows : 1) * sizeof(*b));
		if (!b)
			return -1;
		size_t n = 0;
		for (size_t r = 0; r < rf->n_rows; r++)
			if (sb_run_variant_row(&rf->rows[r]))
				b[n++] = rf->rows[r].batch;
		qsort(b, n, sizeof(*b), cmp_batch);
		size_t u = 0;
		for (size_t k = 0; k < n; k++)
			if (!u || b[u - 1] != b[k])
				b[u++] = b[k];
		a->batches[i] = b;
		a->n_batches[i] = u;
	}
	return 0;
}

static void free_batches(struct across *a)
{
	for (size_t i = 0; a->batches && i < a->n; i++)
		free(a->batches[i]);
	free(a->batches);
	free(a->n_batches);
	free(a->col_slots);
	a->batches = NULL, a->n_batches = NULL, a->col_slots = NULL;
}

static int has_batch(const struct across *a, size_t run, uint64_t b)
{
	return bsearch(&b, a->batches[run], a->n_batches[run], sizeof(b), cmp_batch) != NULL;
}

/* The largest batch at which every run has a variant's figure; 0: none. */
static uint64_t common_batch(const struct across *a)
{
	for (size_t k = a->n_batches[0]; k-- > 0;) {
		uint64_t b = a->batches[0][k];
		size_t i = 1;
		while (i < a->n && has_batch(a, i, b))
			i++;
		if (i == a->n)
			return b;
	}
	return 0;
}

/* The batch the most runs have a variant's figure at (of those, the
 * largest); 0: none. */
static uint64_t most_runs_batch(const struct across *a)
{
	uint64_t best = 0;
	size_t most = 0;
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < a->n_batches[i]; k++) {
			uint64_t b = a->batches[i][k];
			if (b == best)
				continue;
			size_t c = 0;
			for (size_t j = 0; j < a->n; j++)
				c += has_batch(a, j, b);
			if (c > most || (c == most && b > best))
				best = b, most = c;
		}
	return best;
}

static int table_row(const struct sb_run_row *r)
{
	return r->key.placement < 0 && sb_run_variant_row(r);
}

static const struct sb_run_row *variant_at(const struct sb_run_file *rf, const char *name, uint64_t batch)
{
	return sb_run_file_find_if(rf, name, batch, table_row);
}

/* The row of variant name on the machine of run m (a first run): from
 * the first of its runs that has it. */
static const struct sb_run_row *machine_row(const struct across *a, size_t m, const char *name, size_t *run)
{
	for (size_t i = m; i < a->n; i++) {
		const struct sb_run_row *r = a->machine[i] == m ? variant_at(&a->runs[i], name, a->batch) : NULL;
		if (r) {
			*run = i;
			return r;
		}
	}
	return NULL;
}

static size_t machines_with(const struct across *a, const char *name)
{
	size_t k = 0, run;
	for (size_t i = 0; i < a->n; i++)
		k += a->machine[i] == i && machine_row(a, i, name, &run) != NULL;
	return k;
}

static void machine_of(const struct sb_run_file *rf, char *buf, size_t len);

static void kernel_of(const struct across *a, size_t i, char *buf, size_t len);
static void thunk_of(const struct sb_run_file *rf, char *buf, size_t len);

/* Which runs were given beside the atlas's: where some run is the atlas's,
 * every run that is not. */
static void mark_mine(struct across *a)
{
	const char *dir = sb_atlas_dir();
	int atlas = 0;
	for (size_t i = 0; i < a->n; i++)
		atlas |= (a->mine[i] = sb_atlas_holds(dir, a->runs[i].path));
	for (size_t i = 0; i < a->n; i++)
		a->mine[i] = atlas && !a->mine[i];
}

/* Rows i and j (first runs) read the same: name, kernel and returns. */
static int rows_alike(const struct across *a, size_t i, size_t j)
{
	char ki[100], kj[100], ti[300], tj[300];
	kernel_of(a, i, ki, sizeof(ki));
	kernel_of(a, j, kj, sizeof(kj));
	thunk_of(&a->runs[i], ti, sizeof(ti));
	thunk_of(&a->runs[j], tj, sizeof(tj));
	return strcmp(a->label[i], a->label[j]) == 0 && strcmp(ki, kj) == 0 && strcmp(ti, tj) == 0;
}

/* Rows that read alike get what tells them apart: their kernel's whole
 * release where those differ, then the file of their first run, then their
 * place in the table. */
static void tell_apart(struct across *a)
{
	int *alike = calloc(a->n, sizeof(*alike));
	for (int pass = 0; alike && pass < 3; pass++) {
		for (size_t i = 0; i < a->n; i++) {
			alike[i] = 0;
			for (size_t j = 0; j < a->n && a->machine[i] == i; j++)
				alike[i] |= j != i && a->machine[j] == j && rows_alike(a, i, j);
		}
		for (size_t i = 0, row = 1; i < a->n; i++) {
			if (a->machine[i] != i)
				continue;
			const char *base = strrchr(a->runs[i].path, '/');
			size_t used = strlen(a->label[i]);
			if (alike[i] && pass == 0)
				a->full_kernel[i] = 1;
			else if (alike[i] && pass == 1)
				snprintf(a->label[i] + used, ACROSS_LABEL - used, " (%.100s)", base ? base + 1 : a->runs[i].path);
			else if (alike[i])
				snprintf(a->label[i] + used, ACROSS_LABEL - used, " #%zu", row);
			row++;
		}
	}
	free(alike);
}

/* Runs of one machine (the same name, kernel, return thunk and --host
 * name), all the atlas's or all given beside it, share a row; rows of one
 * machine name and host name are one machine. */
static int group_machines(struct across *a)
{
	a->machine = calloc(a->n, sizeof(*a->machine));
	a->mine = calloc(a->n, sizeof(*a->mine));
	a->label = calloc(a->n, sizeof(*a->label));
	a->full_kernel = calloc(a->n, sizeof(*a->full_kernel));
	if (!a->machine || !a->mine || !a->label || !a->full_kernel)
		return -1;
	mark_mine(a);
	for (size_t i = 0; i < a->n; i++) {
		char ni[160], nj[160];
		machine_of(&a->runs[i], ni, sizeof(ni));
		a->machine[i] = i;
		int kind = 1;
		for (size_t j = 0; j < i && a->machine[i] == i; j++) {
			machine_of(&a->runs[j], nj, sizeof(nj));
			if (strcmp(ni, nj) != 0 || strcmp(a->runs[i].host, a->runs[j].host) != 0)
				continue;
			kind = 0;
			if (strcmp(a->runs[i].kernel, a->runs[j].kernel) == 0 &&
			    strcmp(a->runs[i].thunk, a->runs[j].thunk) == 0 && a->mine[i] == a->mine[j])
				a->machine[i] = a->machine[j];
		}
		a->n_kinds += kind;
		if (a->machine[i] != i)
			continue;
		a->n_machines++;
		snprintf(a->label[i], ACROSS_LABEL, "%s%s%.*s%s", a->runs[i].host, a->runs[i].host[0] ? ": " : "",
			 ACROSS_MACHINE_COLUMNS, ni, a->mine[i] ? ", this run" : "");
	}
	tell_apart(a);
	return 0;
}

static size_t name_hash(const char *s)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
	return (size_t)h;
}

/* The slot of name in a->col_slots: its column's, or the empty one where it would go. */
static size_t col_slot(const struct across *a, const char *name)
{
	size_t s = name_hash(name) & (a->n_slots - 1);
	while (a->col_slots[s] && strcmp(a->cols[a->col_slots[s] - 1], name) != 0)
		s = (s + 1) & (a->n_slots - 1);
	return s;
}

static int have_col(const struct across *a, const char *name)
{
	return a->col_slots[col_slot(a, name)] != 0;
}

/* name as the next column. */
static void add_col(struct across *a, const char *name)
{
	snprintf(a->cols[a->n_cols++], ACROSS_NAME, "%s", name);
	size_t s = col_slot(a, a->cols[a->n_cols - 1]);
	if (!a->col_slots[s])
		a->col_slots[s] = a->n_cols;
}

static void add_unmatched(struct across *a, const char *name, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t used = strlen(a->unmatched);
	snprintf(a->unmatched + used, sizeof(a->unmatched) - used, "%s%.100s (%.100s)", used ? ", " : "", name,
		 base ? base + 1 : path);
}

/* A per-state figure of the first column's variant at the table's batch. */
static int quoted_state_figure(const struct across *a, const struct sb_state_figure *g)
{
	return g->batch == a->batch && strcmp(g->variant, a->cols[0]) == 0;
}

/* The figures per core state of machine m's first run that has the first
 * column's at the table's batch, or NULL. */
static const struct sb_state_figures *states_run(const struct across *a, size_t m)
{
	for (size_t i = m; i < a->n; i++) {
		const struct sb_state_figures *s = a->machine[i] == m ? a->runs[i].states : NULL;
		for (size_t k = 0; s && k < s->n; k++)
			if (quoted_state_figure(a, &s->f[k]))
				return s;
	}
	return NULL;
}

/* The columns: the asked variants, or every variant two runs have (one run:
 * its own); the rest named in a->unmatched. */
static int choose_columns(struct across *a, const struct sb_across_options *o, char *err, size_t errlen)
{
	size_t cap = 16;
	for (size_t i = 0; i < a->n; i++)
		cap += a->runs[i].n_rows;
	a->cols = calloc(cap, sizeof(*a->cols));
	for (a->n_slots = 16; a->n_slots < 2 * cap; a->n_slots *= 2)
		;
	a->col_slots = calloc(a->n_slots, sizeof(*a->col_slots));
	if (!a->cols || !a->col_slots) {
		sb_set_err(err, errlen, "out of memory");
		return 2;
	}
	for (size_t v = 0; o->variants && v < o->n_variants; v++) {
		if (!machines_with(a, o->variants[v])) {
			sb_set_err(err, errlen, "no run has variant '%s' at batch %llu", o->variants[v],
				   (unsigned long long)a->batch);
			return 2;
		}
		add_col(a, o->variants[v]);
	}
	for (size_t i = 0; !o->variants && i < a->n; i++)
		for (size_t r = 0; r < a->runs[i].n_rows; r++) {
			const struct sb_run_row *row = &a->runs[i].rows[r];
			const char *lead = sb_answer_lead_codegen(a->runs[i].tool);
			if (row->batch != a->batch || row->key.placement >= 0 || !sb_run_variant_row(row) ||
			    have_col(a, row->variant) || (lead && strcmp(row->key.codegen, lead) != 0))
				continue;
			if (a->n_machines == 1 || machines_with(a, row->variant) >= 2)
				add_col(a, row->variant);
			else
				add_unmatched(a, row->variant, a->runs[i].path);
		}
	if (!a->n_cols) {
		sb_set_err(err, errlen, "no variant is in runs of two machines at batch %llu: nothing to put side by side",
			   (unsigned long long)a->batch);
		return 2;
	}
	for (size_t i = 0; i < a->n; i++)
		a->verdicts |= strcmp(a->runs[i].tool, "stubbench kernel") == 0;
	for (size_t i = 0; i < a->n && !a->states; i++)
		a->states = a->machine[i] == i && states_run(a, i) != NULL;
	snprintf(a->states_title, sizeof(a->states_title), "%s by core state", a->cols[0]);
	return 0;
}

static void machine_of(const struct sb_run_file *rf, char *buf, size_t len)
{
	sb_machine_name(&rf->id, buf, len);
	if (!buf[0])
		sb_answer_cpu_name(rf->machine, buf, len);
}

/* "srso_alias" for srso_alias_return_thunk; "-" when the run does not say. */
static void thunk_of(const struct sb_run_file *rf, char *buf, size_t len)
{
	static const char suffix[] = "_return_thunk";
	size_t n = strlen(rf->thunk), s = sizeof(suffix) - 1;
	if (n > s && strcmp(rf->thunk + n - s, suffix) == 0)
		snprintf(buf, len, "%.*s", (int)(n - s), rf->thunk);
	else
		snprintf(buf, len, "%s", n ? rf->thunk : "-");
}

/* Run i's kernel: "6.18.44" of "Linux 6.18.44-fc-v1147 #1 ...", or
 * "6.18.44-fc-v1147" where its row needs that to differ from another. */
static void kernel_of(const struct across *a, size_t i, char *buf, size_t len)
{
	char rel[96];
	sb_answer_kernel_release(a->runs[i].kernel, a->full_kernel[a->machine[i]], rel, sizeof(rel));
	const char *v = strncmp(rel, "Linux ", 6) == 0 ? rel + 6 : rel;
	snprintf(buf, len, "%s", *v ? v : "-");
}

/* A variant's cell: "+1.31 [+0.64, +2.01] +1.3 %" (full: the % with its
 * CI too); "-" where the run lacks it. */
static void cell_of(const struct across *a, size_t m, const char *name, int full, char *buf, size_t len)
{
	size_t run;
	const struct sb_run_row *r = machine_row(a, m, name, &run);
	if (!r) {
		snprintf(buf, len, "-");
		return;
	}
	struct sb_estimate cyc = sb_run_added_cycles(&a->runs[run], r);
	const struct sb_estimate *pct = &r->figures[SB_FIGURE_DELTA];
	char c[48], p[44];
	sb_answer_estimate(c, sizeof(c), &cyc, 1);
	if (full)
		sb_answer_estimate(p, sizeof(p), pct, 1);
	else
		snprintf(p, sizeof(p), "%+.1f", pct->value);
	snprintf(buf, len, "%s%s %s %%", c, full ? " cycles," : "", p);
}

/* The first kernel run of machine m, or NULL. */
static const struct sb_run_file *kernel_run_of(const struct across *a, size_t m)
{
	for (size_t i = m; i < a->n; i++)
		if (a->machine[i] == m && strcmp(a->runs[i].tool, "stubbench kernel") == 0)
			return &a->runs[i];
	return NULL;
}

/* A kernel run's verdicts on the cost its twins add: "10 agree of 12". */
static void verdict_of(const struct across *a, size_t m, char *buf, size_t len)
{
	const struct sb_run_file *rf = kernel_run_of(a, m);
	if (!rf) {
		snprintf(buf, len, "-");
		return;
	}
	struct sb_verdict_counts vc;
	sb_kernel_verdict_count(rf, &vc);
	size_t all = vc.n[1][SB_VERDICT_AGREE] + vc.n[1][SB_VERDICT_DIFFER] + vc.n[1][SB_VERDICT_INCONCLUSIVE];
	if (!all)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%zu agree of %zu", vc.n[1][SB_VERDICT_AGREE], all);
}

/* Machine m's figures of the first column's variant per core state:
 * "quiet -2.97 [-3.00, -2.94], busy +2.96 [...]" (the codegen at identical
 * layout where the run has it, else the cost against the baseline); "-"
 * without. */
static void states_of(const struct across *a, size_t m, char *buf, size_t len)
{
	const struct sb_state_figures *s = states_run(a, m);
	size_t used = 0;
	for (size_t k = 0; s && k < s->n; k++) {
		const struct sb_state_figure *g = &s->f[k];
		if (!quoted_state_figure(a, g))
			continue;
		char e[64];
		sb_answer_estimate(e, sizeof(e), sb_estimate_known(&g->codegen) ? &g->codegen : &g->vs_base, 1);
		used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s %s", used ? ", " : "",
					 sb_core_state_name(g->state), e);
	}
	if (!used)
		snprintf(buf, len, "-");
}

/* Column c: a variant's, then the states', then the verdicts'. */
static const char *col_title(const struct across *a, size_t c)
{
	if (c < a->n_cols)
		return a->cols[c];
	return a->states && c == a->n_cols ? a->states_title : "twins vs kernel";
}

static void col_cell(const struct across *a, size_t m, size_t c, int full, char *buf, size_t len)
{
	if (c < a->n_cols)
		cell_of(a, m, a->cols[c], full, buf, len);
	else if (a->states && c == a->n_cols)
		states_of(a, m, buf, len);
	else
		verdict_of(a, m, buf, len);
}

static size_t n_columns(const struct across *a)
{
	return a->n_cols + (a->states ? 1 : 0) + (a->verdicts ? 1 : 0);
}

static size_t widest_cell(const struct across *a, size_t c)
{
	size_t w = strlen(col_title(a, c));
	for (size_t i = 0; i < a->n; i++) {
		char cell[ACROSS_CELL];
		if (a->machine[i] != i)
			continue;
		col_cell(a, i, c, 0, cell, sizeof(cell));
		if (strlen(cell) > w)
			w = strlen(cell);
	}
	return w;
}

/* The text form: the fixed columns, then the variant columns in blocks
 * that fit in a->width, the fixed columns repeated. Where a row's name and
 * one cell do not fit on a line, each row takes two: its name, then the
 * rest indented. */
static void write_text(FILE *f, struct across *a)
{
	char kern[100], thunk[300];
	int wm = 7, wk = 6, wt = 7;
	for (size_t i = 0; i < a->n; i++) {
		kernel_of(a, i, kern, sizeof(kern));
		thunk_of(&a->runs[i], thunk, sizeof(thunk));
		if (a->machine[i] == i)
			wm = (int)strlen(a->label[i]) > wm ? (int)strlen(a->label[i]) : wm;
		wk = (int)strlen(kern) > wk ? (int)strlen(kern) : wk;
		wt = (int)strlen(thunk) > wt ? (int)strlen(thunk) : wt;
	}
	wt = wt > 16 ? 16 : wt;
	int two = wm + 2 + wk + 2 + wt + 2 + (int)widest_cell(a, 0) > a->width;
	int fixed = two ? 2 + wk + 2 + wt : wm + 2 + wk + 2 + wt;
	size_t ncols = n_columns(a);
	for (size_t first = 0; first < ncols;) {
		size_t last = first;
		int width = fixed;
		size_t w[64];
		for (; last < ncols && last - first < 64; last++) {
			w[last - first] = widest_cell(a, last);
			if (last > first && width + 2 + (int)w[last - first] > a->width)
				break;
			width += 2 + (int)w[last - first];
		}
		if (first)
			fputc('\n', f);
		if (two)
			fprintf(f, "machine\n  %-*s  %-*s", wk, "kernel", wt, "returns");
		else
			fprintf(f, "%-*s  %-*s  %-*s", wm, "machine", wk, "kernel", wt, "returns");
		for (size_t c = first; c < last; c++)
			fprintf(f, "  %-*.*s", c + 1 < last ? (int)w[c - first] : 0, (int)w[c - first],
				col_title(a, c));
		fputc('\n', f);
		for (size_t i = 0; i < a->n; i++) {
			if (a->machine[i] != i)
				continue;
			kernel_of(a, i, kern, sizeof(kern));
			thunk_of(&a->runs[i], thunk, sizeof(thunk));
			a->dashes |= strcmp(kern, "-") == 0 || strcmp(thunk, "-") == 0;
			if (two)
				fprintf(f, "%.*s\n  %-*s  %-*.*s", a->width, a->label[i], wk, kern, wt, wt, thunk);
			else
				fprintf(f, "%-*s  %-*s  %-*.*s", wm, a->label[i], wk, kern, wt, wt, thunk);
			for (size_t c = first; c < last; c++) {
				char cell[ACROSS_CELL];
				col_cell(a, i, c, 0, cell, sizeof(cell));
				a->dashes |= strcmp(cell, "-") == 0;
				fprintf(f, "  %-*s", c + 1 < last ? (int)w[c - first] : 0, cell);
			}
			fputc('\n', f);
		}
		first = last;
	}
}

/* Text as one Markdown table cell: " text |", a '|' or a backslash escaped
 * (the run's strings are already free of newlines, run_json.h). */
static void md_cell(FILE *f, const char *s)
{
	fputc(' ', f);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputs(" |", f);
}

static void write_markdown(FILE *f, struct across *a)
{
	fputs("| machine | kernel | returns |", f);
	for (size_t c = 0; c < n_columns(a); c++)
		md_cell(f, col_title(a, c));
	fputs("\n|---|---|---|", f);
	for (size_t c = 0; c < n_columns(a); c++)
		fputs("---|", f);
	fputc('\n', f);
	for (size_t i = 0; i < a->n; i++) {
		char kern[100], cell[160];
		if (a->machine[i] != i)
			continue;
		kernel_of(a, i, kern, sizeof(kern));
		a->dashes |= strcmp(kern, "-") == 0 || !a->runs[i].thunk[0];
		fputc('|', f);
		md_cell(f, a->label[i]);
		md_cell(f, kern);
		md_cell(f, a->runs[i].thunk[0] ? a->runs[i].thunk : "-");
		for (size_t c = 0; c < n_columns(a); c++) {
			col_cell(a, i, c, 1, cell, sizeof(cell));
			a->dashes |= strcmp(cell, "-") == 0;
			md_cell(f, cell);
		}
		fputc('\n', f);
	}
}

static json_object *json_estimate(const struct sb_estimate *e)
{
	if (!sb_estimate_known(e) || !isfinite(e->value))
		return NULL;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "value", json_object_new_double(e->value));
	if (sb_estimate_has_ci(e)) {
		json_object *ci = json_object_new_array();
		json_object_array_add(ci, json_object_new_double(e->lo));
		json_object_array_add(ci, json_object_new_double(e->hi));
		json_object_object_add(o, "ci95", ci);
	}
	return o;
}

/* Machine m (its first run) as JSON: its runs' paths, its name and raw
 * fields, and per variant its cost with CIs. */
static json_object *json_machine(const struct across *a, size_t m)
{
	const struct sb_run_file *rf = &a->runs[m];
	char name[160], kern[100];
	machine_of(rf, name, sizeof(name));
	kernel_of(a, m, kern, sizeof(kern));
	json_object *o = json_object_new_object(), *paths = json_object_new_array();
	for (size_t i = m; i < a->n; i++)
		if (a->machine[i] == m) {
			char path[sizeof(a->runs[i].path)];
			sb_run_text(path, sizeof(path), a->runs[i].path);
			json_object_array_add(paths, json_object_new_string(path));
		}
	json_object_object_add(o, "runs", paths);
	json_object_object_add(o, "machine", json_object_new_string(name));
	json_object_object_add(o, "row", json_object_new_string(a->label[m]));
	json_object_object_add(o, "host", rf->host[0] ? json_object_new_string(rf->host) : NULL);
	json_object_object_add(o, "this_run", json_object_new_boolean(a->mine[m]));
	const char *uarch = sb_machine_microarchitecture(&rf->id);
	json_object_object_add(o, "microarchitecture", uarch ? json_object_new_string(uarch) : NULL);
	json_object_object_add(o, "kernel", json_object_new_string(kern));
	json_object_object_add(o, "return_thunk", rf->thunk[0] ? json_object_new_string(rf->thunk) : NULL);
	json_object *costs = json_object_new_object();
	for (size_t c = 0; c < a->n_cols; c++) {
		size_t run;
		const struct sb_run_row *r = machine_row(a, m, a->cols[c], &run);
		if (!r)
			continue;
		struct sb_estimate cyc = sb_run_added_cycles(&a->runs[run], r);
		json_object *v = json_object_new_object();
		json_object_object_add(v, "cycles", json_estimate(&cyc));
		json_object_object_add(v, "pct", json_estimate(&r->figures[SB_FIGURE_DELTA]));
		json_object_object_add(costs, a->cols[c], v);
	}
	json_object_object_add(o, "added_cost_per_call", costs);
	const struct sb_state_figures *s = states_run(a, m);
	if (s) {
		json_object *states = json_object_new_object();
		for (size_t k = 0; k < s->n; k++) {
			const struct sb_state_figure *g = &s->f[k];
			if (!quoted_state_figure(a, g))
				continue;
			json_object *st = json_object_new_object();
			json_object_object_add(st, "blocks", json_object_new_int64((int64_t)g->blocks));
			json_object_object_add(st, "codegen", json_estimate(&g->codegen));
			json_object_object_add(st, "vs_base", json_estimate(&g->vs_base));
			json_object_object_add(states, sb_core_state_name(g->state), st);
		}
		json_object_object_add(o, "by_core_state", states);
	}
	if (kernel_run_of(a, m)) {
		char v[64];
		verdict_of(a, m, v, sizeof(v));
		json_object_object_add(o, "twins_vs_kernel", json_object_new_string(v));
	}
	return o;
}

static int write_json(FILE *f, const struct across *a)
{
	json_object *doc = json_object_new_object();
	json_object_object_add(doc, "batch", json_object_new_int64((int64_t)a->batch));
	json_object_object_add(doc, "n_machines", json_object_new_int64((int64_t)a->n_kinds));
	json_object *machines = json_object_new_array();
	for (size_t i = 0; i < a->n; i++)
		if (a->machine[i] == i)
			json_object_array_add(machines, json_machine(a, i));
	json_object_object_add(doc, "machines", machines);
	json_object_object_add(doc, "not_matched", a->unmatched[0] ? json_object_new_string(a->unmatched) : NULL);
	json_object_object_add(doc, "left_out", a->left_out[0] ? json_object_new_string(a->left_out) : NULL);
	int rc = fprintf(f, "%s\n", json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY)) < 0;
	json_object_put(doc);
	return rc;
}

int sb_across_runs(FILE *f, const struct sb_run_file *runs, size_t n, const struct sb_across_options *o, char *err,
		   size_t errlen)
{
	struct across a = {.runs = runs, .n = n, .width = o->width ? o->width : SB_ANSWER_MAX_COLUMNS};
	if (!n) {
		sb_set_err(err, errlen, "no runs");
		return 2;
	}
	if (index_batches(&a) != 0) {
		free_batches(&a);
		sb_set_err(err, errlen, "out of memory");
		return 1;
	}
	a.batch = o->batch ? o->batch : common_batch(&a);
	for (size_t i = 0; o->batch && i < n; i++)
		if (!has_batch(&a, i, o->batch)) {
			sb_set_err(err, errlen, "%s has no variant's figure at batch %llu", runs[i].path,
				   (unsigned long long)o->batch);
			free_batches(&a);
			return 2;
		}
	/* No batch all have (a run of n/a cells, as a kernel run on a busy
	 * machine may be): the batch most have, the others left out and named. */
	struct sb_run_file *kept = NULL;
	char left_out[512] = "";
	if (!a.batch && n > 1 && (a.batch = most_runs_batch(&a)) && (kept = calloc(n, sizeof(*kept)))) {
		size_t k = 0, used = 0;
		for (size_t i = 0; i < n; i++) {
			const char *base = strrchr(runs[i].path, '/');
			if (has_batch(&a, i, a.batch))
				kept[k++] = runs[i];
			else if (used < sizeof(left_out))
				used += (size_t)snprintf(left_out + used, sizeof(left_out) - used, "%s%.100s",
							 used ? ", " : "", base ? base + 1 : runs[i].path);
		}
		free_batches(&a);
		a.runs = kept, a.n = n = k;
		if (index_batches(&a) != 0) {
			free_batches(&a);
			free(kept);
			sb_set_err(err, errlen, "out of memory");
			return 1;
		}
	}
	a.left_out = left_out;
	if (!a.batch) {
		free(kept);
		sb_set_err(err, errlen, "no batch size at which every run has a variant's figure");
		free_batches(&a);
		return 2;
	}
	int rc = 0;
	if (group_machines(&a) != 0) {
		sb_set_err(err, errlen, "out of memory");
		rc = 1;
	}
	if (rc == 0)
		rc = choose_columns(&a, o, err, errlen);
	if (rc == 0 && o->format == SB_ACROSS_JSON) {
		write_json(f, &a);
	} else if (rc == 0) {
		char what[160], count[64];
		int width = o->format == SB_ACROSS_MARKDOWN ? SB_ANSWER_MAX_COLUMNS : a.width;
		snprintf(what, sizeof(what), "added cost per call at batch %llu, cycles (95 %% CI) and %% of its baseline:",
			 (unsigned long long)a.batch);
		snprintf(count, sizeof(count), "%zu machine%s, %zu run%s", a.n_kinds, a.n_kinds == 1 ? "" : "s", n,
			 n == 1 ? "" : "s");
		fprintf(f, "%s%s%s\n", what, (int)(strlen(what) + 1 + strlen(count)) <= width ? " " : "\n", count);
		if (left_out[0]) {
			char line[640];
			snprintf(line, sizeof(line), "left out (no variant's figure at batch %llu): %s",
				 (unsigned long long)a.batch, left_out);
			if ((int)strlen(line) > width)
				memcpy(line + width - 3, "...", 4);
			fprintf(f, "%s\n", line);
		}
		if (a.unmatched[0]) {
			char line[640];
			snprintf(line, sizeof(line), "not matched (on one machine only): %s", a.unmatched);
			if ((int)strlen(line) > width)
				memcpy(line + width - 3, "...", 4);
			fprintf(f, "%s\n", line);
		}
		if (o->format == SB_ACROSS_MARKDOWN)
			write_markdown(f, &a);
		else
			write_text(f, &a);
		if (a.dashes)
			fprintf(f, "%s-: none of the row's runs has it (at batch %llu), or says it\n",
				o->format == SB_ACROSS_MARKDOWN ? "\n" : "", (unsigned long long)a.batch);
	}
	free(kept);
	free(a.cols);
	free(a.machine);
	free(a.mine);
	free(a.full_kernel);
	free(a.label);
	free_batches(&a);
	return rc;
}

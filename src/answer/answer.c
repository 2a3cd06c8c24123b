/* answer.c: the summary every measuring command prints first; see answer.h. */
#include "answer/answer.h"

#include "stats/attribution.h"
#include "output/figures.h"
#include "base/machine_name.h"
#include "stubbench/registry.h"
#include "variants/variant_baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimals for a CI of half-width hw: 1 when it spans tens, else as many
 * as show it as something other than 0.00. */
static int decimals_for(double hw)
{
	if (hw >= 10)
		return 1;
	if (!(hw > 0) || hw >= 0.005)
		return 2;
	return hw >= 0.0005 ? 3 : 4;
}

void sb_answer_estimate(char *buf, size_t len, const struct sb_estimate *e, int sign)
{
	if (!sb_estimate_known(e) || !isfinite(e->value)) {
		snprintf(buf, len, "n/a");
		return;
	}
	const char *fmt1 = sign ? "%+.*f" : "%.*f";
	if (!sb_estimate_has_ci(e)) {
		snprintf(buf, len, fmt1, 2, e->value);
		return;
	}
	int d = decimals_for((e->hi - e->lo) / 2);
	/* Not "-0.00" for a value or a bound that rounds to zero. */
	double zero = 0.5 * pow(10, -d);
	double v = fabs(e->value) < zero ? 0 : e->value;
	double lo = fabs(e->lo) < zero ? 0 : e->lo, hi = fabs(e->hi) < zero ? 0 : e->hi;
	if (sign)
		snprintf(buf, len, "%+.*f [%+.*f, %+.*f]", d, v, d, lo, d, hi);
	else
		snprintf(buf, len, "%.*f [%.*f, %.*f]", d, v, d, lo, d, hi);
}

const char *sb_answer_faster(const struct sb_estimate *e)
{
	if (!sb_estimate_known(e) || !isfinite(e->value))
		return "";
	if (sb_estimate_has_ci(e) && e->hi < 0)
		return "faster";
	return e->value < 0 ? "maybe faster" : "";
}

void sb_answer_line_faster(FILE *f, const char *line, const struct sb_estimate *e)
{
	const char *w = sb_answer_faster(e);
	size_t n = strlen(line), wl = strlen(w);
	if (wl && n + wl + 3 <= SB_ANSWER_MAX_COLUMNS)
		fprintf(f, "%s (%s)\n", line, w);
	else
		fprintf(f, "%s\n", line);
}

void sb_answer_ratio(char *buf, size_t len, const struct sb_estimate *delta_pct)
{
	if (!sb_estimate_known(delta_pct) || !isfinite(delta_pct->value)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (!sb_estimate_has_ci(delta_pct)) {
		snprintf(buf, len, "%.2f (no CI)", 1 + delta_pct->value / 100);
		return;
	}
	double hw = (delta_pct->hi - delta_pct->lo) / 200;
	int d = decimals_for(hw);
	snprintf(buf, len, "%.*f ± %.*f", d, 1 + delta_pct->value / 100, d, hw);
}

const struct sb_run_row *sb_answer_find(const struct sb_run_file *rf, enum sb_cell_side side, const char *family,
					const char *codegen, const char *shape, uint64_t batch)
{
	return sb_run_file_find_code(rf, (int)side, family, codegen, shape, batch);
}

uint64_t sb_answer_largest_batch(const struct sb_run_file *rf)
{
	uint64_t b = 0;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (rf->rows[i].batch > b)
			b = rf->rows[i].batch;
	return b;
}

int sb_answer_variant_row(const struct sb_run_row *r)
{
	return r->key.side != SB_SIDE_NONE && r->key.placement < 0 && strcmp(r->key.codegen, "baseline") != 0 &&
	       sb_estimate_known(&r->figures[SB_FIGURE_DELTA]) && isfinite(r->figures[SB_FIGURE_DELTA].value);
}

const struct sb_run_row *sb_answer_baseline_of(const struct sb_run_file *rf, const struct sb_run_row *r)
{
	return sb_answer_find(rf, r->key.side, r->key.family, "baseline", r->key.shape[0] ? r->key.shape : NULL,
			      r->batch);
}

struct sb_estimate sb_answer_added_cycles(const struct sb_run_file *rf, const struct sb_run_row *r)
{
	const struct sb_run_row *base = sb_answer_baseline_of(rf, r);
	if (base)
		return sb_estimate_pct_to_cycles(&r->figures[SB_FIGURE_DELTA], base->cycles.value);
	/* A baseline of another name (diff's old side): the run's own figure. */
	int dc = sb_figure_index("delta-cycles");
	if (dc >= 0 && sb_estimate_known(&r->figures[dc]) && isfinite(r->figures[dc].value))
		return r->figures[dc];
	return sb_estimate_absent("no baseline");
}

/* A run written before results had keys (schema < 3): a row with a delta
 * whose name this build's registry knows as a variant, not a baseline. */
static const struct sb_variant *legacy_variant(const struct sb_run_row *r)
{
	if (r->key.side != SB_SIDE_NONE || !sb_estimate_known(&r->figures[SB_FIGURE_DELTA]) ||
	    !isfinite(r->figures[SB_FIGURE_DELTA].value))
		return NULL;
	const struct sb_variant *v = sb_variant_find(r->variant);
	return v && sb_variant_baseline_of(v) && sb_variant_baseline_of(v) != v ? v : NULL;
}

int sb_run_variant_row(const struct sb_run_row *r)
{
	return sb_answer_variant_row(r) || legacy_variant(r);
}

struct sb_estimate sb_run_added_cycles(const struct sb_run_file *rf, const struct sb_run_row *r)
{
	const struct sb_variant *v = legacy_variant(r);
	if (!v)
		return sb_answer_added_cycles(rf, r);
	const struct sb_run_row *base = sb_run_file_find(rf, sb_variant_baseline_of(v)->name, r->batch);
	return base ? sb_estimate_pct_to_cycles(&r->figures[SB_FIGURE_DELTA], base->cycles.value)
		    : sb_estimate_absent("no baseline");
}

/* The row of the same code at the largest batch with a delta. */
static const struct sb_run_row *at_largest(const struct sb_run_file *rf, const struct sb_run_row *like)
{
	const struct sb_run_row *best = like;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (sb_answer_variant_row(&rf->rows[i]) && sb_cell_key_same_code(&rf->rows[i].key, &like->key) &&
		    rf->rows[i].batch > best->batch)
			best = &rf->rows[i];
	return best;
}

/* A reference row: the seed's flavour in a run that measured the host's. */
static int reference_row(const struct sb_run_file *rf, const struct sb_run_row *r)
{
	if (strcmp(r->key.family, "replica") != 0)
		return 0;
	if (rf->by_code)
		return rf->host_rows;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (strcmp(rf->rows[i].key.family, "replica-host") == 0)
			return 1;
	return 0;
}

/* The flavour a row's code is in, short: the sweep's two by their names. */
static const char *flavour_name(const struct sb_cell_key *k)
{
	if (strcmp(k->family, "replica-host") == 0)
		return "host";
	if (strcmp(k->family, "replica") == 0)
		return "seed001";
	return k->flavour[0] ? k->flavour : k->family;
}

/* How a row's code returns, short: "rethunk" (the host flavour's returns,
 * re-aimed at the host's thunk for the run) by the thunk the run took
 * ("srso_alias thunk" for srso_alias_return_thunk). */
static void return_name(const struct sb_run_file *rf, const struct sb_cell_key *k, char *out, size_t len)
{
	if (!k->ret[0]) {
		snprintf(out, len, "the JIT's return");
		return;
	}
	if (strcmp(k->ret, "rethunk") != 0 || !rf->thunk[0] || k->side == SB_SIDE_LAB) {
		snprintf(out, len, "%s", k->ret);
		return;
	}
	static const char suffix[] = "_return_thunk";
	size_t n = strlen(rf->thunk), s = sizeof(suffix) - 1;
	if (n > s && strcmp(rf->thunk + n - s, suffix) == 0)
		snprintf(out, len, "%.*s thunk", (int)(n - s), rf->thunk);
	else
		snprintf(out, len, "%s", rf->thunk);
}

/* The flavour and return of a row, as the variant line's parentheses end:
 * "host, srso_alias thunk", "seed001, ret; reference". */
static void whose(const struct sb_run_file *rf, const struct sb_run_row *r, int ref, char *out, size_t len)
{
	char ret[300];
	return_name(rf, &r->key, ret, sizeof(ret));
	snprintf(out, len, "%.60s, %.230s%s", flavour_name(&r->key), ret, ref ? "; reference" : "");
}

/* The layout's cost of r: its own figure, else placed less codegen (value
 * alone). */
static struct sb_estimate layout_of(const struct sb_run_row *r, const struct sb_estimate *placed)
{
	int li = sb_figure_index("layout");
	if (li >= 0 && sb_estimate_known(&r->figures[li]) && isfinite(r->figures[li].value))
		return r->figures[li];
	struct sb_estimate e = sb_estimate_absent("no layout figure");
	const struct sb_estimate *c = &r->figures[SB_FIGURE_CODEGEN];
	if (sb_estimate_known(c) && sb_estimate_known(placed) && isfinite(c->value) && isfinite(placed->value)) {
		e = *c;
		e.value = placed->value - c->value;
		e.lo = e.hi = e.value;
	}
	return e;
}

int sb_answer_signs_differ(const struct sb_estimate *codegen, const struct sb_estimate *placed)
{
	if (!sb_estimate_known(codegen) || !sb_estimate_known(placed) || !isfinite(codegen->value) ||
	    !isfinite(placed->value) || codegen->value * placed->value >= 0)
		return 0;
	/* Two figures near zero each way are one answer: not a difference. */
	int c_clear = sb_estimate_has_ci(codegen) && (codegen->lo > 0 || codegen->hi < 0);
	int p_clear = sb_estimate_has_ci(placed) && (placed->lo > 0 || placed->hi < 0);
	return c_clear || p_clear;
}

void sb_answer_signs_line(char *buf, size_t len, const char *indent, const struct sb_estimate *codegen,
			  const struct sb_estimate *placed, const struct sb_estimate *layout)
{
	char l[64] = "n/a", share[48] = "";
	if (sb_estimate_known(layout) && isfinite(layout->value)) {
		snprintf(l, sizeof(l), "%+.2f", layout->value);
		if (placed->value != 0)
			snprintf(share, sizeof(share), " (%.0f %% of placed)", 100 * layout->value / placed->value);
	}
	snprintf(buf, len, "%ssigns differ: codegen %+.2f, layout %s%s: the placement makes it %s", indent,
		 codegen->value, l, share, placed->value < 0 ? "faster" : "slower");
	/* Wide figures: one decimal, then the share left out, not cut. */
	if (strlen(buf) > SB_ANSWER_MAX_COLUMNS && sb_estimate_known(layout) && isfinite(layout->value)) {
		snprintf(l, sizeof(l), "%+.1f", layout->value);
		snprintf(buf, len, "%ssigns differ: codegen %+.1f, layout %s%s: the placement makes it %s", indent,
			 codegen->value, l, share, placed->value < 0 ? "faster" : "slower");
	}
	if (strlen(buf) > SB_ANSWER_MAX_COLUMNS)
		snprintf(buf, len, "%ssigns differ: codegen %+.1f, layout %s: the placement makes it %s", indent,
			 codegen->value, l, placed->value < 0 ? "faster" : "slower");
}

/* 1 when r's flavour was measured at identical layout: a row of its
 * family (r's own at another batch, say) has its codegen apart. */
static int family_apart(const struct sb_run_file *rf, const struct sb_run_row *r)
{
	if (sb_answer_codegen_apart(r))
		return 1;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (sb_answer_variant_row(&rf->rows[i]) && strcmp(rf->rows[i].key.family, r->key.family) == 0 &&
		    rf->rows[i].key.side == r->key.side && sb_answer_codegen_apart(&rf->rows[i]))
			return 1;
	return 0;
}

/* One variant: one line (a reference), or two, three where its codegen
 * and placed cost differ in sign. With the codegen apart (a padded
 * baseline): the codegen first, placed second; else placed first and the
 * total second. Returns the lines printed (0 when max_lines is too small). */
static int variant_lines(FILE *f, const struct sb_run_file *rf, const struct sb_run_row *r, int max_lines)
{
	int ref = reference_row(rf, r);
	int apart = family_apart(rf, r);
	const struct sb_estimate *cg = sb_answer_codegen_figure(r);
	struct sb_estimate cyc = sb_answer_added_cycles(rf, r);
	int differ = apart && !ref && sb_answer_signs_differ(&r->figures[SB_FIGURE_CODEGEN], &cyc);
	if (max_lines < (ref ? 1 : 2 + differ))
		return 0;
	const struct sb_run_row *base = sb_answer_baseline_of(rf, r);
	char c[64], p[64], ratio[32], m[96], w[320], line[1024];
	sb_answer_estimate(c, sizeof(c), &cyc, 1);
	sb_answer_estimate(p, sizeof(p), &r->figures[SB_FIGURE_DELTA], 1);
	sb_answer_codegen(m, sizeof(m), r);
	whose(rf, r, ref, w, sizeof(w));
	const char *against = base ? base->variant : "its baseline";
	sb_answer_ratio(ratio, sizeof(ratio), &r->figures[SB_FIGURE_DELTA]);
	if (ref) {
		/* One line: the codegen and placed where both fit, else the
		 * headline alone. */
		const char *word = sb_answer_faster(apart ? cg : &cyc);
		if (apart)
			snprintf(line, sizeof(line), "%-14s codegen %s, placed %s (%s%s%s)", r->variant, m, c, word,
				 *word ? "; " : "", w);
		if (!apart || strlen(line) > SB_ANSWER_MAX_COLUMNS)
			snprintf(line, sizeof(line), "%-14s %s %s (%s%s%s)", r->variant, apart ? "codegen" : "placed",
				 apart ? m : c, word, *word ? "; " : "", w);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		return 1;
	}
	if (apart) {
		/* No codegen at this batch (too few blocks in the groups at
		 * identical layout): the largest batch that has one, named. */
		char at[48] = "";
		const struct sb_run_row *cr = sb_estimate_known(&r->figures[SB_FIGURE_CODEGEN]) ? r : NULL;
		for (size_t i = 0; !cr && i < rf->n_rows; i++) {
			const struct sb_run_row *o = &rf->rows[i];
			if (sb_answer_variant_row(o) && sb_cell_key_same_code(&o->key, &r->key) &&
			    sb_estimate_known(&o->figures[SB_FIGURE_CODEGEN]) && isfinite(o->figures[SB_FIGURE_CODEGEN].value))
				cr = o;
		}
		for (size_t i = 0; cr && cr != r && i < rf->n_rows; i++) {
			const struct sb_run_row *o = &rf->rows[i];
			if (sb_answer_variant_row(o) && sb_cell_key_same_code(&o->key, &r->key) && o->batch > cr->batch &&
			    sb_estimate_known(&o->figures[SB_FIGURE_CODEGEN]) && isfinite(o->figures[SB_FIGURE_CODEGEN].value))
				cr = o;
		}
		if (cr && cr != r) {
			sb_answer_codegen(m, sizeof(m), cr);
			cg = sb_answer_codegen_figure(cr);
			snprintf(at, sizeof(at), "at batch %llu ", (unsigned long long)cr->batch);
		}
		const char *word = sb_answer_faster(cg);
		snprintf(line, sizeof(line), "%-14s codegen %s%s (%s%s%s)", r->variant, at, m, word, *word ? "; " : "", w);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		snprintf(line, sizeof(line), "  placed %s: %s took %s x %s's time", c, r->variant, ratio, against);
		if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
			snprintf(line, sizeof(line), "  placed %s", c);
		sb_answer_line_faster(f, line, &cyc);
		if (!differ)
			return 2;
		struct sb_estimate lay = layout_of(r, &cyc);
		sb_answer_signs_line(line, sizeof(line), "  ", &r->figures[SB_FIGURE_CODEGEN], &cyc, &lay);
		fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
		return 3;
	}
	/* No codegen apart: what a placed load pays first, the total (copy j
	 * against copy j, layout included) second. The sign in words first in
	 * the parentheses; where the line would then be too wide, the
	 * percentage without its CI. */
	const char *word = sb_answer_faster(&cyc);
	for (int shorter = 0; shorter < 2; shorter++) {
		if (shorter && isfinite(r->figures[SB_FIGURE_DELTA].value))
			snprintf(p, sizeof(p), "%+.1f", r->figures[SB_FIGURE_DELTA].value);
		snprintf(line, sizeof(line), "%-14s placed %s, %s %% (%s%s%s)", r->variant, c, p, word,
			 *word ? "; " : "", w);
		if (strlen(line) <= SB_ANSWER_MAX_COLUMNS)
			break;
	}
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
	snprintf(line, sizeof(line), "  %s took %s x %s's time; total %s", r->variant, ratio, against, m);
	/* Too wide (long names or figures): without the ratio. */
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "  %s: total %s", r->variant, m);
	sb_answer_line_faster(f, line, cg);
	return 2;
}

int sb_answer_codegen_apart(const struct sb_run_row *r)
{
	int li = sb_figure_index("layout");
	if (li < 0)
		return 0;
	/* Measured at identical layout, but too few cells for a figure: the
	 * layout's absence says why, as the codegen's does. */
	const char *why = r->figures[li].absent;
	return sb_estimate_known(&r->figures[li]) ||
	       (why && strcmp(why, "no padded baseline in the run") != 0 && strcmp(why, "not in the file") != 0);
}

const struct sb_estimate *sb_answer_codegen_figure(const struct sb_run_row *r)
{
	int nr = sb_figure_index("next-run-codegen");
	const struct sb_estimate *codegen = &r->figures[SB_FIGURE_CODEGEN];
	const struct sb_estimate *next = nr >= 0 ? &r->figures[nr] : NULL;
	return next && sb_estimate_has_ci(next) && sb_estimate_known(codegen) ? next : codegen;
}

void sb_answer_codegen(char *buf, size_t len, const struct sb_run_row *r)
{
	/* The codegen CI holds within the run; whole runs move by more
	 * (past_runs.h), so the range for the next run where the record of
	 * past runs gives one, and the CI said to be this run's where not. */
	int nr = sb_figure_index("next-run-codegen");
	const struct sb_estimate *codegen = &r->figures[SB_FIGURE_CODEGEN];
	const struct sb_estimate *next = nr >= 0 ? &r->figures[nr] : NULL;
	int ranged = next && sb_estimate_has_ci(next) && sb_estimate_known(codegen);
	if (!sb_estimate_known(codegen)) { /* none: why, where the run said */
		const char *why = codegen->absent;
		int said = why && strcmp(why, "not in the file") != 0;
		snprintf(buf, len, "none%s%s%s", said ? " (" : "", said ? why : "", said ? ")" : "");
		return;
	}
	char m[64];
	sb_answer_estimate(m, sizeof(m), ranged ? next : codegen, 1);
	snprintf(buf, len, "%s%s", m, ranged ? " next run" : sb_estimate_has_ci(codegen) ? " this run" : "");
}

const struct sb_run_row *sb_answer_first_variant(const struct sb_run_file *rf)
{
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rf->n_rows; i++)
			if (sb_answer_variant_row(&rf->rows[i]) && reference_row(rf, &rf->rows[i]) == pass)
				return at_largest(rf, &rf->rows[i]);
	return NULL;
}

/* The code of two rows, field by field (as sb_cell_key_same_code), then their order. */
static const struct sb_run_row *code_rows;

static int cmp_row_code(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	int c = sb_cell_key_cmp_code(&code_rows[i].key, &code_rows[j].key);
	return c ? c : (i > j) - (i < j);
}

/* For each variant row that is the first of its code in the file,
 * largest[i] = at_largest's row (index + 1); 0 for the others. One sort:
 * O(n log n), where a walk per row was O(n^2). NULL out of memory. */
static size_t *first_of_codes(const struct sb_run_file *rf)
{
	size_t *idx = malloc((rf->n_rows + 1) * sizeof(*idx)), *largest = calloc(rf->n_rows + 1, sizeof(*largest));
	if (!idx || !largest)
		return free(idx), free(largest), NULL;
	size_t n = 0;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (sb_answer_variant_row(&rf->rows[i]))
			idx[n++] = i;
	code_rows = rf->rows;
	qsort(idx, n, sizeof(*idx), cmp_row_code);
	for (size_t g = 0; g < n;) {
		size_t e = g + 1;
		const struct sb_run_row *first = &rf->rows[idx[g]];
		if (first->key.side == SB_SIDE_NONE) { /* no code: each row its own */
			largest[idx[g]] = idx[g] + 1;
			g = e;
			continue;
		}
		size_t best = idx[g];
		for (; e < n && sb_cell_key_same_code(&rf->rows[idx[e]].key, &first->key); e++)
			if (rf->rows[idx[e]].batch > rf->rows[best].batch)
				best = idx[e];
		largest[idx[g]] = best + 1;
		g = e;
	}
	free(idx);
	return largest;
}

/* The per-variant lines within max_lines - reserve, the variants left
 * out for want of room counted in *skipped. Returns the lines printed. */
static int variants_counted(FILE *f, const struct sb_run_file *rf, int max_lines, int reserve, size_t *skipped)
{
	int lines = 0;
	*skipped = 0;
	size_t *largest = first_of_codes(rf);
	/* Own flavours first, then the references. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < rf->n_rows; i++) {
			const struct sb_run_row *r = &rf->rows[i];
			if (!sb_answer_variant_row(r) || reference_row(rf, r) != pass)
				continue;
			int first = 1;
			if (largest)
				first = largest[i] != 0;
			for (size_t k = 0; !largest && k < i && first; k++)
				first = !(sb_answer_variant_row(&rf->rows[k]) && sb_cell_key_same_code(&rf->rows[k].key, &r->key));
			if (!first)
				continue;
			int n = variant_lines(f, rf, largest ? &rf->rows[largest[i] - 1] : at_largest(rf, r),
					      max_lines - lines - reserve);
			lines += n;
			*skipped += n == 0;
		}
	free(largest);
	if (!lines && !*skipped && max_lines > 0) {
		int keyed = 0;
		for (size_t i = 0; i < rf->n_rows && !keyed; i++)
			keyed = rf->rows[i].key.side != SB_SIDE_NONE;
		fprintf(f, "%s\n", keyed ? "(no variant has a delta to its baseline)"
					  : "(no result has a key: a file older than schema 3)");
		lines++;
	}
	return lines;
}

int sb_answer_variants(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	size_t skipped;
	int lines = variants_counted(f, rf, max_lines, 1, &skipped);
	if (skipped && lines < max_lines) {
		fprintf(f, "(%zu more variant%s: --table)\n", skipped, skipped == 1 ? "" : "s");
		lines++;
	}
	return lines;
}

/* Removes every occurrence of word (a whole word, or a mark like "(R)"
 * glued to one) from buf. */
static void drop_all(char *buf, const char *word, int whole)
{
	size_t wl = strlen(word);
	for (char *p = buf; (p = strstr(p, word));) {
		int starts = p == buf || p[-1] == ' ';
		int ends = p[wl] == 0 || p[wl] == ' ';
		if (whole && !(starts && ends)) {
			p += wl;
			continue;
		}
		memmove(p, p + wl, strlen(p + wl) + 1);
	}
}

void sb_answer_cpu_name(const char *model, char *buf, size_t len)
{
	if (!len)
		return;
	char tmp[256];
	snprintf(tmp, sizeof(tmp), "%.*s", (int)strcspn(model, ","), model);
	/* "Intel(R) Xeon(R) CPU E5-2699 v4 @ 2.20GHz": the clock is no part of the name. */
	char *at = strstr(tmp, " @ ");
	if (at)
		*at = 0;
	drop_all(tmp, "(R)", 0);
	drop_all(tmp, "(TM)", 0);
	drop_all(tmp, "(tm)", 0);
	drop_all(tmp, "CPU", 1);
	drop_all(tmp, "Processor", 1);
	/* "96-Core": a count of cores, not the model. */
	for (char *p = tmp; (p = strstr(p, "-Core"));) {
		char *w = p;
		while (w > tmp && w[-1] != ' ')
			w--;
		char *e = p + 5;
		memmove(w, e, strlen(e) + 1);
		p = w;
	}
	/* One space between words, none at either end. */
	size_t o = 0;
	for (size_t i = 0; tmp[i] && o + 1 < len; i++)
		if (tmp[i] != ' ' || (o > 0 && buf[o - 1] != ' '))
			buf[o++] = tmp[i];
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
	if (!o)
		snprintf(buf, len, "unknown CPU");
}

void sb_answer_kernel_release(const char *kernel, int full, char *buf, size_t len)
{
	int n = (int)strcspn(kernel, "#");
	while (n > 0 && kernel[n - 1] == ' ')
		n--;
	if (!full) {
		const char *v = strchr(kernel, ' ');
		int at = v ? (int)(v - kernel) + 1 : 0;
		int vlen = at + (int)strspn(kernel + at, "0123456789.");
		if (vlen > at && vlen < n)
			n = vlen;
	}
	snprintf(buf, len, "%.*s", n, kernel);
}

const char *sb_answer_command_of(const char *tool)
{
	/* A mode of stubbench kernel, whose summary the command heads. */
	return strcmp(tool, "stubbench kernel --obj") == 0 ? "stubbench kernel" : tool;
}

void sb_answer_header(FILE *f, const struct sb_run_file *rf)
{
	char cpu[24] = "", name[160], rel[64];
	if (rf->cpu >= 0)
		snprintf(cpu, sizeof(cpu), ", CPU %d", rf->cpu);
	sb_machine_name(&rf->id, name, sizeof(name));
	if (!name[0])
		sb_answer_cpu_name(rf->machine, name, sizeof(name));
	const char *tool = rf->tool[0] ? sb_answer_command_of(rf->tool) : "stubbench";
	const char *thunk = rf->thunk[0] ? rf->thunk : "not known";
	/* Within SB_ANSWER_MAX_COLUMNS whatever the names: the kernel's
	 * release gives way first (to its version), then the machine's name. */
	sb_answer_kernel_release(rf->kernel, 1, rel, sizeof(rel));
	int fixed = (int)(strlen(tool) + 2 + strlen(cpu) + 2 + 11 + strlen(thunk));
	if (fixed + (int)strlen(name) + (int)strlen(rel) > SB_ANSWER_MAX_COLUMNS)
		sb_answer_kernel_release(rf->kernel, 0, rel, sizeof(rel));
	int room = SB_ANSWER_MAX_COLUMNS - fixed - (int)strlen(rel);
	/* Then the guest's ", KVM guest", then the name's end. */
	char *guest = strrchr(name, ',');
	if ((int)strlen(name) > room && guest && strcmp(guest + strlen(guest) - 6, " guest") == 0)
		*guest = 0;
	int nlen = (int)strlen(name);
	if (nlen > room)
		nlen = room < 16 ? 16 : room;
	char line[512];
	snprintf(line, sizeof(line), "%s: %.*s%s, %s, returns: %s", tool, nlen, name, cpu, rel, thunk);
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
}

/* With --padded: the variants at batch b whose loop took two states
 * block by block at a clear share of the placements (the CI's lower side
 * at 25 % or more; placement_states.h), in one line: their codegen is a
 * mix of states that moves between runs by more than its CI. Returns the
 * lines written (0 or 1); test: only counts. */
static int two_state_line(FILE *f, const struct sb_run_file *rf, uint64_t b, int test)
{
	int k = sb_figure_index("codegen-two-state");
	char line[256];
	int n = snprintf(line, sizeof(line), "two states per block at many placements (a mix, moves between runs):");
	int said = 0;
	for (size_t i = 0; k >= 0 && i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		const struct sb_estimate *e = &r->figures[k];
		if (r->batch != b || !sb_answer_variant_row(r) || !sb_estimate_has_ci(e) || e->lo < 25.0)
			continue;
		char item[96];
		int m = snprintf(item, sizeof(item), "%s %s %.0f %%", said ? "," : "", r->variant, e->value);
		if (n + m > SB_ANSWER_MAX_COLUMNS)
			break;
		memcpy(line + n, item, (size_t)m + 1);
		n += m, said++;
	}
	if (said && !test)
		fprintf(f, "%s\n", line);
	return said ? 1 : 0;
}

int sb_answer_costs(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	uint64_t b = sb_answer_largest_batch(rf);
	/* Rows with the codegen apart (a padded baseline): it leads, and a
	 * line says which figure answers what. */
	int apart = 0, total = 0;
	for (size_t i = 0; i < rf->n_rows; i++)
		if (sb_answer_variant_row(&rf->rows[i]) && !reference_row(rf, &rf->rows[i])) {
			apart |= family_apart(rf, &rf->rows[i]);
			total |= !family_apart(rf, &rf->rows[i]);
		}
	fprintf(f, "added cycles per call at batch %llu (95 %% CI): %s\n", (unsigned long long)b,
		apart ? "codegen at identical layout; placed at random" : "placed at random; total copy by copy");
	int lines = 1;
	size_t empty = 0, skipped;
	for (size_t i = 0; i < rf->n_rows; i++)
		empty += rf->rows[i].samples == 0 && !sb_estimate_known(&rf->rows[i].cycles);
	int mixed = two_state_line(f, rf, b, 1);
	lines += variants_counted(f, rf, max_lines - lines - 1 - (empty > 0) - mixed - apart, 0, &skipped);
	lines += two_state_line(f, rf, b, 0);
	if (empty) {
		fprintf(f, "n/a: %zu of %zu results have no usable samples\n", empty, rf->n_rows);
		lines++;
	}
	if (apart) {
		fprintf(f, "%s\n", SB_ANSWER_QUOTE_LINE);
		lines++;
	}
	/* Where the sweep quotes a total (no padded baseline), how to get the
	 * codegen (the kernel's loads have no padded form). */
	int sweep = !rf->tool[0] || strcmp(rf->tool, "stubbench") == 0;
	/* The last line: where the rest is, as much as fits. */
	char more[64] = "the full table: --table";
	if (skipped)
		snprintf(more, sizeof(more), "%zu more variant%s and the full table: --table", skipped,
			 skipped == 1 ? "" : "s");
	const char *notes[3] = {more, sweep && total ? "the codegen apart: a run without --no-padded" : NULL,
				"every figure: --format=json"};
	char line[256] = "";
	for (int i = 0; i < 3; i++) {
		size_t used = strlen(line);
		if (notes[i] && used + 2 + strlen(notes[i]) <= SB_ANSWER_MAX_COLUMNS)
			snprintf(line + used, sizeof(line) - used, "%s%s", used ? "; " : "", notes[i]);
	}
	fprintf(f, "%s\n", line);
	return lines + 1;
}

/* The attribution sb_answer_parts_by_cost sorts the parts of. */
static const struct sb_attribution *sorting;

static int by_cost(const void *x, const void *y)
{
	double a = fabs(sorting->nop[*(const size_t *)x].value), b = fabs(sorting->nop[*(const size_t *)y].value);
	return a > b ? -1 : a < b;
}

void sb_answer_parts_by_cost(const struct sb_attribution *t, size_t *order)
{
	for (size_t k = 0; k < t->n_parts; k++)
		order[k] = k;
	sorting = t;
	qsort(order, t->n_parts, sizeof(*order), by_cost);
}

/* footprint_report.c: footprint's table and its members of the run's document; see footprint_report.h. */
#include "footprint/footprint_report.h"

#include <math.h>
#include <string.h>

#include "output/text_grid.h"
#include "stubbench/estimate.h"
#include "harness/harness.h"
#include "output/json_doc.h"

int sb_fp_delta_cycles(const struct sb_fp_report *r, size_t i, double *d, double *lo, double *hi)
{
	const struct sb_cell *c = &r->res->cells[i];
	size_t b = r->keys[i].baseline;
	if (b == i || b >= r->res->n_cells)
		return 0;
	const struct sb_cell *base = &r->res->cells[b];
	if (!sb_estimate_known(&c->delta_pct) || c->no_samples[0] || base->no_samples[0])
		return 0;
	struct sb_estimate e = sb_estimate_pct_to_cycles(&c->delta_pct, base->cycles.mean);
	*d = e.value;
	*lo = e.lo;
	*hi = e.hi;
	return 1;
}

void sb_fp_report_table(FILE *f, const struct sb_fp_report *r)
{
	const struct sb_results *res = r->res;
	const char *baseline = res->n_cells ? r->keys[r->keys[0].baseline].variant : "the baseline";
	sb_comment(f, "stubbench footprint on CPU %d of %s; core clock %.3f GHz", res->cpu, res->cpu_desc,
		   res->core_ghz_median);
	fprintf(f, "# core cycles per call, each call a different copy (round-robin), loop removed; 95 %% CI\n");
	fprintf(f, "# delta: this variant - %s, from the interleaved ratio\n", baseline);
	fprintf(f, "%-8s %7s  %-24s %9s  %-20s %s\n", "layout", "copies", "variant", "cyc/call", "95% CI",
		"delta [95% CI]");
	for (size_t i = 0; i < res->n_cells; i++) {
		const struct sb_cell *c = &res->cells[i];
		const struct sb_fp_cell_key *k = &r->keys[i];
		if (c->no_samples[0]) {
			fprintf(f, "%-8s %7llu  %-24s  n/a: %s\n", sb_fp_layout_name(k->layout),
				(unsigned long long)k->copies, k->variant, c->no_samples);
			continue;
		}
		char ci[48], d[64] = "";
		snprintf(ci, sizeof(ci), "[%.2f, %.2f]", c->cycles.ci_lo, c->cycles.ci_hi);
		double dc, lo, hi;
		if (sb_fp_delta_cycles(r, i, &dc, &lo, &hi))
			snprintf(d, sizeof(d), "%+.2f [%+.2f, %+.2f]", dc, lo, hi);
		fprintf(f, "%-8s %7llu  %-24s %9.2f  %-20s %s\n", sb_fp_layout_name(k->layout),
			(unsigned long long)k->copies, k->variant, c->cycles.mean, ci, d);
	}
}

/* Has an earlier key than i the same layout (by_layout) or copies? */
static int seen_before(const struct sb_fp_cell_key *keys, size_t i, int by_layout)
{
	for (size_t j = 0; j < i; j++)
		if (by_layout ? keys[j].layout == keys[i].layout : keys[j].copies == keys[i].copies)
			return 1;
	return 0;
}

void sb_fp_report_run_members(struct sb_doc *doc, const void *ctx)
{
	const struct sb_fp_report *r = ctx;
	size_t n = r->res->n_cells;
	struct sb_doc *run = sb_doc_object(doc, "footprint_run");
	sb_doc_string(run, "unit", "core cycles per call");
	sb_doc_string_or_null(run, "baseline", n ? r->keys[r->keys[0].baseline].variant : NULL);
	struct sb_doc *layouts = sb_doc_array(run, "layouts");
	for (size_t i = 0; i < n; i++)
		if (!seen_before(r->keys, i, 1))
			sb_doc_string(layouts, NULL, sb_fp_layout_name(r->keys[i].layout));
	struct sb_doc *copies = sb_doc_array(run, "copies");
	for (size_t i = 0; i < n; i++)
		if (!seen_before(r->keys, i, 0))
			sb_doc_uint(copies, NULL, r->keys[i].copies);
	sb_doc_break(run, "\n    ");
	sb_doc_lines(run, "pages", r->pages, NULL, NULL);
	if (r->perf_map)
		sb_doc_string(run, "perf_map", r->perf_map);
	else
		sb_doc_null(run, "perf_map");
}

void sb_fp_report_cell_members(struct sb_doc *doc, const struct sb_cell *c, const void *ctx)
{
	const struct sb_fp_report *r = ctx;
	if (c < r->res->cells || c >= r->res->cells + r->res->n_cells)
		return;
	size_t i = (size_t)(c - r->res->cells);
	const struct sb_fp_cell_key *k = &r->keys[i];
	sb_doc_break(doc, "\n     ");
	struct sb_doc *fp = sb_doc_object(doc, "footprint");
	sb_doc_string(fp, "variant", k->variant);
	sb_doc_string(fp, "layout", sb_fp_layout_name(k->layout));
	sb_doc_uint(fp, "copies", k->copies);
	sb_doc_string(fp, "baseline", r->keys[k->baseline].variant);
	double d, lo, hi;
	if (sb_fp_delta_cycles(r, i, &d, &lo, &hi)) {
		sb_doc_number(fp, "delta_cycles", d);
		struct sb_doc *ci = sb_doc_array(fp, "delta_ci95_cycles");
		sb_doc_number(ci, NULL, lo);
		sb_doc_number(ci, NULL, hi);
	}
}

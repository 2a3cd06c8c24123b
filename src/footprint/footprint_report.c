/* footprint_report.c: footprint's table and JSON members; see footprint_report.h. */
#include "stubbench/footprint_report.h"

#include <math.h>
#include <string.h>

#include "stubbench/estimate.h"
#include "stubbench/harness.h"
#include "stubbench/json_writer.h"

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
	fprintf(f, "# stubbench footprint on CPU %d of %s; core clock %.3f GHz\n", res->cpu, res->cpu_desc,
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

void sb_fp_report_json_run(FILE *f, const void *ctx)
{
	const struct sb_fp_report *r = ctx;
	size_t n = r->res->n_cells;
	fputs(",\n  \"footprint_run\": {\"unit\": \"core cycles per call\", \"baseline\": ", f);
	if (n)
		sb_json_string(f, r->keys[r->keys[0].baseline].variant);
	else
		fputs("null", f);
	fputs(", \"layouts\": [", f);
	int first = 1;
	for (size_t i = 0; i < n; i++)
		if (!seen_before(r->keys, i, 1)) {
			fputs(first ? "" : ", ", f);
			sb_json_string(f, sb_fp_layout_name(r->keys[i].layout));
			first = 0;
		}
	fputs("], \"copies\": [", f);
	first = 1;
	for (size_t i = 0; i < n; i++)
		if (!seen_before(r->keys, i, 0)) {
			fprintf(f, "%s%llu", first ? "" : ", ", (unsigned long long)r->keys[i].copies);
			first = 0;
		}
	fputs("],\n    \"pages\": [", f);
	first = 1;
	for (const char *p = r->pages ? r->pages : ""; *p;) {
		size_t len = strcspn(p, "\n");
		if (len) {
			char line[512];
			snprintf(line, sizeof(line), "%.*s", (int)len, p);
			fputs(first ? "" : ", ", f);
			sb_json_string(f, line);
			first = 0;
		}
		p += len + (p[len] == '\n');
	}
	fputs("], \"perf_map\": ", f);
	if (r->perf_map)
		sb_json_string(f, r->perf_map);
	else
		fputs("null", f);
	fputs("}", f);
}

void sb_fp_report_json_cell(FILE *f, const struct sb_cell *c, const void *ctx)
{
	const struct sb_fp_report *r = ctx;
	if (c < r->res->cells || c >= r->res->cells + r->res->n_cells)
		return;
	size_t i = (size_t)(c - r->res->cells);
	const struct sb_fp_cell_key *k = &r->keys[i];
	fputs(",\n     \"footprint\": {\"variant\": ", f);
	sb_json_string(f, k->variant);
	fputs(", \"layout\": ", f);
	sb_json_string(f, sb_fp_layout_name(k->layout));
	fprintf(f, ", \"copies\": %llu, \"baseline\": ", (unsigned long long)k->copies);
	sb_json_string(f, r->keys[k->baseline].variant);
	double d, lo, hi;
	if (sb_fp_delta_cycles(r, i, &d, &lo, &hi)) {
		fputs(", \"delta_cycles\": ", f);
		sb_json_number(f, d);
		fputs(", \"delta_ci95_cycles\": [", f);
		sb_json_number(f, lo);
		fputs(", ", f);
		sb_json_number(f, hi);
		fputs("]", f);
	}
	fputs("}", f);
}

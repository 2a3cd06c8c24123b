/* kernel_obj_report.c: what a `stubbench kernel --obj` run writes beside
 * its results: the JSON member "user_object" and the lines under the
 * table; see kernel_obj.h. */
#include "kernel_obj.h"

#include "stubbench/estimate.h"
#include "stubbench/json_writer.h"

/* One program's cost per run at one batch: a JSON object, or a table line
 * ("-" where the cell has no samples behind it). */
static void cell_per_run(const struct sb_cell *c, FILE *f, int json, int first)
{
	struct sb_estimate cyc = sb_cell_cycles(c);
	struct sb_estimate run = sb_estimate_scaled(&cyc, (double)c->batch);
	if (json) {
		fprintf(f, "%s{\"prog\": ", first ? "" : ", ");
		sb_json_string(f, c->arm->name);
		fprintf(f, ", \"batch\": %llu, \"mean\": ", (unsigned long long)c->batch);
		sb_json_number(f, run.value);
		fputs(", \"ci95\": [", f);
		sb_json_number(f, run.lo);
		fputs(", ", f);
		sb_json_number(f, run.hi);
		fputs("]}", f);
	} else if (!sb_estimate_known(&run)) {
		fprintf(f, "%-24s %6llu %10s\n", c->arm->name, (unsigned long long)c->batch, "-");
	} else {
		fprintf(f, "%-24s %6llu %10.2f [%.2f, %.2f]\n", c->arm->name, (unsigned long long)c->batch, run.value,
			run.lo, run.hi);
	}
}

/* Cost per run (per iteration x batch_iters), then the twins and the
 * private stack, for the JSON (the rest of "user_object", and
 * "annotate") and the table. */
static void per_run(const struct sb_obj_run *r, FILE *f, int json)
{
	if (json)
		fputs(",\n    \"cycles_per_run\": [", f);
	else
		fprintf(f, "# core cycles per run (per iteration x batch_iters), 95 %% CI\n");
	int first = 1;
	for (size_t i = 0; i < r->res.n_cells; i++) {
		if (!r->res.cells[i].arm)
			continue;
		cell_per_run(&r->res.cells[i], f, json, first);
		first = 0;
	}
	if (json)
		fputs("]", f);
	sb_obj_private_report(r, f, json);
	if (json)
		fputs("}", f);
	sb_obj_private_parts_report(r, f, json);
}

void sb_obj_json_extra(FILE *f, const void *ctx)
{
	const struct sb_obj_run *r = ctx;
	fputs(r->jit_json, f);
	per_run(r, f, 1);
}

void sb_obj_after_report(FILE *info, enum sb_format fmt, const struct sb_results *all, const void *ctx)
{
	(void)all;
	if (fmt == SB_FORMAT_TABLE)
		per_run(ctx, info, 0);
}

/* kernel_obj_report.c: what a `stubbench kernel --obj` run writes beside
 * its results: the document's member "user_object" and the lines under
 * the table; see kernel_obj.h. */
#include "kernel_obj.h"

#include "stubbench/estimate.h"
#include "output/json_doc.h"
#include "output/reporter.h"

/* One program's cost per run at one batch: an object of array per_run
 * (json_doc.h), or (NULL) a table line into f ("-" where the cell has no
 * samples behind it). */
static void cell_per_run(const struct sb_cell *c, FILE *f, struct sb_doc *per_run)
{
	struct sb_estimate cyc = sb_cell_cycles(c);
	struct sb_estimate run = sb_estimate_scaled(&cyc, (double)c->batch);
	if (per_run) {
		struct sb_doc *o = sb_doc_object(per_run, NULL);
		sb_doc_string(o, "prog", c->arm->name);
		sb_doc_uint(o, "batch", c->batch);
		sb_doc_number(o, "mean", run.value);
		struct sb_doc *ci = sb_doc_array(o, "ci95");
		sb_doc_number(ci, NULL, run.lo);
		sb_doc_number(ci, NULL, run.hi);
	} else if (!sb_estimate_known(&run)) {
		fprintf(f, "%-24s %6llu %10s\n", c->arm->name, (unsigned long long)c->batch, "-");
	} else {
		fprintf(f, "%-24s %6llu %10.2f [%.2f, %.2f]\n", c->arm->name, (unsigned long long)c->batch, run.value,
			run.lo, run.hi);
	}
}

/* Cost per run (per iteration x batch_iters), then the twins and the
 * private stack: members of "user_object" uo (json_doc.h), or (uo NULL)
 * the table's lines into f. */
static void per_run(const struct sb_obj_run *r, FILE *f, struct sb_doc *uo)
{
	struct sb_doc *runs = NULL;
	if (uo) {
		sb_doc_break(uo, "\n    ");
		runs = sb_doc_array(uo, "cycles_per_run");
	} else {
		fprintf(f, "# core cycles per run (per iteration x batch_iters), 95 %% CI\n");
	}
	for (size_t i = 0; i < r->res.n_cells; i++)
		if (r->res.cells[i].arm)
			cell_per_run(&r->res.cells[i], f, runs);
	sb_obj_private_report(r, f, uo);
}

void sb_obj_members(struct sb_doc *doc, const void *ctx)
{
	const struct sb_obj_run *r = ctx;
	struct sb_doc *uo = sb_doc_copy(doc, "user_object", r->jit_doc ? r->jit_doc->first : NULL);
	if (!uo)
		uo = sb_doc_object(doc, "user_object");
	per_run(r, NULL, uo);
	sb_obj_private_parts_report(r, NULL, doc);
}

void sb_obj_after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx)
{
	(void)all;
	if (sb_format_is(format, SB_OUT_TEXT)) {
		per_run(ctx, info, NULL);
		sb_obj_private_parts_report(ctx, info, NULL);
	}
}

/* kernel_load_figures.c: the figures load by load of a run of the
 * built-in shapes (saved/kernel_by_load.h), set on its cells from the
 * blocks it kept while it measured (kernel_measure.c): on the kernel's
 * cells, where their spread comes from (between its loads, within them);
 * on the placed twins' cells, the added cost less the kernel's, paired by
 * load. The JSON, the summary and the table then read them as figures of
 * the cells (output/figures.h). */
#include "kernel_run_state.h"

#include "kernel/kernel_report.h"
#include "saved/kernel_by_load.h"

/* A cell of res as the results own it (NULL: none). */
static struct sb_cell *cell_of(struct sb_results *res, enum sb_cell_side side, enum sb_kernel_shape s, int v,
			       uint64_t batch)
{
	return (struct sb_cell *)sb_kernel_report_cell(res, side, s, v, batch);
}

static const char *name_of(const struct sb_cell *c)
{
	return c && c->arm ? c->arm->name : NULL;
}

/* Variant v of shape s at batch: its figures from r->blocks onto its
 * cells. Returns 0, or -1 out of memory. */
static int cell_figures(struct kernel_run *r, enum sb_kernel_shape s, int v, uint64_t batch)
{
	struct sb_cell *k = cell_of(&r->kres[s], SB_SIDE_KERNEL, s, v, batch);
	struct sb_cell *kb = cell_of(&r->kres[s], SB_SIDE_KERNEL, s, SB_KV_BASELINE, batch);
	struct sb_cell *p = cell_of(&r->pres[s], SB_SIDE_PLACED_TWIN, s, v, batch);
	struct sb_cell *pb = cell_of(&r->pres[s], SB_SIDE_PLACED_TWIN, s, SB_KV_BASELINE, batch);
	if (!k || !kb)
		return 0;
	int base = v == SB_KV_BASELINE;
	struct sb_kernel_load_arms a = {batch, name_of(k), base ? NULL : name_of(kb), base || !pb ? NULL : name_of(p),
					name_of(pb)};
	struct sb_kernel_by_load f;
	if (sb_kernel_by_load(&r->blocks, &a, sb_kernel_by_load_seed(r->cfg.measure.seed, a.kernel, batch), &f) != 0)
		return -1;
	k->between_loads = f.absolute.between;
	k->within_loads = f.absolute.within;
	if (base)
		return 0;
	k->between_loads_added = f.added.between;
	k->within_loads_added = f.added.within;
	if (p)
		p->paired_vs_kernel = f.paired;
	return 0;
}

void kernel_run_load_figures(struct kernel_run *r)
{
	if (!r->blocks.n)
		return;
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (size_t b = 0; r->plan.shapes[s] && b < r->cfg.measure.n_batches; b++)
			for (int v = SB_KV_BASELINE; v < SB_N_KVARIANTS; v++)
				if (cell_figures(r, s, v, r->cfg.measure.batches[b]) != 0) {
					fprintf(stderr, "stubbench kernel: out of memory: no figures load by load\n");
					return;
				}
}

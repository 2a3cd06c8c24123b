/* output_core_states.c: the core states of a run in the table and the CSV
 * (sb_output_meta.core_states, state_figures.h): the table's header line
 * naming them and its rows per state where there are several. */
#include "output/output_core_states.h"

#include <string.h>

#include "stats/core_states.h"

/* "quiet 146 blocks (canary 4.60), busy 1671 (3.26)": the states seen. */
static void states_said(FILE *f, const struct sb_state_figures *s)
{
	const struct sb_core_split *sp = &s->split;
	const int order[SB_CORE_STATES] = {SB_CORE_QUIET, SB_CORE_BUSY, SB_CORE_UNKNOWN};
	for (int i = 0, said = 0; i < SB_CORE_STATES; i++)
		if (sp->n[order[i]])
			fprintf(f, said++ ? ", %s %zu (%.2f)" : " %s %zu blocks (canary %.2f)",
				sb_core_state_name((enum sb_core_state)order[i]), sp->n[order[i]], sp->median[order[i]]);
}

void sb_output_core_states_header(FILE *f, const struct sb_state_figures *s)
{
	const char *pooled = sb_state_figures_pooled(s);
	if (!pooled)
		return;
	if (strcmp(pooled, SB_CORE_POOLED)) {
		fprintf(f, "# core state: %s, every row (%zu blocks by the add canary)\n", pooled, s->n_blocks);
		return;
	}
	fprintf(f, "# core states:");
	states_said(f, s);
	fprintf(f, "; the rows pool them, rows per state below\n");
}

/* A figure and its CI for a row per state: "%+.2f" and "[lo, hi]", or "-". */
static void cell(char *v, size_t vlen, char *ci, size_t cilen, const struct sb_estimate *e)
{
	snprintf(v, vlen, "-");
	snprintf(ci, cilen, "-");
	if (!sb_estimate_known(e))
		return;
	snprintf(v, vlen, "%+.2f", e->value);
	if (sb_estimate_has_ci(e))
		snprintf(ci, cilen, "[%+.2f, %+.2f]", e->lo, e->hi);
}

void sb_output_core_states_rows(FILE *f, const struct sb_state_figures *s)
{
	const char *pooled = sb_state_figures_pooled(s);
	if (!pooled || strcmp(pooled, SB_CORE_POOLED) || !s->n)
		return;
	fprintf(f, "# per core state: each state's blocks alone, cycles per call; codegen: against the padded\n"
		   "# baseline at identical layout (median over placements); vs base: interleaved with the baseline\n");
	fprintf(f, "%-16s %6s %-7s %6s %8s %17s %8s %17s\n", "variant", "batch", "state", "blocks", "codegen",
		"95% CI", "vs base", "95% CI");
	for (size_t i = 0; i < s->n; i++) {
		const struct sb_state_figure *g = &s->f[i];
		char cg[24], cgci[48], vb[24], vbci[48];
		cell(cg, sizeof(cg), cgci, sizeof(cgci), &g->codegen);
		cell(vb, sizeof(vb), vbci, sizeof(vbci), &g->vs_base);
		fprintf(f, "%-16.16s %6llu %-7s %6zu %8s %17s %8s %17s\n", g->variant, (unsigned long long)g->batch,
			sb_core_state_name(g->state), g->blocks, cg, cgci, vb, vbci);
	}
}

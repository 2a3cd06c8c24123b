/* live_states.c: a live run's figures per core state at its ending; see
 * live_states.h. */
#include "live_states.h"

#include <stdlib.h>

#include "stats/block_table.h"
#include "records/quiet_record.h"
#include "saved/state_figures.h"

/* The machine's quiet add level in the record in use (0: no record, or
 * one without two runs of this machine), its path in *record. */
static double record_level(const char **record)
{
	*record = sb_quiet_record_path();
	if (!*record)
		return 0;
	char machine[128], err[1400];
	struct sb_quiet_reference ref;
	sb_quiet_record_machine(machine, sizeof(machine));
	if (sb_quiet_record_read(*record, machine, &ref, NULL, err, sizeof(err)) != 0 || !(ref.adds > 0))
		return *record = NULL, 0;
	return ref.adds;
}

/* The front end's members, then "core_states". */
static void states_members(struct sb_doc *doc, const void *ctx)
{
	const struct sb_live_states *ls = ctx;
	if (ls->front_members)
		ls->front_members(doc, ls->front_ctx);
	sb_state_figures_doc(doc, "core_states", ls->states, ls->record, 1);
}

/* The front end's members of a result, with its own context. */
static void front_result_members(struct sb_doc *doc, const struct sb_cell *c, const void *ctx)
{
	const struct sb_live_states *ls = ctx;
	if (ls->front_result_members)
		ls->front_result_members(doc, c, ls->front_ctx);
}

void sb_live_states_begin(struct sb_live_states *ls, const struct sb_block_table *blocks, uint64_t seed,
			  struct sb_output_meta *meta, const char *tool)
{
	if (!blocks || !blocks->n)
		return;
	ls->states = calloc(1, sizeof(*ls->states));
	double level = record_level(&ls->record);
	if (!ls->states || sb_state_figures_of_blocks(blocks, level, seed, ls->states) != 0) {
		fprintf(stderr, "%s: out of memory: no figures per core state\n", tool);
		free(ls->states);
		ls->states = NULL;
		return;
	}
	ls->front_members = meta->members;
	ls->front_result_members = meta->result_members;
	ls->front_ctx = meta->members_ctx;
	meta->members = states_members;
	meta->result_members = ls->front_result_members ? front_result_members : NULL;
	meta->members_ctx = ls;
	meta->core_states = ls->states;
}

void sb_live_states_end(struct sb_live_states *ls)
{
	if (ls->states)
		sb_state_figures_free(ls->states);
	free(ls->states);
	ls->states = NULL;
}

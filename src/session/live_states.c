/* live_states.c: a live run's figures per core state at its ending; see
 * live_states.h. */
#include "live_states.h"

#include <stdlib.h>
#include <string.h>

#include "stats/block_table.h"
#include "records/quiet_record.h"
#include "saved/state_figures.h"

/* The machine's quiet add level in the record in use, its path in
 * *record: the second quietest of its runs, or with one earlier run of
 * this machine that run's, so that a second run names its state. 0 (and
 * *no_level why) with no record, or none of this machine yet. */
static double record_level(const char **record, const char **no_level)
{
	*record = sb_quiet_record_path();
	*no_level = SB_CORE_RECORD_OFF;
	if (!*record)
		return 0;
	char machine[128], err[1400];
	struct sb_quiet_reference ref;
	sb_quiet_record_machine(machine, sizeof(machine));
	int ok = sb_quiet_record_read(*record, machine, &ref, NULL, err, sizeof(err)) == 0;
	double level = !ok ? 0 : ref.adds > 0 ? ref.adds : ref.runs == 1 ? ref.newest_adds : 0;
	if (!(level > 0)) {
		*no_level = ok ? SB_CORE_RECORD_SHORT : SB_CORE_RECORD_OFF;
		return *record = NULL, 0;
	}
	return level;
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
	const char *no_level;
	double level = record_level(&ls->record, &no_level);
	if (!ls->states || sb_state_figures_of_blocks(blocks, level, seed, ls->states) != 0) {
		fprintf(stderr, "%s: out of memory: no figures per core state\n", tool);
		free(ls->states);
		ls->states = NULL;
		return;
	}
	if (!strcmp(ls->states->split.basis, "none"))
		ls->states->split.no_level = no_level;
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

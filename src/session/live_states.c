/* live_states.c: a live run's figures per core state at its ending; see
 * live_states.h. */
#include "live_states.h"

#include <stdlib.h>

#include "stubbench/block_table.h"
#include "stubbench/quiet_record.h"
#include "stubbench/state_figures.h"

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
	const struct sb_session *s = ctx;
	if (s->front_members)
		s->front_members(doc, s->front_ctx);
	sb_state_figures_doc(doc, "core_states", s->states, s->states_record, 1);
}

/* The front end's members of a result, with its own context. */
static void front_result_members(struct sb_doc *doc, const struct sb_cell *c, const void *ctx)
{
	const struct sb_session *s = ctx;
	if (s->front_result_members)
		s->front_result_members(doc, c, s->front_ctx);
}

void sb_live_states_begin(struct sb_session *s)
{
	if (!s->blocks || !s->blocks->n)
		return;
	s->states = calloc(1, sizeof(*s->states));
	double level = record_level(&s->states_record);
	if (!s->states || sb_state_figures_of_blocks(s->blocks, level, s->cfg->seed, s->states) != 0) {
		fprintf(stderr, "%s: out of memory: no figures per core state\n", s->tool);
		free(s->states);
		s->states = NULL;
		return;
	}
	s->front_members = s->meta.members;
	s->front_result_members = s->meta.result_members;
	s->front_ctx = s->meta.members_ctx;
	s->meta.members = states_members;
	s->meta.result_members = s->front_result_members ? front_result_members : NULL;
	s->meta.members_ctx = s;
}

void sb_live_states_end(struct sb_session *s)
{
	if (s->states)
		sb_state_figures_free(s->states);
	free(s->states);
	s->states = NULL;
}

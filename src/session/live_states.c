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
static void json_states(FILE *f, const void *ctx)
{
	const struct sb_session *s = ctx;
	if (s->front_json_extra)
		s->front_json_extra(f, s->front_json_ctx);
	fputs(",\n  \"core_states\": ", f);
	sb_state_figures_json(f, s->states, s->states_record, 1);
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
	s->front_json_extra = s->meta.json_extra;
	s->front_json_ctx = s->meta.json_extra_ctx;
	s->meta.json_extra = json_states;
	s->meta.json_extra_ctx = s;
}

void sb_live_states_end(struct sb_session *s)
{
	if (s->states)
		sb_state_figures_free(s->states);
	free(s->states);
	s->states = NULL;
}

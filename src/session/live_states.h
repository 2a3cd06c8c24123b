/* live_states.h: the ending's core states of a live run: the kept blocks
 * classified by the one rule (core_states.h) and the figures per state
 * (state_figures.h), by the machine's quiet level from the record in use.
 * Private to src/session. */
#ifndef STUBBENCH_SESSION_LIVE_STATES_H
#define STUBBENCH_SESSION_LIVE_STATES_H

#include <stdint.h>

#include "stats/block_table.h"
#include "base/run_info.h"

struct sb_doc;
struct sb_cell;
struct sb_state_figures;

struct sb_live_states {
	struct sb_state_figures *states; /* NULL: none */
	const char *record;              /* the record the quiet level came from, or NULL */
	/* The front end's members (and result members) that the core states'
	 * member follows, with their context. */
	void (*front_members)(struct sb_doc *doc, const void *ctx);
	void (*front_result_members)(struct sb_doc *doc, const struct sb_cell *c, const void *ctx);
	const void *front_ctx;
};

/* ls->states from blocks (none or empty: nothing), and the JSON's
 * "core_states" member after the front end's own (meta->members). Out of
 * memory: one line on stderr naming tool, and the run goes on without. */
void sb_live_states_begin(struct sb_live_states *ls, const struct sb_block_table *blocks, uint64_t seed,
			  struct sb_output_meta *meta, const char *tool);

/* Frees ls->states. */
void sb_live_states_end(struct sb_live_states *ls);

#endif

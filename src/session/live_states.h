/* live_states.h: the ending's core states of a live run (session.h's
 * blocks and states): the kept blocks classified by the one rule
 * (core_states.h) and the figures per state (state_figures.h), by the
 * machine's quiet level from the record in use. Private to src/session. */
#ifndef STUBBENCH_SESSION_LIVE_STATES_H
#define STUBBENCH_SESSION_LIVE_STATES_H

#include "session/session.h"

/* s->states from s->blocks (none: nothing), and the JSON's "core_states"
 * member after the front end's own (s->meta.members). Out of memory:
 * one line on stderr, and the run goes on without. */
void sb_live_states_begin(struct sb_session *s);

/* Frees s->states. */
void sb_live_states_end(struct sb_session *s);

#endif

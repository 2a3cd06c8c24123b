/* states_answer.c: the summary's lines on the core states a sweep saw
 * (rf->states, state_figures.h); see answer.h. */
#include "answer/answer.h"

#include <string.h>

#include "saved/state_figures.h"

/* line, cut to the summary's width, as one line of f. */
static void put_line(FILE *f, char *line)
{
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		memcpy(line + SB_ANSWER_MAX_COLUMNS - 3, "...", 4);
	fprintf(f, "%s\n", line);
}

/* Where the quiet level came from, short. */
static void level_said(char *buf, size_t len, const struct sb_core_split *sp)
{
	if (!strcmp(sp->basis, "record"))
		snprintf(buf, len, "quiet %.2f by the record", sp->quiet_level);
	else if (!strcmp(sp->basis, "run"))
		snprintf(buf, len, "quiet %.2f by the run's upper cluster", sp->quiet_level);
	else if (sp->no_level && !strcmp(sp->no_level, SB_CORE_RECORD_OFF))
		snprintf(buf, len, "no record of quiet levels kept to name it by");
	else /* the record is kept by default: it only needs runs */
		snprintf(buf, len, "the record needs two runs on this machine: run again");
}

/* The run saw one state (the others, if any, in fewer than
 * SB_CORE_MIN_BLOCKS blocks): one line naming it. */
static void one_state(FILE *f, const struct sb_state_figures *s, int st)
{
	const struct sb_core_split *sp = &s->split;
	char line[256], level[96], share[64] = "all run";
	level_said(level, sizeof(level), sp);
	if (sp->n[st] < s->n_blocks)
		snprintf(share, sizeof(share), "in %zu of %zu blocks", sp->n[st], s->n_blocks);
	if (st == SB_CORE_UNKNOWN)
		snprintf(line, sizeof(line), "core state: unknown: %s; canary %.2f adds/cycle", level, sp->median[st]);
	else
		snprintf(line, sizeof(line), "core state: %s %s (canary %.2f adds/cycle, %s)",
			 sb_core_state_name((enum sb_core_state)st), share, sp->median[st], level);
	put_line(f, line);
}

/* The figures' variant the summary quotes: the summary's first variant
 * where the figures have it, else the first figure's; and its largest
 * batch size in *batch. */
static const char *quoted_variant(const struct sb_run_file *rf, const struct sb_state_figures *s, uint64_t *batch)
{
	const struct sb_run_row *first = sb_answer_first_variant(rf);
	const char *name = s->n ? s->f[0].variant : NULL;
	for (size_t i = 0; first && i < s->n; i++)
		if (!strcmp(s->f[i].variant, first->variant))
			name = first->variant;
	*batch = 0;
	for (size_t i = 0; name && i < s->n; i++)
		if (!strcmp(s->f[i].variant, name) && s->f[i].batch > *batch)
			*batch = s->f[i].batch;
	return name;
}

/* The quoted variant's figure per state: "  NAME codegen at batch B by
 * state: quiet X [lo, hi], busy ..." (vs its baseline where the run has no
 * codegen: no --padded). */
static void by_state(FILE *f, const struct sb_run_file *rf, const struct sb_state_figures *s)
{
	uint64_t batch;
	const char *name = quoted_variant(rf, s, &batch);
	const struct sb_state_figure *at[SB_CORE_STATES] = {0};
	int codegen = 0;
	for (size_t i = 0; name && i < s->n; i++)
		if (!strcmp(s->f[i].variant, name) && s->f[i].batch == batch) {
			at[s->f[i].state] = &s->f[i];
			codegen |= sb_estimate_known(&s->f[i].codegen);
		}
	char line[512];
	if (!name) {
		snprintf(line, sizeof(line), "  no state with %d blocks: no figures per state", SB_CORE_MIN_BLOCKS);
		put_line(f, line);
		return;
	}
	size_t k = (size_t)snprintf(line, sizeof(line), "  %s %s at batch %llu by state:", name,
				    codegen ? "codegen" : "vs its baseline", (unsigned long long)batch);
	const int order[SB_CORE_STATES] = {SB_CORE_QUIET, SB_CORE_BUSY, SB_CORE_UNKNOWN};
	for (int i = 0, said = 0; i < SB_CORE_STATES && k < sizeof(line); i++) {
		const struct sb_state_figure *g = at[order[i]];
		char e[64] = "too few blocks";
		if (!g && s->split.n[order[i]] < SB_CORE_MIN_BLOCKS)
			continue;
		if (g)
			sb_answer_estimate(e, sizeof(e), codegen ? &g->codegen : &g->vs_base, 1);
		k += (size_t)snprintf(line + k, sizeof(line) - k, "%s %s %s", said++ ? "," : "",
				      sb_core_state_name((enum sb_core_state)order[i]), e);
	}
	put_line(f, line);
}

int sb_answer_core_states_lines(const struct sb_run_file *rf)
{
	int only;
	if (!rf->states || !rf->states->n_blocks)
		return 0;
	return sb_state_figures_seen(rf->states, &only) > 1 ? 2 : 1;
}

int sb_answer_core_states(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	const struct sb_state_figures *s = rf->states;
	int only = SB_CORE_UNKNOWN;
	if (!s || max_lines < 1 || !s->n_blocks)
		return 0;
	const struct sb_core_split *sp = &s->split;
	if (sb_state_figures_seen(s, &only) == 1) {
		one_state(f, s, only);
		return 1;
	}
	char line[512], level[96];
	level_said(level, sizeof(level), sp);
	size_t k = (size_t)snprintf(line, sizeof(line), "core states:");
	const int order[SB_CORE_STATES] = {SB_CORE_QUIET, SB_CORE_BUSY, SB_CORE_UNKNOWN};
	for (int i = 0, said = 0; i < SB_CORE_STATES; i++)
		if (sp->n[order[i]])
			k += (size_t)snprintf(line + k, sizeof(line) - k, said++ ? ", %s %zu (%.2f)" :
					      " %s %zu blocks (canary %.2f)", sb_core_state_name((enum sb_core_state)order[i]),
					      sp->n[order[i]], sp->median[order[i]]);
	snprintf(line + k, sizeof(line) - k, "; %s", level);
	put_line(f, line);
	if (max_lines < 2)
		return 1;
	by_state(f, rf, s);
	return 2;
}

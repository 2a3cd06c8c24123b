/* compare_states.c: two saved runs' core states in `compare`: like is
 * compared with like (see compare_states.h). */
#include "compare/compare_states.h"

#include <string.h>

#include "compare/compare_change.h"
#include "stats/core_states.h"

/* A run's one state its rows were in (NULL: several, pooled), or "" where
 * nothing says (no states: an older run; or unknown). */
static const char *single(const struct sb_run_file *r)
{
	const char *p = sb_state_figures_pooled(r->states);
	if (!p || !strcmp(p, "unknown"))
		return "";
	return strcmp(p, SB_CORE_POOLED) ? p : NULL;
}

int sb_compare_same_state(const struct sb_run_file *a, const struct sb_run_file *b)
{
	const char *sa = single(a), *sb = single(b);
	if ((sa && !*sa) || (sb && !*sb))
		return 1;
	return sa && sb && !strcmp(sa, sb);
}

/* "quiet 146 blocks, busy 1671": the states r saw, or what says none. */
static void states_of(char *buf, size_t len, const struct sb_run_file *r)
{
	const struct sb_state_figures *s = r->states;
	int only;
	if (!s || !s->n_blocks) {
		snprintf(buf, len, "not classified");
		return;
	}
	size_t k = 0;
	buf[0] = 0;
	for (int st = 0; st < SB_CORE_STATES && k < len && sb_state_figures_seen(s, &only); st++)
		if (s->split.n[st] >= SB_CORE_MIN_BLOCKS || (sb_state_figures_seen(s, &only) == 1 && st == only))
			k += (size_t)snprintf(buf + k, len - k, "%s%s %zu blocks", k ? ", " : "",
					      sb_core_state_name((enum sb_core_state)st), s->split.n[st]);
}

/* Figure g of s with g's variant, batch and state; NULL: none. */
static const struct sb_state_figure *same_figure(const struct sb_state_figures *s, const struct sb_state_figure *g)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (s->f[i].batch == g->batch && s->f[i].state == g->state && !strcmp(s->f[i].variant, g->variant))
			return &s->f[i];
	return NULL;
}

/* The states one run saw with figures and the other has none in: one line. */
static void only_states(FILE *f, const char *which, const struct sb_state_figures *s,
			const struct sb_state_figures *other)
{
	int said[SB_CORE_STATES] = {0};
	for (size_t i = 0; s && i < s->n; i++) {
		enum sb_core_state st = s->f[i].state;
		int in_other = 0;
		for (size_t k = 0; other && k < other->n && !in_other; k++)
			in_other = other->f[k].state == st;
		if (!in_other && !said[st]++)
			fprintf(f, "# state %s: only in %s (%zu blocks), not compared with another state\n",
				sb_core_state_name(st), which, s->split.n[st]);
	}
}

/* A state figure as a row of one figure (codegen, else vs base in cycles). */
static void as_row(const struct sb_state_figure *g, int codegen, struct sb_run_row *row)
{
	memset(row, 0, sizeof(*row));
	snprintf(row->variant, sizeof(row->variant), "%s", g->variant);
	row->batch = g->batch;
	row->figures[SB_FIGURE_CODEGEN] = codegen ? g->codegen : g->vs_base;
}

size_t sb_compare_states_write(FILE *f, const struct sb_run_file *a, const struct sb_run_file *b)
{
	char sa[160], sb[160];
	states_of(sa, sizeof(sa), a);
	states_of(sb, sizeof(sb), b);
	int same = sb_compare_same_state(a, b);
	const char *ka = single(a), *kb = single(b);
	if (same && (!ka || !kb || strcmp(ka, kb)))
		fprintf(f, "# core states: A %s; B %s: a run in no known state, its rows compared as they are\n", sa, sb);
	if (same)
		return 0;
	fprintf(f, "# core states differ: A %s; B %s\n"
		   "# so each state only against itself (codegen, else vs base, cycles per call):\n", sa, sb);
	size_t flagged = 0, shown = 0;
	for (size_t i = 0; a->states && i < a->states->n; i++) {
		const struct sb_state_figure *ga = &a->states->f[i], *gb = same_figure(b->states, ga);
		struct sb_run_row ra, rb;
		struct sb_change c;
		int codegen = gb && sb_estimate_has_ci(&ga->codegen) && sb_estimate_has_ci(&gb->codegen);
		if (!gb)
			continue;
		as_row(ga, codegen, &ra);
		as_row(gb, codegen, &rb);
		if (sb_compare_change(&ra, &rb, (enum sb_compare_metric)SB_FIGURE_CODEGEN, &c) != 0)
			continue;
		fprintf(f, "%-16s %6llu %-5s %-8s %+.2f [%+.2f, %+.2f] -> %+.2f [%+.2f, %+.2f]: %+.2f [%+.2f, %+.2f]%s\n",
			ga->variant, (unsigned long long)ga->batch, sb_core_state_name(ga->state),
			codegen ? "codegen" : "vs base", c.a.value, c.a.lo, c.a.hi, c.b.value, c.b.lo, c.b.hi,
			c.change.value, c.change.lo, c.change.hi, c.overlap ? "" : " *");
		flagged += !c.overlap;
		shown++;
	}
	if (!shown)
		fprintf(f, "# no state with figures in both runs\n");
	only_states(f, "A", a->states, b->states);
	only_states(f, "B", b->states, a->states);
	return flagged;
}

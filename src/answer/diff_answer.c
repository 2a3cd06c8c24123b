/* diff_answer.c: stubbench diff's summary lines from the saved run alone
 * (its rows and its diff and annotate members, run_diff.h): what changed,
 * what the change costs per run at the largest batch, and the parts'
 * costs or the changed instructions as hunks. The live run prints them
 * from the same members (src/commands/diff_report.c). */
#include "saved/run_diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "saved/run_file.h"

/* A row's place: "main+0x3c", its function's name shortened to fit (the
 * first pair is the main progs'). */
static void where(char *buf, size_t len, size_t pair, const struct sb_run_diff_pair *p,
		  const struct sb_run_diff_row *w)
{
	snprintf(buf, len, "%.14s+%#zx", pair == 0 ? "main" : w->from_old ? p->old_name : p->new_name, w->off);
}

/* A hunk: consecutive rows of pair k that are not the same, from row *r
 * on, as one summary line; *r moves past it. Returns 0 when no hunk is
 * left. */
static int hunk_line(FILE *out, const struct sb_run_diff *d, size_t k, size_t *r)
{
	const struct sb_run_diff_pair *p = &d->pairs[k];
	while (*r < p->n_rows && !p->rows[*r].mark)
		(*r)++;
	if (*r == p->n_rows)
		return 0;
	char line[256], at[48];
	where(at, sizeof(at), k, p, &p->rows[*r]);
	size_t n = (size_t)snprintf(line, sizeof(line), "  %-20s", at);
	for (int i = 0; *r < p->n_rows && p->rows[*r].mark; (*r)++, i++) {
		const struct sb_run_diff_row *w = &p->rows[*r];
		if (n < sizeof(line))
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%c %s", i ? "; " : "", w->mark, w->text);
	}
	if (n > SB_ANSWER_MAX_COLUMNS)
		memcpy(line + SB_ANSWER_MAX_COLUMNS - 3, "...", 4);
	fprintf(out, "%s\n", line);
	return 1;
}

static size_t hunks_of(const struct sb_run_diff_pair *p)
{
	size_t n = 0;
	for (size_t r = 0; r < p->n_rows; r++)
		n += p->rows[r].mark && (r == 0 || !p->rows[r - 1].mark);
	return n;
}

/* The hunks of every pair, at most room lines with the line saying how
 * many more there are. Returns the lines printed. */
static int hunk_lines(FILE *f, const struct sb_run_diff *d, int room)
{
	size_t total = 0, shown = 0;
	for (size_t k = 0; k < d->n_pairs; k++)
		total += hunks_of(&d->pairs[k]);
	for (size_t k = 0; k < d->n_pairs; k++)
		for (size_t r = 0; (int)shown < room - (total > (size_t)room) && hunk_line(f, d, k, &r);)
			shown++;
	if (shown < total) {
		fprintf(f, "  (%zu more changes: --table)\n", total - shown);
		return (int)shown + 1;
	}
	return (int)shown;
}

/* The layout line and the parts, highest cost first, at most room lines.
 * Returns the lines printed. */
static int part_lines(FILE *f, const struct sb_run_diff *d, const struct sb_attribution *att, int room)
{
	size_t order[SB_ATTRIBUTION_MAX_PARTS], n = att->n_parts;
	sb_answer_parts_by_cost(att, order);
	char lay[64];
	sb_answer_estimate(lay, sizeof(lay), &att->layout, 1);
	char line[256];
	snprintf(line, sizeof(line), "  by part: layout (every part NOPed) %s, the parts NOPed one by one sum %+.2f:",
		 lay, att->sum_parts);
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "  by part: layout (every part NOPed) %s, the parts sum %+.2f:", lay,
			 att->sum_parts);
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
	room--;
	/* The parts that fit, the last line saying how many more where not all do. */
	size_t shown = 0, fit = (size_t)room < n ? (size_t)(room > 0 ? room - 1 : 0) : (size_t)room;
	int lines = 1;
	for (size_t i = 0; i < n && shown < fit; i++, lines++, shown++) {
		char c[64], r[64];
		sb_answer_estimate(c, sizeof(c), &att->nop[order[i]], 1);
		sb_answer_estimate(r, sizeof(r), &att->removed[order[i]], 1);
		snprintf(line, sizeof(line), "  %-24.24s NOPed %s, removed %s", d->part_names[order[i]], c, r);
		/* Wide figures: NOPed alone (removed: --table). */
		if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
			snprintf(line, sizeof(line), "  %-24.24s NOPed %s", d->part_names[order[i]], c);
		sb_answer_line_faster(f, line, &att->nop[order[i]]);
	}
	if (shown < n) {
		fprintf(f, "  (%zu more part%s: --table)\n", n - shown, n - shown == 1 ? "" : "s");
		lines++;
	}
	return lines;
}

/* Under this many cycles a run (the harness's empty stub's taken off) did
 * nearly nothing: an empty loop's twin read 2.4 and 2.9 on an Intel Xeon
 * VM, a program that loops 0 times; the least of 803 rows of real
 * programs in tests/data and ../shared/data is 5.1 (a kernel --obj
 * program at batch 8), the seeds' read 9.7 and up. */
#define SB_DIFF_FLOOR_CYCLES 4.0

/* "OLD" / "NEW" / "OLD's and NEW's" for the sides flagged in on[2]. */
static const char *sides(const int on[2], int possessive)
{
	if (on[0] && on[1])
		return possessive ? "OLD's and NEW's" : "OLD and NEW";
	if (on[0])
		return possessive ? "OLD's" : "OLD";
	return possessive ? "NEW's" : "NEW";
}

/* The line saying a side's branches read memory its twin zeroes, and how
 * to set it. Returns the lines printed (0 or 1). */
static int zeroed_line(FILE *f, const struct sb_run_diff *d)
{
	int on[2] = {d->path[0].reads_zeroed, d->path[1].reads_zeroed};
	if (!on[0] && !on[1])
		return 0;
	const struct sb_run_diff_path *p = &d->path[on[0] ? 0 : 1];
	char where[96], give[96];
	if (p->global[0]) {
		snprintf(where, sizeof(where), "global %.24s", p->global);
		snprintf(give, sizeof(give), "--global=%s=N", p->global);
	} else if (p->at[0]) {
		snprintf(where, sizeof(where), "%s", p->at);
		snprintf(give, sizeof(give), on[0] && on[1] ? "--global=KADDR=N" : "--global=%s=N", p->at);
	} else {
		snprintf(where, sizeof(where), "where: not found");
		snprintf(give, sizeof(give), "--global=NAME=N");
	}
	char line[320];
	snprintf(line, sizeof(line), "  %s branches read memory the twin%s zero%s (%s): set %s", sides(on, 1),
		 on[0] && on[1] ? "s" : "", on[0] && on[1] ? "" : "es", where, give);
	/* The name in the option too where the line fits the columns, else
	 * NAME (the name is in the parentheses). */
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "  %s branches read memory the twin%s zero%s (%s): set --global=NAME=N",
			 sides(on, 1), on[0] && on[1] ? "s" : "", on[0] && on[1] ? "" : "es", where);
	fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
	return 1;
}

/* The line saying a side did nearly nothing per run (its cycles per run,
 * row r of side s, under SB_DIFF_FLOOR_CYCLES). Returns the lines printed. */
static int floor_line(FILE *f, const struct sb_run_diff *d, const struct sb_run_row *r[2])
{
	int on[2];
	for (int s = 0; s < 2; s++)
		on[s] = r[s] && sb_estimate_known(&r[s]->cycles) && isfinite(r[s]->cycles.value) &&
			r[s]->cycles.value < SB_DIFF_FLOOR_CYCLES;
	if (!on[0] && !on[1])
		return 0;
	char insns[64] = "";
	if (d && on[0] && on[1] && d->path[0].traced && d->path[1].traced)
		snprintf(insns, sizeof(insns), d->path[0].insns == d->path[1].insns ? "%.0f instructions each, " :
			 "%.0f and %.0f instructions, ", d->path[0].insns, d->path[1].insns);
	else if (d && d->path[on[0] ? 0 : 1].traced)
		snprintf(insns, sizeof(insns), "%.0f instructions, ", d->path[on[0] ? 0 : 1].insns);
	fprintf(f, "  %s did nearly nothing per run: %sunder %.0f cycles (an empty loop)\n", sides(on, 0),
		insns, SB_DIFF_FLOOR_CYCLES);
	return 1;
}

/* The cost lines: NEW against OLD at batch b, with quote non-zero the
 * line saying which figure to quote. Returns the lines printed. */
static int cost_lines(FILE *f, const struct sb_run_file *rf, uint64_t b, int quote)
{
	const struct sb_run_row *o = sb_answer_find(rf, SB_SIDE_REPLICA, "diff", "old", NULL, b);
	const struct sb_run_row *n = sb_answer_find(rf, SB_SIDE_REPLICA, "diff", "new", NULL, b);
	char cg[64], pct[64], cyc[64];
	struct sb_estimate none = sb_estimate_absent("no row");
	struct sb_estimate vs = n && o ? sb_estimate_pct_to_cycles(&n->figures[SB_FIGURE_DELTA], o->cycles.value) : none;
	sb_answer_estimate(cg, sizeof(cg), n ? &n->figures[SB_FIGURE_CODEGEN] : &none, 1);
	sb_answer_estimate(pct, sizeof(pct), n ? &n->figures[SB_FIGURE_DELTA] : &none, 1);
	sb_answer_estimate(cyc, sizeof(cyc), &vs, 1);
	fprintf(f, "cost of the change per run (a call of the main prog) at batch %" PRIu64 ", 95 %% CI:\n", b);
	char base[48] = "";
	if (o && sb_estimate_known(&o->cycles) && isfinite(o->cycles.value))
		snprintf(base, sizeof(base), " (OLD: %.1f cycles per run)", o->cycles.value);
	/* Against the padded baseline (a layout figure beside it) the codegen
	 * alone; else NEW against OLD at the same placements, whose code after
	 * each added instruction lies elsewhere: layout included. */
	char line[512];
	const char *what =
		n && sb_answer_codegen_apart(n) ? "codegen at identical layout" : "at the same placements, layout in";
	snprintf(line, sizeof(line), "  %s %s cycles%s", what, cg, base);
	/* Wide figures: OLD's cost shortened, then left to the JSON. */
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS && base[0]) {
		snprintf(base, sizeof(base), " (OLD: %.1f)", o->cycles.value);
		snprintf(line, sizeof(line), "  %s %s cycles%s", what, cg, base);
	}
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "  %s %s cycles", what, cg);
	sb_answer_line_faster(f, line, n ? &n->figures[SB_FIGURE_CODEGEN] : &none);
	snprintf(line, sizeof(line), "  placed at random %s cycles, %s %%", cyc, pct);
	if (strlen(line) > SB_ANSWER_MAX_COLUMNS)
		snprintf(line, sizeof(line), "  placed at random %s cycles", cyc);
	sb_answer_line_faster(f, line, &vs);
	int lines = 3;
	/* With the codegen apart: where it and the placed cost disagree in
	 * sign, the layout's share in words; and which figure to quote. */
	if (n && sb_answer_codegen_apart(n)) {
		const struct sb_estimate *codegen = &n->figures[SB_FIGURE_CODEGEN];
		if (sb_answer_signs_differ(codegen, &vs)) {
			int li = sb_figure_index("layout");
			struct sb_estimate lay = li >= 0 ? n->figures[li] : sb_estimate_absent("no layout figure");
			sb_answer_signs_line(line, sizeof(line), "  ", codegen, &vs, &lay);
			fprintf(f, "%.*s\n", SB_ANSWER_MAX_COLUMNS, line);
			lines++;
		}
		if (quote) {
			fprintf(f, "  %s\n", SB_ANSWER_QUOTE_LINE);
			lines++;
		}
	}
	const struct sb_run_row *r[2] = {o, n};
	return lines + (rf->diff ? zeroed_line(f, rf->diff) : 0) + floor_line(f, rf->diff, r);
}

int sb_diff_answer(FILE *f, const struct sb_run_file *rf, int max_lines)
{
	const struct sb_run_diff *d = rf->diff;
	if (d)
		fprintf(f, "OLD -> NEW: %zu function%s paired, instructions: %zu added, %zu changed, %zu removed\n",
			d->n_pairs, d->n_pairs == 1 ? "" : "s", d->added, d->changed, d->removed);
	else
		fprintf(f, "OLD -> NEW: the changed instructions are in the document's diff member\n");
	uint64_t b = sb_answer_largest_batch(rf);
	const struct sb_attribution *att = NULL;
	for (size_t k = 0; d && k < d->n_att; k++)
		if (d->att[k].batch == b)
			att = &d->att[k];
	struct sb_attribution_state st;
	if (att)
		sb_attribution_state_of(att, &st);
	/* Which figure to quote, unless what follows then lacks its lines: a
	 * cost that is a state of the loop the 4 that say so, the parts their
	 * layout line, one part and the count of the rest. Those first. */
	int quote = 1;
	if (att) {
		char *text = NULL;
		size_t len = 0;
		FILE *dry = open_memstream(&text, &len);
		int n = dry ? cost_lines(dry, rf, b, 1) : max_lines;
		if (dry)
			fclose(dry);
		free(text);
		int need = st.verdict == SB_ATTRIBUTION_STATE ? 4 : att->n_parts > 1 ? 3 : 2;
		quote = max_lines - 1 - n - 1 >= need;
	}
	int lines = 1 + cost_lines(f, rf, b, quote), room = max_lines - lines - 1;
	if (!d) {
		fprintf(f, "the parts' costs: the document's annotate member; every figure: --format=json\n");
		return lines + 1;
	}
	if (att) {
		const char *names[SB_ATTRIBUTION_MAX_PARTS];
		for (size_t k = 0; k < att->n_parts; k++)
			names[k] = d->part_names[k];
		int state = sb_answer_state_lines(f, att, &st, names, room);
		lines += state ? state : part_lines(f, d, att, room);
		fprintf(f, "%s: --table; every figure and row: --format=json\n",
			state ? "each part alone, one state change each" : "each instruction with its part's cost");
		return lines + 1;
	}
	lines += hunk_lines(f, d, room);
	fprintf(f, "every instruction: --table; every figure and row: --format=json\n");
	return lines + 1;
}

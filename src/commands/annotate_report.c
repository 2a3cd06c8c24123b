/* annotate_report.c: what `stubbench annotate` prints: the summary, the
 * listing with a cost column per part, the document's member; see annotate.h. */
#include "annotate.h"

#include <math.h>
#include <string.h>

#include "output/text_grid.h"
#include "answer/answer.h"
#include "output/json_doc.h"

void sb_annotate_arm_names(struct sb_annotate *a)
{
	for (size_t k = 0; k < a->ab.n_parts; k++) {
		snprintf(a->nop_name[k], sizeof(a->nop_name[k]), "%s:nop:%zu", a->variant, k + 1);
		snprintf(a->removed_name[k], sizeof(a->removed_name[k]), "%s:del:%zu", a->variant, k + 1);
	}
	snprintf(a->layout_name, sizeof(a->layout_name), "%s:nop:all", a->variant);
}

int sb_annotate_compute(struct sb_annotate *a, const struct sb_block_table *t, uint64_t seed, const char *tool)
{
	struct sb_attribution_arms arms = {.variant = a->variant, .baseline = a->baseline,
					   .n_parts = a->ab.n_parts,
					   .layout = sb_block_table_arm(t, a->layout_name) >= 0 ? a->layout_name : NULL};
	for (size_t k = 0; k < a->ab.n_parts; k++) {
		arms.nop[k] = a->nop_name[k];
		arms.removed[k] = sb_block_table_arm(t, a->removed_name[k]) >= 0 ? a->removed_name[k] : NULL;
	}
	uint64_t batches[SB_ANNOTATE_MAX_BATCHES];
	size_t nb = sb_attribution_batches(t, batches, SB_ANNOTATE_MAX_BATCHES);
	a->n_att = 0;
	for (size_t i = 0; i < nb; i++) {
		char err[512];
		if (sb_attribution_compute(t, &arms, batches[i], 1000, seed, &a->att[a->n_att], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s: %s: %s\n", tool, a->source, err);
			continue;
		}
		a->n_att++;
	}
	if (a->n_att == 0)
		fprintf(stderr, "%s: %s: no batch size with blocks of every arm\n", tool, a->source);
	return a->n_att ? 0 : -1;
}

/* "+1.23 [+1.01, +1.45]", or "n/a" with no figure, or the value alone
 * without a CI. */
static const char *est(char *buf, size_t len, const struct sb_estimate *e)
{
	if (!sb_estimate_known(e) || !isfinite(e->value))
		snprintf(buf, len, "n/a");
	else if (!sb_estimate_has_ci(e))
		snprintf(buf, len, "%+.2f (no CI)", e->value);
	else
		snprintf(buf, len, "%+.2f [%+.2f, %+.2f]", e->value, e->lo, e->hi);
	return buf;
}

/* The parts' names, as sb_answer_state_lines takes them. */
static void part_names(const struct sb_annotate *a, const char **names)
{
	for (size_t k = 0; k < a->ab.n_parts; k++)
		names[k] = a->ab.parts[k].name;
}

/* The summary's lines on parts that add up: their sum, layout, the
 * interaction and the biggest parts, at most room lines. */
static int additive_lines(FILE *f, const struct sb_annotate *a, const struct sb_attribution *t, int room)
{
	char b1[64], b2[64];
	int n = 0;
	n += fprintf(f, "  parts (each NOPed in place) %+.2f, layout (all NOPed) %s\n", t->sum_parts,
		     est(b2, sizeof(b2), &t->layout)) > 0;
	n += fprintf(f, "  interaction %s: %s\n", est(b2, sizeof(b2), &t->interaction),
		     t->parts_explain ? "its CI holds 0, the parts and layout explain the total"
				      : "its CI excludes 0, the parts and layout do not add up") > 0;
	size_t order[SB_ABLATION_MAX_PARTS];
	sb_answer_parts_by_cost(t, order);
	room -= n;
	if (room > 4)
		room = 4;
	for (size_t i = 0; i < t->n_parts && (int)i < room; i++)
		n += fprintf(f, "  %-26s %s\n", est(b1, sizeof(b1), &t->nop[order[i]]),
			     a->ab.parts[order[i]].name) > 0;
	return n;
}

int sb_annotate_summary(FILE *f, const struct sb_annotate *a, int max)
{
	if (!a->n_att || max < 5)
		return 0;
	const struct sb_attribution *t = &a->att[0];
	struct sb_attribution_state st;
	sb_attribution_state_of(t, &st);
	const char *names[SB_ABLATION_MAX_PARTS];
	part_names(a, names);
	char b1[64];
	int n = 0;
	n += fprintf(f, "%.24s vs %.24s at batch %llu: %s cycles/call, %zu placements\n", a->variant,
		     a->baseline, (unsigned long long)t->batch, est(b1, sizeof(b1), &t->total), t->n_placements) > 0;
	int room = max - n - 3 - (int)(a->n_att > 1), state = sb_answer_state_lines(f, t, &st, names, room);
	n += state ? state : additive_lines(f, a, t, room);
	if (a->n_att > 1)
		n += fprintf(f, "  %zu more batch sizes: --table\n", a->n_att - 1) > 0;
	n += fprintf(f, "  %s\n", t->reconciles ? "parts + layout + interaction reconcile with the total within their CIs"
					       : "parts + layout + interaction do NOT reconcile with the total within CIs") > 0;
	n += fprintf(f, "  %s\n", a->pmu) > 0;
	n += fprintf(f, "  %s: --table; every row: --format=json\n",
		     state ? "each part alone, one state change each" : "the listing with a cost per instruction") > 0;
	return n;
}

/* Part k is one of the state's (attribution.h). */
static int in_state(const struct sb_attribution_state *s, size_t k)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->part[i] == k)
			return 1;
	return 0;
}

/* The listing's columns: func, offset and instruction start every block
 * (text_grid.h); then part with its nop cost, removed, the state mark,
 * and the bytes last (the first to fold under the rest). */
struct listing_cols {
	int func, off, insn, part, nop, removed, state, bytes;
};

static void listing_columns(struct sb_grid *g, struct listing_cols *c)
{
	c->func = sb_grid_col(g, "func", 1, 1, -1);
	c->off = sb_grid_col(g, "offset", 1, 1, -1);
	c->insn = sb_grid_col(g, "instruction", 1, 1, -1);
	c->part = sb_grid_col(g, "part", 0, 0, 1);
	c->nop = sb_grid_col(g, "nop", 1, 0, 1);
	c->removed = sb_grid_col(g, "removed", 1, 0, -1);
	c->state = sb_grid_col(g, "", 1, 0, -1);
	c->bytes = sb_grid_col(g, "bytes", 1, 0, -1);
}

/* Row i of the listing: the instruction, and its part's costs on the part's first row. */
static void listing_row(struct sb_grid *g, const struct listing_cols *c, const struct sb_annotate *a,
			const struct sb_attribution *t, const struct sb_attribution_state *st, size_t i)
{
	const struct sb_ablation_row *r = &a->ab.rows[i];
	char bytes[64] = "", b1[64];
	for (size_t k = 0, o = 0; k < r->len && o + 4 < sizeof(bytes); k++)
		o += (size_t)snprintf(bytes + o, sizeof(bytes) - o, "%s%02x", k ? " " : "", r->bytes[k]);
	long row = sb_grid_row(g);
	sb_grid_set(g, row, c->func, "%s", a->ab.func_names[r->func]);
	sb_grid_set(g, row, c->off, "+%#05zx", r->off);
	sb_grid_set(g, row, c->insn, "%s", r->text);
	sb_grid_set(g, row, c->bytes, "%s", bytes);
	if (r->part < 0)
		return;
	sb_grid_set(g, row, c->part, "%ld", r->part + 1);
	if (a->ab.parts[r->part].rows[0] != i) {
		sb_grid_set(g, row, c->nop, "^");
		return;
	}
	sb_grid_set(g, row, c->nop, "%s", est(b1, sizeof(b1), &t->nop[r->part]));
	sb_grid_set(g, row, c->removed, "%s", est(b1, sizeof(b1), &t->removed[r->part]));
	if (in_state(st, (size_t)r->part))
		sb_grid_set(g, row, c->state, "state");
}

/* The rows under the listing: total, sum of the parts, layout, interaction. */
static void listing_totals(struct sb_grid *g, const struct listing_cols *c, const struct sb_attribution *t,
			   const struct sb_attribution_state *st)
{
	char b1[64];
	long row = sb_grid_row(g);
	sb_grid_set(g, row, c->insn, "total (variant - baseline)");
	sb_grid_set(g, row, c->nop, "%s", est(b1, sizeof(b1), &t->total));
	row = sb_grid_row(g);
	sb_grid_set(g, row, c->insn, "sum of the parts (nop)");
	sb_grid_set(g, row, c->nop, "%+.2f", t->sum_parts);
	if (st->verdict == SB_ATTRIBUTION_STATE)
		sb_grid_set(g, row, c->removed, "(not a cost: the state parts overlap)");
	row = sb_grid_row(g);
	sb_grid_set(g, row, c->insn, "layout (all parts NOPed - base)");
	sb_grid_set(g, row, c->nop, "%s", est(b1, sizeof(b1), &t->layout));
	row = sb_grid_row(g);
	sb_grid_set(g, row, c->insn, "interaction (total-parts-layout)");
	sb_grid_set(g, row, c->nop, "%s", est(b1, sizeof(b1), &t->interaction));
}

static void listing_batch(FILE *f, const struct sb_annotate *a, const struct sb_attribution *t)
{
	fprintf(f, "# %s vs %s, batch %llu, %zu blocks at %zu placements, %zu processes (%s)\n", a->variant,
		a->baseline, (unsigned long long)t->batch, t->n_blocks, t->n_placements, t->n_processes, a->source);
	fprintf(f, "# cost: cycles per call, variant - ablation, 95 %% CI; nop: the part NOPed in place,\n"
		   "# removed: the part taken out (a frame access in the baseline's form)\n");
	struct sb_attribution_state st;
	sb_attribution_state_of(t, &st);
	if (st.verdict == SB_ATTRIBUTION_STATE)
		fprintf(f, "# a state of the loop: each part marked 'state' NOPed alone costs about all of the total\n"
			   "# less layout (%+.2f): its figure is that one state change, not its own cost; they do not add\n",
			st.whole);
	struct listing_cols c;
	struct sb_grid g = {0};
	listing_columns(&g, &c);
	for (size_t i = 0; i < a->ab.n_rows; i++)
		listing_row(&g, &c, a, t, &st, i);
	listing_totals(&g, &c, t, &st);
	sb_grid_print(f, &g, SB_TABLE_MAX_COLUMNS);
	sb_grid_free(&g);
	if (!t->reconciles)
		fprintf(f, "# the parts and the interaction do not reconcile with the total within their CIs\n");
	if (a->ab.baseline_only)
		fprintf(f, "# %zu baseline instructions the variant lacks are in the total, not in a part\n",
			a->ab.baseline_only);
}

void sb_annotate_listing(FILE *f, const struct sb_annotate *a)
{
	for (size_t b = 0; b < a->n_att; b++) {
		if (b)
			fputc('\n', f);
		listing_batch(f, a, &a->att[b]);
	}
}

static void doc_rows(struct sb_doc *an, const struct sb_annotate *a)
{
	struct sb_doc *rows = sb_doc_array(an, "rows");
	for (size_t i = 0; i < a->ab.n_rows; i++) {
		const struct sb_ablation_row *r = &a->ab.rows[i];
		char bytes[48] = "";
		for (size_t k = 0; k < r->len; k++)
			snprintf(bytes + 2 * k, sizeof(bytes) - 2 * k, "%02x", r->bytes[k]);
		sb_doc_break(rows, "\n    ");
		struct sb_doc *o = sb_doc_object(rows, NULL);
		sb_doc_string(o, "func", a->ab.func_names[r->func]);
		sb_doc_uint(o, "offset", r->off);
		sb_doc_uint(o, "length", r->len);
		sb_doc_string(o, "bytes", bytes);
		sb_doc_string(o, "text", r->text);
		if (r->part >= 0)
			sb_doc_int(o, "part", r->part + 1);
		else
			sb_doc_null(o, "part");
	}
}

static void doc_batch(struct sb_doc *batches, const struct sb_annotate *a, const struct sb_attribution *t)
{
	sb_doc_break(batches, "\n    ");
	struct sb_doc *o = sb_doc_object(batches, NULL);
	sb_doc_uint(o, "batch", t->batch);
	sb_doc_uint(o, "blocks", t->n_blocks);
	sb_doc_uint(o, "placements", t->n_placements);
	sb_doc_uint(o, "processes", t->n_processes);
	sb_doc_estimate(o, "total", "cycles", &t->total);
	sb_doc_estimate(o, "layout", "cycles", &t->layout);
	sb_doc_estimate(o, "interaction", "cycles", &t->interaction);
	sb_doc_number(o, "parts_sum_cycles", t->sum_parts);
	sb_doc_string(o, "verdict", sb_attribution_verdict_name(t));
	sb_doc_bool(o, "reconciles", t->reconciles);
	sb_doc_bool(o, "parts_explain", t->parts_explain);
	struct sb_doc *parts = sb_doc_array(o, "parts");
	for (size_t k = 0; k < t->n_parts; k++) {
		sb_doc_break(parts, "\n      ");
		struct sb_doc *p = sb_doc_object(parts, NULL);
		sb_doc_uint(p, "part", k + 1);
		sb_doc_string(p, "name", a->ab.parts[k].name);
		sb_doc_string(p, "kind", sb_part_kind_name(a->ab.parts[k].kind));
		sb_doc_estimate(p, "nop", "cycles", &t->nop[k]);
		sb_doc_estimate(p, "removed", "cycles", &t->removed[k]);
	}
}

void sb_annotate_doc(struct sb_doc *doc, const struct sb_annotate *a)
{
	struct sb_doc *an = sb_doc_object(doc, "annotate");
	sb_doc_string(an, "variant", a->variant);
	sb_doc_string(an, "baseline", a->baseline);
	sb_doc_string(an, "source", a->source);
	sb_doc_string(an, "pmu", a->pmu);
	doc_rows(an, a);
	struct sb_doc *batches = sb_doc_array(an, "batches");
	for (size_t b = 0; b < a->n_att; b++)
		doc_batch(batches, a, &a->att[b]);
}

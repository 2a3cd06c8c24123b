/* annotate_report.c: what `stubbench annotate` prints: the summary, the
 * listing with a cost column per part, the JSON member; see annotate.h. */
#include "annotate.h"

#include <math.h>
#include <string.h>

#include "stubbench/answer.h"
#include "stubbench/json_writer.h"

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

static void listing_batch(FILE *f, const struct sb_annotate *a, const struct sb_attribution *t)
{
	char b1[64], b2[64];
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
	fprintf(f, "%-5s %6s  %-24s %-32s %4s %-22s %s\n", "func", "offset", "bytes", "instruction", "part", "nop",
		"removed");
	for (size_t i = 0; i < a->ab.n_rows; i++) {
		const struct sb_ablation_row *r = &a->ab.rows[i];
		char bytes[64] = "";
		for (size_t k = 0, o = 0; k < r->len && o + 4 < sizeof(bytes); k++)
			o += (size_t)snprintf(bytes + o, sizeof(bytes) - o, "%s%02x", k ? " " : "", r->bytes[k]);
		fprintf(f, "%-5s +%#05zx  %-24.24s %-32.32s", a->ab.func_names[r->func], r->off, bytes, r->text);
		if (r->part >= 0 && a->ab.parts[r->part].rows[0] == i) {
			fprintf(f, " %4ld %-22s %s", r->part + 1, est(b1, sizeof(b1), &t->nop[r->part]),
				est(b2, sizeof(b2), &t->removed[r->part]));
			if (in_state(&st, (size_t)r->part))
				fprintf(f, "%*s state", (int)(22 - strlen(b2)), "");
		} else if (r->part >= 0)
			fprintf(f, " %4ld ^", r->part + 1);
		fputc('\n', f);
	}
	fprintf(f, "%-5s %6s  %-24s %-32s %4s %-22s\n", "", "", "", "total (variant - baseline)", "", 
		est(b1, sizeof(b1), &t->total));
	fprintf(f, "%-5s %6s  %-24s %-32s %4s %+.2f%s\n", "", "", "", "sum of the parts (nop)", "", t->sum_parts,
		st.verdict == SB_ATTRIBUTION_STATE ? "  (not a cost: the state parts overlap)" : "");
	fprintf(f, "%-5s %6s  %-24s %-32s %4s %-22s\n", "", "", "", "layout (all parts NOPed - base)", "",
		est(b1, sizeof(b1), &t->layout));
	fprintf(f, "%-5s %6s  %-24s %-32s %4s %-22s\n", "", "", "", "interaction (total-parts-layout)", "",
		est(b1, sizeof(b1), &t->interaction));
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

static void json_rows(FILE *f, const struct sb_annotate *a)
{
	fputs(", \"rows\": [", f);
	for (size_t i = 0; i < a->ab.n_rows; i++) {
		const struct sb_ablation_row *r = &a->ab.rows[i];
		char bytes[48] = "";
		for (size_t k = 0; k < r->len; k++)
			snprintf(bytes + 2 * k, sizeof(bytes) - 2 * k, "%02x", r->bytes[k]);
		fprintf(f, "%s\n    {\"func\": ", i ? "," : "");
		sb_json_string(f, a->ab.func_names[r->func]);
		fprintf(f, ", \"offset\": %zu, \"length\": %zu, \"bytes\": \"%s\", \"text\": ", r->off, r->len, bytes);
		sb_json_string(f, r->text);
		if (r->part >= 0)
			fprintf(f, ", \"part\": %ld}", r->part + 1);
		else
			fputs(", \"part\": null}", f);
	}
	fputs("]", f);
}

static void json_batch(FILE *f, const struct sb_annotate *a, const struct sb_attribution *t)
{
	fprintf(f, "\n    {\"batch\": %llu, \"blocks\": %zu, \"placements\": %zu, \"processes\": %zu",
		(unsigned long long)t->batch, t->n_blocks, t->n_placements, t->n_processes);
	sb_json_estimate_member(f, "total", "cycles", &t->total);
	sb_json_estimate_member(f, "layout", "cycles", &t->layout);
	sb_json_estimate_member(f, "interaction", "cycles", &t->interaction);
	fputs(", \"parts_sum_cycles\": ", f);
	sb_json_number(f, t->sum_parts);
	fprintf(f, ", \"verdict\": \"%s\"", sb_attribution_verdict_name(t));
	fprintf(f, ", \"reconciles\": %s, \"parts_explain\": %s, \"parts\": [", t->reconciles ? "true" : "false",
		t->parts_explain ? "true" : "false");
	for (size_t k = 0; k < t->n_parts; k++) {
		fprintf(f, "%s\n      {\"part\": %zu, \"name\": ", k ? "," : "", k + 1);
		sb_json_string(f, a->ab.parts[k].name);
		fputs(", \"kind\": ", f);
		sb_json_string(f, sb_part_kind_name(a->ab.parts[k].kind));
		sb_json_estimate_member(f, "nop", "cycles", &t->nop[k]);
		sb_json_estimate_member(f, "removed", "cycles", &t->removed[k]);
		fputs("}", f);
	}
	fputs("]}", f);
}

void sb_annotate_json(FILE *f, const struct sb_annotate *a)
{
	fputs(",\n  \"annotate\": {\"variant\": ", f);
	sb_json_string(f, a->variant);
	fputs(", \"baseline\": ", f);
	sb_json_string(f, a->baseline);
	fputs(", \"source\": ", f);
	sb_json_string(f, a->source);
	fputs(", \"pmu\": ", f);
	sb_json_string(f, a->pmu);
	json_rows(f, a);
	fputs(", \"batches\": [", f);
	for (size_t b = 0; b < a->n_att; b++) {
		if (b)
			fputc(',', f);
		json_batch(f, a, &a->att[b]);
	}
	fputs("]}", f);
}

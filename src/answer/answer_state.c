/* answer_state.c: the summary's lines for an attribution whose cost is a
 * state of the loop (attribution.h, SB_ATTRIBUTION_STATE), which annotate's
 * summary and diff's print alike; see answer.h. */
#include "answer/answer.h"

#include <math.h>
#include <string.h>

#include "stats/attribution.h"

/* v in cycles, "+1.23", or "0.00" for what rounds to zero (never -0.00). */
static const char *cyc(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, fabs(v) < 0.005 ? "%.2f" : "%+.2f", fabs(v) < 0.005 ? 0.0 : v);
	return buf;
}

/* A part's name without its place: "push/pop r9 main+0x3c" -> "push/pop r9". */
static size_t short_len(const char *name)
{
	const char *sp = strrchr(name, ' ');
	return sp && strstr(sp, "+0x") ? (size_t)(sp - name) : strlen(name);
}

/* The state's parts by name within width columns: every name, or else the
 * names without their places, counted ("gs add, push/pop r9 x2"). */
static void state_names(char *buf, size_t width, const struct sb_attribution_state *s, const char *const *names)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < s->n && o < width; i++)
		o += (size_t)snprintf(buf + o, width + 1 - o, "%s%s", i ? ", " : "", names[s->part[i]]);
	if (o < width)
		return;
	o = 0;
	for (size_t i = 0; i < s->n; i++) {
		const char *a = names[s->part[i]];
		size_t la = short_len(a), seen = 0, count = 0;
		for (size_t j = 0; j < s->n; j++) {
			const char *b = names[s->part[j]];
			int same = short_len(b) == la && strncmp(a, b, la) == 0;
			seen += same && j < i;
			count += same;
		}
		if (seen || o >= width)
			continue;
		o += (size_t)snprintf(buf + o, width + 1 - o, count > 1 ? "%s%.*s x%zu" : "%s%.*s", o ? ", " : "",
				      (int)la, a, count);
	}
	if (o >= width)
		memcpy(buf + width - 3, "...", 4);
}

int sb_answer_state_lines(FILE *f, const struct sb_attribution *t, const struct sb_attribution_state *s,
			  const char *const *names, int room)
{
	char a[64], b[64], c[64], d[64];
	char who[SB_ANSWER_MAX_COLUMNS + 1];
	if (room < 4 || s->verdict != SB_ATTRIBUTION_STATE)
		return 0;
	fprintf(f, "  the cost is a state of the loop, not a sum of parts: NOPing any one of these %zu parts alone\n",
		s->n);
	fprintf(f, "  costs about all of it (%s, total less layout): %s to %s each; they sum %s\n",
		cyc(a, sizeof(a), s->whole), cyc(b, sizeof(b), s->lo), cyc(c, sizeof(c), s->hi),
		cyc(d, sizeof(d), t->sum_parts));
	state_names(who, SB_ANSWER_MAX_COLUMNS - strlen("  those parts: "), s, names);
	fprintf(f, "  those parts: %s\n", who);
	sb_answer_estimate(a, sizeof(a), &t->interaction, 1);
	sb_answer_estimate(b, sizeof(b), &t->layout, 1);
	fprintf(f, "  interaction %s, layout (every part NOPed) %s\n", a, b);
	if (room < 5 || t->n_parts == s->n)
		return 4;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0, i = 0; k < t->n_parts; k++) {
		if (i < s->n && s->part[i] == k) {
			i++;
			continue;
		}
		lo = fmin(lo, t->nop[k].value), hi = fmax(hi, t->nop[k].value);
	}
	fprintf(f, "  the %zu other part%s, each NOPed alone: %s to %s cycles (--table)\n", t->n_parts - s->n,
		t->n_parts - s->n == 1 ? "" : "s", cyc(a, sizeof(a), lo), cyc(b, sizeof(b), hi));
	return 5;
}

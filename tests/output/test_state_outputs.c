/* test_state_outputs.c: a run's core states (sb_output_meta.core_states,
 * state_figures.h) in the table, CSV and JSON. Two states seen (the
 * states and block counts of the Xeon fixtures' run 5, its figures made
 * up): the table's header line names both and rows per state follow
 * (within 100 columns), CSV's core_state column reads "all" on the pooled
 * rows and a row per state follows with its codegen, JSON's results carry
 * "core_state": "all". One state: named once in the table's header, no
 * rows per state, CSV's column names it. Not classified: nothing. Exact:
 * no timing. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness/harness.h"
#include "output/output.h"
#include "output/reporter.h"
#include "saved/state_figures.h"

static struct sb_arm arms[2] = {
	{.name = "baseline", .seed_name = "no-private-stack", .is_baseline = 1},
	{.name = "private", .seed_name = "private-stack"},
};

static void results(struct sb_results *r, struct sb_cell cells[2])
{
	memset(r, 0, sizeof(*r));
	memset(cells, 0, 2 * sizeof(*cells));
	for (int a = 0; a < 2; a++) {
		struct sb_cell *c = &cells[a];
		c->arm = &arms[a];
		c->batch = 4096;
		c->n_samples = 100;
		c->cycles = (struct sb_summary){.n = 100, .mean = 20 + a, .median = 20 + a, .ci_lo = 19 + a,
						.ci_hi = 21 + a, .sd = 1};
		c->ns = c->cycles;
		c->delta_pct = c->matched_cycles = c->layout_cycles = c->codegen_median = c->vs_reference_cycles =
			c->delta_cycles = c->next_run_delta = c->next_run_cycles = c->next_run_codegen =
				sb_estimate_absent("the baseline itself");
	}
	r->cells = cells;
	r->n_cells = 2;
	r->n_batches = 1;
	snprintf(r->cpu_desc, sizeof(r->cpu_desc), "made-up CPU");
}

static char *output(const struct sb_results *r, const char *format, const struct sb_state_figures *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_output_meta meta = {.tool = "stubbench", .version = "test", .seed = 1, .core_states = s};
	sb_output_write(f, sb_reporter_for(format), r, &meta);
	fclose(f);
	return text;
}

/* Lines of text starting with prefix. */
static size_t lines_with(const char *text, const char *prefix)
{
	size_t n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += strncmp(l, prefix, strlen(prefix)) == 0;
	return n;
}

int main(void)
{
	struct sb_results r;
	struct sb_cell cells[2];
	results(&r, cells);
	struct sb_state_figure f[2] = {
		{.variant = "private", .baseline = "baseline", .batch = 4096, .state = SB_CORE_QUIET, .blocks = 146},
		{.variant = "private", .baseline = "baseline", .batch = 4096, .state = SB_CORE_BUSY, .blocks = 1671},
	};
	f[0].codegen = sb_estimate_of(-3.0, -3.1, -2.9);
	f[1].codegen = sb_estimate_of(3.16, 2.9, 3.3);
	f[0].vs_base = f[1].vs_base = f[0].total = f[1].total = sb_estimate_absent("made up");
	struct sb_state_figures two = {.split = {.basis = "record", .quiet_level = 4.6, .threshold = 4.14,
						 .n = {0, 146, 1671}, .median = {0, 4.60, 3.26}},
				       .n_blocks = 1817, .f = f, .n = 2};

	char *t = output(&r, "table", &two);
	CHECK(strstr(t, "# core states: quiet 146 blocks (canary 4.60), busy 1671 (3.26); the rows pool them"),
	      "two states: the table's header line:\n%s", t);
	CHECK(lines_with(t, "private            4096 busy      1671    +3.16    [+2.90, +3.30]") == 1 &&
		      lines_with(t, "private            4096 quiet      146    -3.00    [-3.10, -2.90]") == 1,
	      "two states: the rows per state:\n%s", t);
	for (const char *l = strstr(t, "# per core state"); l && *l; l = strchr(l, '\n') + 1) {
		CHECK(strcspn(l, "\n") <= 100, "a row per state over 100 columns: %.*s", (int)strcspn(l, "\n"), l);
		if (!strchr(l, '\n'))
			break;
	}
	free(t);
	char *c = output(&r, "csv", &two);
	CHECK(strstr(c, ",machine,core_state\n") && lines_with(c, "baseline,no-private-stack,4096,") == 1 &&
		      strstr(c, "\"made-up CPU\",all\n"),
	      "two states: CSV's column:\n%s", c);
	CHECK(lines_with(c, "private,,4096,") == 2 && strstr(c, ",-3.0000,-3.1000,-2.9000,") &&
		      strstr(c, "\"made-up CPU\",busy\n"),
	      "two states: CSV's rows per state:\n%s", c);
	/* Every row has the header's fields, the run's columns filled (a
	 * reader takes tsc_hz from any row). */
	size_t fields = 0;
	for (const char *p = c; *p && *p != '\n'; p++)
		fields += *p == ',';
	for (const char *l = strchr(c, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		size_t n = 0;
		for (const char *p = l + 1; *p && *p != '\n'; p++)
			n += *p == ',';
		CHECK(n == fields && strstr(l + 1, "\"made-up CPU\"") < strchr(l + 1, '\n'),
		      "two states: a CSV row of %zu fields, the header %zu, or without the run's columns: %.*s", n + 1,
		      fields + 1, (int)strcspn(l + 1, "\n"), l + 1);
	}
	free(c);
	char *j = output(&r, "json", &two);
	CHECK(j && strstr(j, "\"core_state\": \"all\""), "two states: JSON's results:\n%.400s", j);
	free(j);

	/* One state: run 1's quiet blocks alone. */
	struct sb_state_figures one = two;
	one.split.n[SB_CORE_BUSY] = 0;
	one.split.n[SB_CORE_QUIET] = 2456;
	one.n_blocks = 2456;
	one.n = 1;
	t = output(&r, "table", &one);
	CHECK(strstr(t, "# core state: quiet, every row (2456 blocks by the add canary)") && !strstr(t, "per core state"),
	      "one state: the table:\n%s", t);
	free(t);
	c = output(&r, "csv", &one);
	CHECK(strstr(c, "\"made-up CPU\",quiet\n") && !lines_with(c, "private,,"), "one state: CSV:\n%s", c);
	free(c);

	/* Not classified: no state anywhere, an empty column. */
	t = output(&r, "table", NULL);
	c = output(&r, "csv", NULL);
	j = output(&r, "json", NULL);
	CHECK(!strstr(t, "core state") && strstr(c, "\"made-up CPU\",\n") && !strstr(j, "core_state"),
	      "not classified: a state said:\n%s\n%s", t, c);
	free(t);
	free(c);
	free(j);
	return check_report("state_outputs");
}

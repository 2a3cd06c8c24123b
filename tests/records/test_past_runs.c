/* The record of past runs' figures (past_runs.h) on made-up files: a cell's
 * next-run range is its CI with each side grown in quadrature by t95(n - 1)
 * x the sd of its newest SB_PAST_RUNS_RECENT past figures, only from lines
 * of its machine, measurement, variant and batch size, and only from
 * SB_PAST_RUNS_MIN runs on; no CI ever changes with the record; '-' figures
 * count for nothing; a malformed line is named and sets no range; a
 * missing file is an empty record; adding writes one line per cell with
 * samples; the footer sentence says what the CIs and ranges hold; the key
 * holds the resolved CPU and the build; a run in the quiet or the busy
 * core state draws on the record's runs in its state alone, any other on
 * all (older lines without a state too). Exact: no timing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stubbench/config.h"
#include "stats/core_states.h"
#include "harness/harness.h"
#include "output/output.h"
#include "records/past_runs.h"
#include "stubbench/results.h"
#include "stubbench/stats.h"

static char dir[] = "/tmp/past_runs_XXXXXX";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9 * (1 + fabs(b));
}

/* Two cells at batch 64: the baseline (cycles only) and private (cycles,
 * delta, matched), their CIs as a run would give them. */
static const struct sb_arm arm_base = {.name = "baseline"}, arm_priv = {.name = "private"};
static void two_cells(struct sb_results *r, struct sb_cell c[2])
{
	memset(r, 0, sizeof(*r));
	memset(c, 0, 2 * sizeof(*c));
	c[0].arm = &arm_base, c[1].arm = &arm_priv;
	for (int i = 0; i < 2; i++) {
		c[i].batch = 64;
		c[i].n_samples = 100;
		c[i].cycles.mean = 12 + i;
		c[i].cycles.ci_lo = 11.9 + i;
		c[i].cycles.ci_hi = 12.2 + i;
		c[i].ns.mean = 3 + i;
		c[i].ns.ci_lo = 2.95 + i;
		c[i].ns.ci_hi = 3.1 + i;
	}
	c[1].delta_pct = sb_estimate_of(1, 0.5, 1.25);
	c[1].matched_cycles = sb_estimate_of(0.15, 0.14, 0.17);
	r->cells = c;
	r->n_cells = 2;
	r->n_batches = 1;
}

/* The sentence for r, in buf. */
static const char *scope(const struct sb_results *r, char *buf, size_t len)
{
	sb_output_past_runs_scope(buf, len, r);
	return buf;
}

int main(void)
{
	char path[256], err[1024], buf[2048];
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}

	/* The widening itself. */
	double lo = 0.5, hi = 1.25;
	const double four[] = {0, 10, 0, 10}, five[] = {0, 10, 0, 10, 0};
	CHECK(sb_past_runs_widen_ci(1, &lo, &hi, four, 4) == 0 && lo == 0.5 && hi == 1.25,
	      "four past runs widened to [%g, %g]", lo, hi);
	double w = sb_t95(4) * sqrt(30.0); /* five: mean 4, variance 120 / 4 */
	CHECK(sb_past_runs_widen_ci(1, &lo, &hi, five, 5) == 1 && near(lo, 1 - hypot(0.5, w)) &&
		      near(hi, 1 + hypot(0.25, w)),
	      "five past runs: [%g, %g], want [%g, %g]", lo, hi, 1 - hypot(0.5, w), 1 + hypot(0.25, w));
	const double same[] = {3, 3, 3, 3, 3, 3};
	lo = 0.5, hi = 1.25;
	CHECK(sb_past_runs_widen_ci(1, &lo, &hi, same, 6) == 1 && near(lo, 0.5) && near(hi, 1.25),
	      "runs that did not scatter widened to [%g, %g]", lo, hi);

	/* A record: five runs of private@64 on machine M, measurement X; other
	 * machines, measurements, variants and batch sizes must not count, nor
	 * the baseline's four. */
	struct sb_results r;
	struct sb_cell c[2];
	struct sb_results *one[] = {&r};
	two_cells(&r, c);
	snprintf(path, sizeof(path), "%s/past-runs", dir);
	CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, one, 1, err, sizeof(err)) == 0 && c[1].past_runs == 0 &&
		      !sb_estimate_known(&c[1].next_run_delta) && c[0].past_held == 0,
	      "a missing file gave a range (%zu runs): %s", c[1].past_runs, err);
	const char *lines = "# a comment\n"
			    "M\td1\tX\tprivate\t64\t13.0\t0\t0.1\n"
			    "M\td2\tX\tprivate\t64\t13.1\t10\t0.3\n"
			    "M\td2\tX\tbaseline\t64\t12.0\t-\t-\n"
			    "M\td3\tX\tprivate\t64\t13.0\t0\t0.1\n"
			    "M\td3\tX\tbaseline\t64\t12.1\t-\t-\n"
			    "Other\td3\tX\tprivate\t64\t99\t500\t9\n"
			    "M\td3\tY\tprivate\t64\t99\t500\t9\n"
			    "M\td3\tX\tprivate\t512\t99\t500\t9\n"
			    "M\td3\tX\thybrid\t64\t99\t500\t9\n"
			    "M\td4\tX\tprivate\t64\t13.1\t10\t0.3\n"
			    "M\td4\tX\tbaseline\t64\t12.0\t-\t-\n"
			    "M\td5\tX\tprivate\t64\t13.0\t0\t-\n"
			    "M\td5\tX\tbaseline\t64\t12.1\t-\t-\n";
	write_text(path, lines);
	CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, one, 1, err, sizeof(err)) == 0, "read: %s", err);
	CHECK(c[1].past_runs == 5 && c[1].past_held == 5, "private: a range from %zu of %zu runs", c[1].past_runs,
	      c[1].past_held);
	const struct sb_estimate *nd = &c[1].next_run_delta, *nc = &c[1].next_run_cycles;
	CHECK(near(nd->lo, 1 - hypot(0.5, w)) && near(nd->hi, 1 + hypot(0.25, w)) && nd->value == 1,
	      "private delta's next run [%g, %g]", nd->lo, nd->hi);
	double wc = sb_t95(4) * sqrt(0.012 / 4); /* 13.0 13.1 13.0 13.1 13.0 */
	CHECK(near(nc->lo, 13 - hypot(0.1, wc)) && near(nc->hi, 13 + hypot(0.2, wc)),
	      "private cycles' next run [%g, %g]", nc->lo, nc->hi);
	/* No CI changed. */
	CHECK(c[1].delta_pct.lo == 0.5 && c[1].delta_pct.hi == 1.25 && c[1].cycles.ci_lo == 12.9 &&
		      c[1].cycles.ci_hi == 13.2 && c[1].ns.ci_lo == 3.95 && c[1].ns.ci_hi == 4.1 &&
		      c[1].matched_cycles.lo == 0.14 && c[1].matched_cycles.hi == 0.17,
	      "a CI changed with the record: delta [%g, %g], cycles [%g, %g]", c[1].delta_pct.lo, c[1].delta_pct.hi,
	      c[1].cycles.ci_lo, c[1].cycles.ci_hi);
	CHECK(c[0].past_runs == 0 && c[0].past_held == 4 && !sb_estimate_known(&c[0].next_run_cycles) &&
		      c[0].next_run_cycles.absent && strstr(c[0].next_run_cycles.absent, "fewer than 5"),
	      "baseline, four runs: a range from %zu", c[0].past_runs);
	CHECK(strstr(scope(&r, buf, sizeof(buf)), "'next run' (1 of 2 cells)") &&
		      strstr(buf, "the CIs hold what varies within this run"),
	      "one cell of two with a range: '%s'", buf);

	/* Only the newest SB_PAST_RUNS_RECENT count: five wild old runs, then
	 * twenty that alternate 0 and 10. */
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 5; i++)
		fprintf(f, "M\told\tX\tprivate\t64\t13\t1000\t0.1\n");
	for (int i = 0; i < SB_PAST_RUNS_RECENT; i++)
		fprintf(f, "M\tnew\tX\tprivate\t64\t13\t%d\t0.1\n", i % 2 ? 10 : 0);
	fclose(f);
	two_cells(&r, c);
	CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, one, 1, err, sizeof(err)) == 0, "read: %s", err);
	double w20 = sb_t95(SB_PAST_RUNS_RECENT - 1) * sqrt(25.0 * SB_PAST_RUNS_RECENT / (SB_PAST_RUNS_RECENT - 1));
	CHECK(c[1].past_runs == SB_PAST_RUNS_RECENT && c[1].past_held == 25 &&
		      near(c[1].next_run_delta.lo, 1 - hypot(0.5, w20)),
	      "the newest %d: %zu runs, delta's range from %g (want %g)", SB_PAST_RUNS_RECENT, c[1].past_runs,
	      c[1].next_run_delta.lo, 1 - hypot(0.5, w20));

	/* Two results from one read: the second's private@64 alike, its
	 * private@512 (none in the record) not. */
	struct sb_results r2;
	struct sb_cell c2[2];
	two_cells(&r, c);
	two_cells(&r2, c2);
	c2[0].batch = 512;
	CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, (struct sb_results *[]){&r, &r2}, 2, err, sizeof(err)) == 0 &&
		      c[1].past_runs == SB_PAST_RUNS_RECENT && c2[1].past_runs == SB_PAST_RUNS_RECENT &&
		      near(c2[1].next_run_delta.lo, c[1].next_run_delta.lo) && c2[0].past_held == 0 &&
		      !sb_estimate_known(&c2[0].next_run_cycles),
	      "two results: %zu and %zu runs, the 512 cell %zu", c[1].past_runs, c2[1].past_runs, c2[0].past_held);

	/* Malformed lines are named, and no range is set. */
	const char *bad[] = {"M\td\tX\tprivate\t64\t13\t0\n",          /* seven fields */
			     "M\td\tX\tprivate\t64\t13\tabc\t0.1\n",      /* not a number */
			     "M\td\tX\tprivate\t-64\t13\t0\t0.1\n",       /* batch */
			     "M\td\tX\tprivate\t64\t13\t0\t0.1\textra\n", /* nine fields */
			     "M\t\tX\tprivate\t64\t13\t0\t0.1\n",         /* empty date */
			     "M\td\tX\tprivate\t64\tnan\t0\t0.1\n",       /* not finite */
			     "M\td\tX\tprivate\t64\t1e200\t0\t0.1\n",     /* cycles past 1e9 */
			     "M\td\tX\tprivate\t64\t13\t1e300\t0.1\n",    /* delta past 1e6 % */
			     "M\td\tX\tprivate\t0\t13\t0\t0.1\n"};        /* batch 0 */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text), "# c\n%s", bad[i]);
		write_text(path, text);
		two_cells(&r, c);
		err[0] = '\0';
		CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, one, 1, err, sizeof(err)) == -1 && strstr(err, path) &&
			      strstr(err, "line 2") && !sb_estimate_known(&c[1].next_run_delta) && c[1].past_runs == 0,
		      "bad line %zu: err '%s'", i, err);
	}
	CHECK(sb_past_runs_next_ranges(dir, "M", "X", NULL, one, 1, err, sizeof(err)) == -1 && strstr(err, dir),
	      "a directory: err '%s'", err);

	/* Adding: one line per cell with samples, '-' for what a cell lacks; the
	 * file and its directories are made; then five runs make ranges. */
	snprintf(path, sizeof(path), "%s/state/stubbench/past-runs", dir);
	two_cells(&r, c);
	for (int run = 0; run < 5; run++) {
		c[1].delta_pct.value = run % 2 ? 10 : 0;
		CHECK(sb_past_runs_add(path, "M", "X", NULL, "2026-12-02T00:00:00Z", &r, err, sizeof(err)) == 0, "add: %s",
		      err);
	}
	f = fopen(path, "r");
	char line[512];
	size_t n = 0, dashes = 0, headers = 0;
	while (f && fgets(line, sizeof(line), f)) {
		headers += line[0] == '#';
		n += line[0] != '#';
		dashes += strstr(line, "baseline\t64\t12\t-\t-\n") != NULL;
	}
	if (f)
		fclose(f);
	CHECK(n == 10 && headers == 1 && dashes == 5, "%zu lines, %zu headers, %zu baseline lines with '-'", n,
	      headers, dashes);
	two_cells(&r, c);
	CHECK(sb_past_runs_next_ranges(path, "M", "X", NULL, one, 1, err, sizeof(err)) == 0 && c[1].past_runs == 5 &&
		      near(c[1].next_run_delta.lo, 1 - hypot(0.5, w)) && c[0].past_runs == 5,
	      "five added runs: %zu, delta's range from %g: %s", c[1].past_runs, c[1].next_run_delta.lo, err);
	CHECK(strstr(scope(&r, buf, sizeof(buf)), "'next run' (2 of 2 cells)") && strstr(buf, "last 5 runs"),
	      "all cells with a range: '%s'", buf);
	two_cells(&r, c);
	c[1].n_samples = 0;
	CHECK(sb_past_runs_add(path, "M", "Z", NULL, "d", &r, err, sizeof(err)) == 0, "add: %s", err);
	CHECK(sb_past_runs_next_ranges(path, "M", "Z", NULL, one, 1, err, sizeof(err)) == 0 && c[0].past_held == 1 &&
		      c[1].past_held == 0,
	      "a cell without samples was remembered: %zu", c[1].past_held);
	snprintf(path, sizeof(path), "%s/state/stubbench/past-runs/x", dir);
	CHECK(sb_past_runs_add(path, "M", "X", NULL, "d", &r, err, sizeof(err)) == -1 && strstr(err, "past-runs"),
	      "under a file: '%s'", err);

	/* Per core state: five quiet runs (deltas 0 and 10 alternating, w
	 * above), five busy ones (deltas 100 and 110, the same spread), and
	 * older lines without a state (deltas 0 and 500). A quiet run draws
	 * on the quiet runs alone, a busy one on the busy ones; an unknown
	 * run, or one of several states, on all fifteen. Adding in a state
	 * writes it after the key. */
	snprintf(path, sizeof(path), "%s/by-state", dir);
	two_cells(&r, c);
	for (int run = 0; run < 5; run++) {
		c[1].delta_pct.value = run % 2 ? 10 : 0;
		CHECK(sb_past_runs_add(path, "M", "X", "quiet", "d", &r, err, sizeof(err)) == 0, "add: %s", err);
		c[1].delta_pct.value = run % 2 ? 110 : 100;
		CHECK(sb_past_runs_add(path, "M", "X", "busy", "d", &r, err, sizeof(err)) == 0, "add: %s", err);
	}
	f = fopen(path, "a");
	for (int run = 0; f && run < 5; run++)
		fprintf(f, "M\told\tX\tprivate\t64\t13\t%d\t0.1\n", run % 2 ? 500 : 0);
	if (f)
		fclose(f);
	f = fopen(path, "r");
	size_t quiet_lines = 0;
	while (f && fgets(line, sizeof(line), f))
		quiet_lines += strstr(line, "\tX core=quiet\tprivate\t64\t") != NULL;
	if (f)
		fclose(f);
	CHECK(quiet_lines == 5, "%zu quiet lines of private, 'X core=quiet' as their measurement", quiet_lines);
	const char *states[] = {"quiet", "busy", "unknown", "all", NULL};
	for (int k = 0; k < 5; k++) {
		two_cells(&r, c);
		CHECK(sb_past_runs_next_ranges(path, "M", "X", states[k], one, 1, err, sizeof(err)) == 0, "read: %s", err);
		size_t want = k < 2 ? 5 : 15;
		/* Two states' own runs: w; all fifteen: wider than either. */
		int as_own = near(c[1].next_run_delta.lo, 1 - hypot(0.5, w));
		CHECK(c[1].past_held == want && c[1].past_runs == want && (k < 2 ? as_own : !as_own &&
		      c[1].next_run_delta.lo < 1 - hypot(0.5, w)),
		      "state %s: drew on %zu of %zu runs, range from %g", states[k] ? states[k] : "none", c[1].past_runs,
		      c[1].past_held, c[1].next_run_delta.lo);
	}
	/* A run that saw two states: besides its pooled lines ("all"), a line
	 * per state with that state's codegen as MATCHED; the unknown
	 * state's figure and a run of one state add none. Five such runs
	 * give the next quiet run a codegen range from their quiet
	 * figures alone (-3 and -2.9 alternating), and a busy one from the
	 * busy ones (+3 and +3.5). */
	snprintf(path, sizeof(path), "%s/two-states", dir);
	struct sb_state_figure sf[3] = {
		{.variant = "private", .batch = 64, .state = SB_CORE_QUIET, .blocks = 80},
		{.variant = "private", .batch = 64, .state = SB_CORE_BUSY, .blocks = 60},
		{.variant = "private", .batch = 64, .state = SB_CORE_UNKNOWN, .blocks = 40},
	};
	struct sb_state_figures two = {.n_blocks = 180, .f = sf, .n = 3};
	two.split.n[SB_CORE_QUIET] = 80, two.split.n[SB_CORE_BUSY] = 60;
	for (int run = 0; run < 5; run++) {
		sf[0].codegen = sb_estimate_of(run % 2 ? -2.9 : -3.0, -3.2, -2.7);
		sf[1].codegen = sb_estimate_of(run % 2 ? 3.5 : 3.0, 2.5, 4.0);
		sf[2].codegen = sb_estimate_of(0, -1, 1);
		CHECK(sb_past_runs_add_states(path, "M", "X", "d", &two, err, sizeof(err)) == 0, "add states: %s", err);
	}
	struct sb_state_figures one_state = two;
	one_state.split.n[SB_CORE_BUSY] = 0;
	CHECK(sb_past_runs_add_states(path, "M", "X", "d", &one_state, err, sizeof(err)) == 0, "one state: %s", err);
	f = fopen(path, "r");
	size_t by_state[2] = {0}, other = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (strstr(line, "\tX core=quiet\tprivate\t64\t-\t-\t-3\n") ||
		    strstr(line, "\tX core=quiet\tprivate\t64\t-\t-\t-2.9\n"))
			by_state[0]++;
		else if (strstr(line, "\tX core=busy\tprivate\t64\t-\t-\t3"))
			by_state[1]++;
		else
			other++;
	}
	if (f)
		fclose(f);
	CHECK(by_state[0] == 5 && by_state[1] == 5 && other == 0, "two states: %zu quiet, %zu busy, %zu other lines",
	      by_state[0], by_state[1], other);
	for (int k = 0; k < 2; k++) {
		two_cells(&r, c);
		c[1].matched_cycles = sb_estimate_of(0, -0.1, 0.1);
		CHECK(sb_past_runs_next_ranges(path, "M", "X", k ? "busy" : "quiet", one, 1, err, sizeof(err)) == 0,
		      "read: %s", err);
		/* The sample SD of the state's five figures: sqrt(0.012 / 4) quiet,
		 * sqrt(0.3 / 4) busy. */
		double sd = sqrt((k ? 0.3 : 0.012) / 4);
		CHECK(sb_estimate_known(&c[1].next_run_codegen) &&
			      near(c[1].next_run_codegen.lo, -hypot(0.1, sb_t95(4) * sd)),
		      "%s run: codegen range [%g, %g], want from %g", k ? "busy" : "quiet", c[1].next_run_codegen.lo,
		      c[1].next_run_codegen.hi, -hypot(0.1, sb_t95(4) * sd));
	}

	/* The footer says whose runs a quiet run's range drew on. */
	sb_past_runs_use(path, NULL);
	sb_past_runs_next_run(stderr, "t", "X", "quiet", one, 1); /* the state in use (this machine: no lines) */
	two_cells(&r, c);
	CHECK(sb_past_runs_next_ranges(path, "M", "X", "quiet", one, 1, err, sizeof(err)) == 0, "read: %s", err);
	CHECK(strstr(scope(&r, buf, sizeof(buf)), "5 quiet runs of the cell"), "quiet footer: '%s'", buf);
	sb_past_runs_next_run(stderr, "t", "X", NULL, one, 1);

	/* The footer without a record in use. */
	two_cells(&r, c);
	sb_past_runs_use(NULL, NULL);
	CHECK(strstr(scope(&r, buf, sizeof(buf)), "the CIs hold what varies within this run, not what moves whole "
						   "runs; no 'next run' range: no record of past runs, --past-runs=none"),
	      "none: '%s'", buf);
	sb_past_runs_use("/x/past-runs", NULL);
	c[0].past_held = 3;
	CHECK(strstr(scope(&r, buf, sizeof(buf)), "the record of past runs (/x/past-runs) holds 3 of the 5 runs"),
	      "three runs held: '%s'", buf);

	/* What is measured: the tool, its batches, time or samples, the CPU
	 * it resolved to (not the option's -1), the build, and no tab. */
	struct sb_config cfg;
	sb_config_defaults(&cfg);
	sb_past_runs_measurement(buf, sizeof(buf), "stubbench", &cfg, 1, "states=4\tx");
	CHECK(strstr(buf, "stubbench variants=all batches=1,8,64,512,2048,4096 time=8 processes=128 cpu=1 build=") &&
		      strstr(buf, "states=4 x") && !strchr(buf, '\t') && !strstr(buf, "cpu=-1"),
	      "measurement '%s'", buf);
	cfg.measure.samples = 20;
	sb_past_runs_measurement(buf, sizeof(buf), "stubbench", &cfg, 1, NULL);
	CHECK(strstr(buf, " samples=20 ") && !strstr(buf, "time="), "with samples: '%s'", buf);
	sb_past_runs_machine(buf, sizeof(buf));
	CHECK(!strchr(buf, '\t') && strchr(buf, '/') && strrchr(buf, '/')[1], "machine '%s'", buf);

	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_report("past_runs");
}

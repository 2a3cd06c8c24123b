/* The core-state rule (core_states.h) on recorded canaries: the add canary
 * of every block of three --padded sweeps on an Intel Xeon VM (family 6
 * model 0xcf; tests/data/xeon-0xcf/canaries-N.txt, the overhead rows of
 * sweep-N.blocks.csv.gz): runs 1 and 2 sat beside a quiet sibling (median
 * 4.60), run 5 mostly beside a busy one (3.28) with a few quiet blocks.
 * And made-up canaries: one broad busy cluster is one state, not two.
 * Argument: the directory of the canary files. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/core_states.h"

static size_t load(const char *dir, int run, double *v, size_t max)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/canaries-%d.txt", dir, run);
	FILE *f = fopen(path, "r");
	size_t n = 0;
	if (!f)
		return 0;
	while (n < max && fscanf(f, "%lf", &v[n]) == 1)
		n++;
	fclose(f);
	return n;
}

static void split(const double *v, size_t n, double record, struct sb_core_split *out)
{
	enum sb_core_state *st = malloc(n * sizeof(*st));
	CHECK(st && sb_core_states_split(v, n, record, st, out) == 0, "split failed");
	for (size_t i = 0; st && i < n; i++)
		CHECK(st[i] == sb_core_state_of(out, v[i]), "block %zu: the state is the rule's one comparison", i);
	free(st);
}

static void recorded(const char *dir)
{
	static double v[8192];
	struct sb_core_split s;
	for (int run = 1; run <= 2; run++) {
		size_t n = load(dir, run, v, 8192);
		CHECK(n > 2000, "run %d: %zu canaries read", run, n);
		split(v, n, 0, &s);
		CHECK(!strcmp(s.basis, "none") && s.n[SB_CORE_UNKNOWN] == n,
		      "run %d: one cluster and no record: every block unknown (basis %s)", run, s.basis);
		split(v, n, 4.60, &s);
		CHECK(s.n[SB_CORE_QUIET] == n && s.n[SB_CORE_BUSY] == 0, "run %d with the record: all quiet (%zu busy)",
		      run, s.n[SB_CORE_BUSY]);
	}
	size_t n = load(dir, 5, v, 8192);
	CHECK(n > 1500, "run 5: %zu canaries read", n);
	split(v, n, 0, &s);
	CHECK(!strcmp(s.basis, "run"), "run 5: two clusters of its own (basis %s)", s.basis);
	CHECK(s.quiet_level > 4.55 && s.quiet_level < 4.65, "run 5: its upper cluster at %.3f", s.quiet_level);
	CHECK(s.n[SB_CORE_BUSY] > 1600 && s.n[SB_CORE_QUIET] > 100 && s.n[SB_CORE_QUIET] < 200,
	      "run 5: %zu busy, %zu quiet", s.n[SB_CORE_BUSY], s.n[SB_CORE_QUIET]);
	CHECK(s.median[SB_CORE_BUSY] > 3.1 && s.median[SB_CORE_BUSY] < 3.4, "run 5: busy median %.3f",
	      s.median[SB_CORE_BUSY]);
	struct sb_core_split r;
	split(v, n, 4.60, &r);
	CHECK(!strcmp(r.basis, "record") && r.n[SB_CORE_BUSY] == s.n[SB_CORE_BUSY],
	      "run 5: the record splits it where its own clusters do (%zu, %zu busy)", r.n[SB_CORE_BUSY],
	      s.n[SB_CORE_BUSY]);
	/* Its busy blocks alone: one broad cluster, no second state. */
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i] < 4.14)
			v[m++] = v[i];
	split(v, m, 0, &s);
	CHECK(!strcmp(s.basis, "none"), "run 5's busy blocks alone: one state (basis %s)", s.basis);
	split(v, m, 4.60, &s);
	CHECK(s.n[SB_CORE_BUSY] == m, "run 5's busy blocks with the record: all busy");
}

static void made_up(void)
{
	static double v[600];
	struct sb_core_split s;
	/* Two tight clusters, 4.6 and 3.0, 300 blocks each: two states. */
	for (size_t i = 0; i < 600; i++)
		v[i] = (i % 2 ? 4.6 : 3.0) + 0.01 * (double)(i % 7);
	split(v, 600, 0, &s);
	CHECK(!strcmp(s.basis, "run") && s.n[SB_CORE_QUIET] == 300 && s.n[SB_CORE_BUSY] == 300,
	      "two clusters: %zu quiet, %zu busy", s.n[SB_CORE_QUIET], s.n[SB_CORE_BUSY]);
	/* A second cluster of under SB_CORE_MIN_BLOCKS blocks makes no state. */
	for (size_t i = 0; i < 600; i++)
		v[i] = i < SB_CORE_MIN_BLOCKS - 1 ? 3.0 : 4.6 + 0.001 * (double)(i % 9);
	split(v, 600, 0, &s);
	CHECK(!strcmp(s.basis, "none"), "a cluster of %d blocks: one state", SB_CORE_MIN_BLOCKS - 1);
	/* A canary that is no number is unknown, whatever the record. */
	v[0] = 0;
	split(v, 600, 4.6, &s);
	CHECK(s.n[SB_CORE_UNKNOWN] == 1 && s.n[SB_CORE_BUSY] == SB_CORE_MIN_BLOCKS - 2, "unknown %zu, busy %zu",
	      s.n[SB_CORE_UNKNOWN], s.n[SB_CORE_BUSY]);
	CHECK(!strcmp(sb_core_state_name(SB_CORE_BUSY), "busy") && !strcmp(sb_core_state_name(SB_CORE_STATES),
									    "unknown"), "names");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_core_states DIR\n");
		return 2;
	}
	recorded(argv[1]);
	made_up();
	return check_report("core_states");
}

/* sb_placements_in_states (placement_states.h): made-up blocks with a
 * known answer, then the recorded --padded sweep of the Intel Xeon 0xcf VM
 * (tests/data/xeon-0xcf/sweep-1 and -2, quiet runs), where the host flavour's
 * arms return through the ITS thunk and the seed flavour's with ret. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stats/placement_states.h"
#include "stats/block_table.h"

#define MAX 256

struct arm {
	double v[MAX];
	size_t pl[MAX], pr[MAX];
	size_t n;
};

static void put(struct arm *a, size_t placement, double value, size_t count)
{
	for (size_t i = 0; i < count && a->n < MAX; i++, a->n++) {
		a->v[a->n] = value + 0.01 * (double)(i % 3);
		a->pl[a->n] = placement;
		a->pr[a->n] = i % 4;
	}
}

static struct sb_arm_blocks blocks(const struct arm *a)
{
	return (struct sb_arm_blocks){.value = a->v, .placement = a->pl, .process = a->pr, .n = a->n};
}

static void made_up(void)
{
	static struct arm a, b;
	/* Placements 0-3: one state in both arms. 4: a in two (15.5 and
	 * 17.0, four blocks each). 5: b in two. 6: a stray block in a is no
	 * state. 7: too few blocks of b, not counted. */
	for (size_t p = 0; p < 4; p++)
		put(&a, p, 18.0, 8), put(&b, p, 18.0, 8);
	put(&a, 4, 15.5, 4), put(&a, 4, 17.0, 4), put(&b, 4, 16.0, 8);
	put(&a, 5, 14.0, 8), put(&b, 5, 14.5, 5), put(&b, 5, 16.0, 5);
	put(&a, 6, 12.0, 8), put(&a, 6, 19.0, 1), put(&b, 6, 12.0, 8);
	put(&a, 7, 15.5, 4), put(&a, 7, 17.0, 4), put(&b, 7, 16.0, 3);
	/* (b has 3 blocks at 7: fewer than SB_PLACEMENT_STATES_MIN_BLOCKS.) */
	struct sb_arm_blocks ba = blocks(&a), bb = blocks(&b);
	struct sb_placement_states ps;
	CHECK(sb_placements_in_states(&ba, &bb, &ps) == 0, "made up: returned -1");
	CHECK(ps.n == 7 && ps.multi == 2, "made up: %zu of %zu placements in two states, want 2 of 7", ps.multi, ps.n);
	CHECK(sb_estimate_has_ci(&ps.share_pct) && fabs(ps.share_pct.value - 200.0 / 7) < 1e-9,
	      "made up: share %.3f", ps.share_pct.value);
	/* Wilson 95 % for 2 of 7: 8.22 % to 64.11 %. */
	CHECK(fabs(ps.share_pct.lo - 8.22) < 0.01 && fabs(ps.share_pct.hi - 64.11) < 0.01,
	      "made up: Wilson interval [%.2f, %.2f]", ps.share_pct.lo, ps.share_pct.hi);
	struct sb_arm_blocks none = {0};
	CHECK(sb_placements_in_states(&ba, &none, &ps) == 0 && !sb_estimate_known(&ps.share_pct) &&
		      ps.share_pct.absent,
	      "made up: no blocks of one arm gives no figure, with a reason");
}

/* One arm of the log at batch 512 in its own group (the highest part it
 * appears in: --padded puts each arm in a group of its own after the
 * interleaved ones). */
static struct sb_arm_blocks arm_of(const struct sb_block_table *t, const char *name, struct arm *out)
{
	long ai = sb_block_table_arm(t, name);
	size_t part = 0;
	out->n = 0;
	for (size_t i = 0; ai >= 0 && i < t->n; i++)
		if (t->rows[i].arm == (size_t)ai && t->rows[i].batch == 512 && t->rows[i].part > part)
			part = t->rows[i].part;
	for (size_t i = 0; ai >= 0 && i < t->n && out->n < MAX; i++) {
		const struct sb_block_value *r = &t->rows[i];
		if (r->arm == (size_t)ai && r->batch == 512 && r->part == part) {
			out->v[out->n] = r->value, out->pl[out->n] = r->state, out->pr[out->n] = r->process;
			out->n++;
		}
	}
	return blocks(out);
}

static void recorded(const char *dir, int run)
{
	char tmp[] = "/tmp/placement-states-XXXXXX", cmd[1024], err[512];
	int fd = mkstemp(tmp);
	CHECK(fd >= 0, "mkstemp");
	if (fd < 0)
		return;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/sweep-%d.blocks.csv.gz' > '%s'", dir, run, tmp);
	struct sb_block_table t = {0};
	int ok = system(cmd) == 0 && sb_block_table_read(tmp, &t, err, sizeof(err)) == 0;
	CHECK(ok, "reading the recorded log: %s", err);
	remove(tmp);
	if (!ok)
		return;
	static struct arm hp, hpad, p, ppad;
	struct sb_arm_blocks bhp = arm_of(&t, "host-private", &hp), bhpad = arm_of(&t, "host-padded-private", &hpad),
			     bp = arm_of(&t, "private", &p), bppad = arm_of(&t, "padded-private", &ppad);
	struct sb_placement_states host, seed;
	CHECK(sb_placements_in_states(&bhp, &bhpad, &host) == 0 && sb_placements_in_states(&bp, &bppad, &seed) == 0,
	      "recorded: returned -1");
	printf("xeon 0xcf run %d, batch 512: host flavour %zu of %zu placements in two states, seed flavour %zu of %zu\n",
	       run, host.multi, host.n, seed.multi, seed.n);
	CHECK(host.n >= 12 && seed.n >= 12, "run %d: %zu and %zu placements counted, of 16", run, host.n, seed.n);
	/* The thunk's arms take two states at more placements than the
	 * seed's (plain ret), by at least a whole three. */
	CHECK(host.multi >= seed.multi + 3, "run %d: host %zu of %zu, seed %zu of %zu", run, host.multi, host.n,
	      seed.multi, seed.n);
	sb_block_table_free(&t);
}

int main(int argc, char **argv)
{
	made_up();
	for (int run = 1; argc > 1 && run <= 2; run++)
		recorded(argv[1], run);
	return check_report("placement_states");
}

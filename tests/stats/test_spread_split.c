/* The split of a figure's spread over re-rolled states (spread_split.h)
 * on made-up blocks: by hand on two states; states that differ with
 * blocks alike within each (all between); states alike with blocks that
 * scatter (nothing between); one state (nothing between, absent); no
 * state of two blocks (within absent, between all of the states' spread). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "stats/spread_split.h"
#include "stubbench/stats.h"

static double half(const struct sb_estimate *e)
{
	return e->known ? fmax(e->value - e->lo, e->hi - e->value) : NAN;
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

int main(void)
{
	struct sb_spread_split s;
	/* States {1, 3} and {5, 7}: means 2 and 6, figure 4; within 2 a block
	 * (pooled variance 2, into the figure 2 x (1/2 + 1/2) / 4 = 0.5); the
	 * means' variance over 2: 8 / 1 / 2 = 4, of which 3.5 between. */
	double x[] = {1, 3, 5, 7};
	size_t st[] = {0, 0, 1, 1};
	CHECK(sb_spread_split(x, st, 4, &s) == 0 && s.states == 2 && s.states_of_two == 2, "two states");
	double f = sb_t95(1) * sqrt(2.0);
	CHECK(near(s.between.value, 4) && near(half(&s.between), f * sqrt(3.5)), "between %g +- %g", s.between.value,
	      half(&s.between));
	CHECK(near(s.within.value, 4) && near(half(&s.within), f * sqrt(0.5)), "within %g +- %g", s.within.value,
	      half(&s.within));

	/* Loads at 2 and at 9.5 (two code lines), blocks equal within each:
	 * all between, nothing within. The state order does not matter. */
	double y[] = {2, 9.5, 2, 9.5, 9.5, 2, 9.5, 9.5};
	size_t sy[] = {0, 1, 0, 1, 2, 3, 2, 4};
	CHECK(sb_spread_split(y, sy, 8, &s) == 0 && s.states == 5 && s.states_of_two == 3, "five states");
	CHECK(half(&s.within) == 0 && half(&s.between) > 1, "between %g, within %g", half(&s.between),
	      half(&s.within));

	/* Loads alike, blocks far apart in pairs: nothing between. */
	double z[] = {10, 110, -90, 10, 110, -90, 60, -40};
	size_t sz[] = {0, 0, 0, 1, 1, 1, 2, 2};
	CHECK(sb_spread_split(z, sz, 8, &s) == 0 && half(&s.between) == 0 && half(&s.within) > 10,
	      "between %g, within %g", half(&s.between), half(&s.within));

	/* One load: nothing between it and another; its blocks' scatter. */
	CHECK(sb_spread_split(z, (size_t[]){0, 0, 0, 0, 0, 0, 0, 0}, 8, &s) == 0 && !s.between.known &&
		      s.within.known && half(&s.within) > 10,
	      "one state");

	/* One block a load: the scatter within is not known; the loads'
	 * whole spread is between. */
	CHECK(sb_spread_split(x, (size_t[]){0, 1, 2, 3}, 4, &s) == 0 && !s.within.known && s.between.known &&
		      near(half(&s.between), sb_t95(3) * sqrt(4.0 / 3) * sqrt(20.0 / 3 / 4)),
	      "one block a load: between %g", half(&s.between));
	CHECK(sb_spread_split(x, st, 0, &s) == -1 && !s.between.known && !s.within.known, "no blocks");
	return check_report("spread_split");
}

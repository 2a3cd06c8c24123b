/* Which blocks are disturbed (sb_judge_blocks), on synthetic canaries:
 * - 80 of 100 blocks with the window canary at 75 cycles, 20 at 62.9 (a
 *   busy sibling most of the time, as on the AMD Zen 5 VM): the 80 are
 *   disturbed; the level is the quiet one however few blocks sit at it,
 *   so that one run does not keep the busy blocks and the next the quiet.
 * - Every block at the busy level: none disturbed (the busy level is all
 *   there is).
 * - The add canary keeps its median fallback: 80 blocks at 3.0 adds per
 *   cycle, 20 at 3.8, none flagged by it; 40 at 3.0 and 60 at 3.8, the 40.
 * - A context switch, or a clock below 90 % of the median, flags a block.
 * - The quiet levels: the 95th and 5th percentiles. */
#include <string.h>

#include "check.h"
#include "harness/disturbed.h"

#define N 100

static struct sb_block_signs quiet(void)
{
	return (struct sb_block_signs){.canary = 5.0, .window = 62.9, .clock = 1.36, .csw = 0};
}

static long judge(const struct sb_block_signs *b, int *d)
{
	memset(d, 0xff, N * sizeof(*d));
	return sb_judge_blocks(b, N, d);
}

int main(void)
{
	struct sb_block_signs b[N];
	int d[N];
	for (int i = 0; i < N; i++) {
		b[i] = quiet();
		if (i % 5)
			b[i].window = 75.0 + 0.01 * i;
	}
	long n = judge(b, d);
	int busy_flagged = 1, quiet_kept = 1;
	for (int i = 0; i < N; i++) {
		if (i % 5 && !d[i])
			busy_flagged = 0;
		if (!(i % 5) && d[i])
			quiet_kept = 0;
	}
	CHECK(n == 80 && busy_flagged && quiet_kept, "window 80 %% busy: %ld flagged, busy all flagged %d, quiet kept %d",
	      n, busy_flagged, quiet_kept);

	for (int i = 0; i < N; i++)
		b[i].window = 75.0 + 0.01 * i;
	n = judge(b, d);
	CHECK(n == 0, "every block at the busy window level: %ld flagged", n);

	for (int i = 0; i < N; i++) {
		b[i] = quiet();
		b[i].canary = i % 5 ? 3.0 : 3.8;
	}
	n = judge(b, d);
	CHECK(n == 0, "add canary 80 %% at 3.0: %ld flagged (the median is the level)", n);
	for (int i = 0; i < N; i++)
		b[i].canary = i < 40 ? 3.0 : 3.8;
	n = judge(b, d);
	CHECK(n == 40 && d[0] && !d[40], "add canary 40 %% at 3.0: %ld flagged", n);

	for (int i = 0; i < N; i++)
		b[i] = quiet();
	b[7].csw = 1;
	b[9].clock = 0.89 * 1.36;
	b[11].clock = 0.91 * 1.36;
	n = judge(b, d);
	CHECK(n == 2 && d[7] && d[9] && !d[11], "context switch and slow clock: %ld flagged (7: %d, 9: %d, 11: %d)", n,
	      d[7], d[9], d[11]);

	double sorted[21];
	for (int i = 0; i <= 20; i++)
		sorted[i] = i;
	CHECK(sb_quiet_canary_level(sorted, 21) == 19.0 && sb_quiet_window_level(sorted, 21) == 1.0,
	      "quiet levels %.2f and %.2f of 0..20", sb_quiet_canary_level(sorted, 21), sb_quiet_window_level(sorted, 21));
	return check_report("test_disturbed");
}

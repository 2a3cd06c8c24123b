/* The busy-core line: said when the add canary's median fell below 90 % of
 * its quiet level or the window canary's rose above 105 % of its own, not
 * otherwise, and of a whole document when any part of it was busy
 * (sb_results_fold_canary). Exact: made-up canary levels. */
#include <stdlib.h>
#include <string.h>

#include "busy_note.h"
#include "check.h"
#include "output/output.h"
#include "stubbench/results.h"

static struct sb_cell one_cell;

static struct sb_results run(double median, double quiet)
{
	struct sb_results r;
	memset(&r, 0, sizeof(r));
	r.cells = &one_cell;
	r.n_cells = 1;
	r.canary_median = median;
	r.canary_quiet = quiet;
	r.window_median = 77.9;
	r.window_quiet = 77.8;
	return r;
}

int main(void)
{
	char buf[512];
	struct sb_results quiet = run(3.85, 3.86), busy = run(2.90, 3.85), none = run(0, 0);

	CHECK(busy_note(&quiet, NULL, buf, sizeof(buf)) == 0 && buf[0] == 0, "a quiet run said '%s'", buf);
	CHECK(busy_note(&none, NULL, buf, sizeof(buf)) == 0 && buf[0] == 0, "a run without blocks said '%s'", buf);
	CHECK(busy_note(&busy, NULL, buf, sizeof(buf)) == 1, "a busy run said nothing");
	CHECK(strncmp(buf, "stubbench: busy core: ", 22) == 0 && strstr(buf, " 2.90 ") && strstr(buf, " 3.85 ") &&
		      strchr(buf, '\n') == buf + strlen(buf) - 1,
	      "the line is '%s'", buf);
	/* 90 % of the quiet level is the edge: just above it is quiet. */
	struct sb_results edge = run(0.91 * 3.85, 3.85);
	CHECK(busy_note(&edge, NULL, buf, sizeof(buf)) == 0, "a run at 91 %% of quiet said '%s'", buf);

	/* Folded: a quiet first part, then a busy one: the whole is busy. */
	struct sb_results all = quiet;
	sb_results_fold_canary(&all, &busy);
	CHECK(all.canary_median == 2.90 && all.canary_quiet == 3.86, "folded %.2f / %.2f", all.canary_median,
	      all.canary_quiet);
	CHECK(busy_note(&all, NULL, buf, sizeof(buf)) == 1, "the folded document said nothing");
	/* A part without cells (not measured) or without blocks changes nothing. */
	struct sb_results empty = run(1.0, 4.0);
	empty.n_cells = 0;
	all = quiet;
	sb_results_fold_canary(&all, &empty);
	sb_results_fold_canary(&all, &none);
	CHECK(all.canary_median == 3.85 && all.canary_quiet == 3.86, "folded %.2f / %.2f", all.canary_median,
	      all.canary_quiet);
	/* Into an empty document: the part's levels. */
	all = none;
	sb_results_fold_canary(&all, &busy);
	CHECK(all.canary_median == 2.90 && all.canary_quiet == 3.85, "folded %.2f / %.2f", all.canary_median,
	      all.canary_quiet);

	/* The window canary: above 105 % of its quiet level is busy, whatever
	 * the add canary says; both busy, both are named. */
	struct sb_results wbusy = quiet;
	wbusy.window_median = 86.7;
	CHECK(busy_note(&wbusy, NULL, buf, sizeof(buf)) == 1 && strstr(buf, "window canary took 86.7 cycles") &&
		      strstr(buf, "against 77.8 when quiet") && !strstr(buf, "adds per cycle"),
	      "a partitioned core said '%s'", buf);
	struct sb_results wedge = quiet;
	wedge.window_median = 1.04 * 77.8;
	CHECK(busy_note(&wedge, NULL, buf, sizeof(buf)) == 0, "a window at 104 %% of quiet said '%s'", buf);
	struct sb_results both = busy;
	both.window_median = 86.7;
	CHECK(busy_note(&both, NULL, buf, sizeof(buf)) == 1 && strstr(buf, "adds per cycle") &&
		      strstr(buf, "; the window canary"),
	      "both busy said '%s'", buf);
	/* Folded: the highest window median and the lowest quiet level. */
	all = quiet;
	sb_results_fold_canary(&all, &wbusy);
	CHECK(all.window_median == 86.7 && all.window_quiet == 77.8 && busy_note(&all, NULL, buf, sizeof(buf)) == 1,
	      "folded window %.1f / %.1f", all.window_median, all.window_quiet);
	/* A part without a window level (no blocks measured) changes nothing. */
	struct sb_results old = quiet;
	old.window_median = old.window_quiet = 0;
	all = wbusy;
	sb_results_fold_canary(&all, &old);
	CHECK(all.window_median == 86.7 && all.window_quiet == 77.8, "folded window %.1f / %.1f",
	      all.window_median, all.window_quiet);
	return check_report("busy_core");
}

/* test_sibling: the SMT sibling's schedule and names, no timing.
 * - sb_sibling_turn_busy: quiet never loads, busy always; both alternates
 *   block by block, even processes starting quiet and odd ones busy, so a
 *   segment of 2k blocks has k of each and block 0 falls on both states;
 * - the options' words parse, and a bad one is an error naming it;
 * - a --blocks log's sibling column reads back per row, and a log written
 *   before the column existed reads back with every row unrecorded;
 * - a bad sibling value is not a row of a blocks log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stats/block_table.h"
#include "harness/sibling.h"

static void schedule(void)
{
	for (size_t b = 0; b < 64; b++) {
		CHECK(!sb_sibling_turn_busy(SB_SIBLING_QUIET, b % 3, b), "quiet loads block %zu", b);
		CHECK(sb_sibling_turn_busy(SB_SIBLING_BUSY, b % 3, b), "busy leaves block %zu quiet", b);
	}
	for (size_t p = 0; p < 4; p++) {
		size_t busy = 0;
		CHECK(sb_sibling_turn_busy(SB_SIBLING_BOTH, p, 0) == (int)(p % 2), "process %zu's first block", p);
		for (size_t b = 0; b < 100; b++) {
			int now = sb_sibling_turn_busy(SB_SIBLING_BOTH, p, b);
			busy += (size_t)now;
			if (b)
				CHECK(now != sb_sibling_turn_busy(SB_SIBLING_BOTH, p, b - 1), "process %zu block %zu "
				      "repeats its turn", p, b);
		}
		CHECK(busy == 50, "process %zu: %zu of 100 blocks busy", p, busy);
	}
}

static void names(void)
{
	enum sb_sibling_mode m;
	enum sb_sibling_load l;
	char err[200] = "";
	CHECK(sb_sibling_parse_mode("--sibling", "both", &m, err, sizeof(err)) == 0 && m == SB_SIBLING_BOTH, "%s", err);
	CHECK(sb_sibling_parse_load("--sibling-load", "same", &l, err, sizeof(err)) == 0 && l == SB_SIBLING_LOAD_SAME,
	      "%s", err);
	CHECK(sb_sibling_parse_mode("--sibling", "Busy", &m, err, sizeof(err)) == -1 &&
		      strcmp(err, "--sibling=Busy: not one of quiet|busy|both") == 0, "%s", err);
	CHECK(sb_sibling_parse_load("--sibling-load", "", &l, err, sizeof(err)) == -1 &&
		      strcmp(err, "--sibling-load=: not one of spin|same") == 0, "%s", err);
	for (int s = SB_SIBLING_NONE; s < SB_SIBLING_STATES; s++)
		CHECK(sb_sibling_state_from_name(sb_sibling_state_name((enum sb_sibling_state)s)) == s, "state %d", s);
	CHECK(sb_sibling_state_from_name("idle") == -1, "idle is a state");
}

/* Writes text to a temporary file and reads it as a blocks log. */
static int read_log(const char *text, struct sb_block_table *t, char *err, size_t errlen)
{
	char path[] = "/tmp/test_sibling_XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -2;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	int rc = sb_block_table_read(path, t, err, errlen);
	unlink(path);
	return rc;
}

static void block_log(void)
{
	struct sb_block_table t;
	char err[300] = "";
	const char *now = "t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter,sibling\n"
			  "0.1,0,64,1,0,3,1.0,4.0,20.0,private,variant,12.5,busy\n"
			  "0.1,0,64,1,0,3,1.0,4.0,20.0,baseline,baseline,11.0,busy\n"
			  "0.2,0,64,1,1,4,1.0,4.0,20.0,private,variant,12.0,quiet\n"
			  "0.3,0,64,2,2,5,1.0,4.0,20.0,\"a,b\",variant,12.0,none\n";
	CHECK(read_log(now, &t, err, sizeof(err)) == 0, "%s", err);
	CHECK(t.n == 4, "%zu rows", t.n);
	if (t.n == 4)
		CHECK(t.rows[0].sibling == SB_SIBLING_IS_BUSY && t.rows[1].sibling == SB_SIBLING_IS_BUSY &&
			      t.rows[2].sibling == SB_SIBLING_IS_QUIET && t.rows[3].sibling == SB_SIBLING_NONE &&
			      t.rows[2].value == 12.0,
		      "siblings %d %d %d %d", t.rows[0].sibling, t.rows[1].sibling, t.rows[2].sibling, t.rows[3].sibling);
	sb_block_table_free(&t);
	const char *old = "t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter\n"
			  "0.1,0,64,1,0,3,1.0,4.0,20.0,private,variant,12.5\n";
	CHECK(read_log(old, &t, err, sizeof(err)) == 0, "%s", err);
	CHECK(t.n == 1 && t.rows[0].sibling == SB_SIBLING_UNRECORDED && t.rows[0].value == 12.5, "old log: %zu rows",
	      t.n);
	sb_block_table_free(&t);
	const char *bad = "0.1,0,64,1,0,3,1.0,4.0,20.0,private,variant,12.5,loud\n";
	CHECK(read_log(bad, &t, err, sizeof(err)) == -1 && strstr(err, ":1: not a row of a --blocks log"), "%s", err);
}

int main(void)
{
	schedule();
	names();
	block_log();
	return check_report("sibling");
}

/* test_records_policy: the session's blocks log and records
 * (session/records_policy.h). A run's log replaces its file only when the
 * run kept a block and ended neither on bad input nor interrupted; a run
 * opened inside another uses the outer one's log, which only the outer
 * close ends; a log that cannot be written and a record that is a FIFO are
 * bad input (SB_STATUS_USAGE), after which nothing is open; the records
 * are the ones the configuration names, none for "none", and without a
 * home the quiet record says why there is none. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/check.h"
#include "base/error.h"
#include "records/past_runs.h"
#include "records/quiet_record.h"
#include "session/records_policy.h"
#include "stats/blocks_log.h"

static char dir[] = "/tmp/test_records_policy.XXXXXX";

static const char *in_dir(const char *name)
{
	static char paths[8][256];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, 256, "%s/%s", dir, name);
	return p;
}

static int lines_of(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = 0;
	for (int ch; (ch = fgetc(f)) != EOF;)
		n += ch == '\n';
	fclose(f);
	return n;
}

/* One kept block of one arm, as the harness writes it. */
static void one_row(void)
{
	struct sb_block_row b = {.tsc = 1, .batch = 64};
	sb_blocks_log_row(&b, 1e9, "private", SB_BLOCK_VARIANT, 1.5);
}

static void config(struct sb_config *cfg, const char *blocks, const char *quiet, const char *past)
{
	sb_config_defaults(cfg);
	cfg->records.blocks = blocks;
	cfg->records.quiet_levels = quiet;
	cfg->records.past_runs = past;
}

/* A run that kept a block: its log replaces the file, and the records are
 * the ones named; a nested run neither opens its own log nor ends the outer. */
static void kept_and_nested(void)
{
	struct sb_config cfg, inner;
	const char *log = in_dir("blocks.csv"), *inner_log = in_dir("inner.csv"), *quiet = in_dir("quiet");
	config(&cfg, log, quiet, "none");
	config(&inner, inner_log, "none", in_dir("past"));
	CHECK(sb_session_open_records("t", &cfg) == 0, "open");
	CHECK(sb_blocks_log_active(), "the log is open");
	CHECK(sb_quiet_record_path() && strcmp(sb_quiet_record_path(), quiet) == 0, "quiet record %s",
	      sb_quiet_record_path() ? sb_quiet_record_path() : "none");
	const char *why;
	CHECK(sb_past_runs_in_use(&why) == NULL && why == NULL, "past runs: none");
	CHECK(sb_session_open_records("t", &inner) == 0, "nested open");
	CHECK(sb_past_runs_in_use(&why) == NULL, "the nested run's records are the outer's");
	one_row();
	CHECK(sb_session_close_records("t", 0) == 0, "nested close");
	CHECK(sb_blocks_log_active() && access(log, F_OK) != 0, "the nested close ended the outer log");
	CHECK(access(inner_log, F_OK) != 0, "the nested run opened a log of its own");
	CHECK(sb_session_close_records("t", 0) == 0, "close");
	CHECK(!sb_blocks_log_active(), "the log is still open");
	CHECK(lines_of(log) == 2, "%s: %d lines, want the header and one row", log, lines_of(log));
}

/* Bad input, an interrupt, or no block kept: the file keeps what it held. */
static void not_kept(void)
{
	static const int status[] = {SB_STATUS_USAGE, SB_STATUS_INTERRUPTED, SB_STATUS_OK};
	struct sb_config cfg;
	const char *log = in_dir("old.csv");
	FILE *f = fopen(log, "w");
	CHECK(f && fputs("old\n", f) >= 0 && fclose(f) == 0, "cannot write %s", log);
	config(&cfg, log, "none", "none");
	for (size_t i = 0; i < sizeof(status) / sizeof(status[0]); i++) {
		CHECK(sb_session_open_records("t", &cfg) == 0, "open for status %d", status[i]);
		if (status[i] != SB_STATUS_OK)
			one_row();
		CHECK(sb_session_close_records("t", status[i]) == status[i], "status %d changed", status[i]);
		CHECK(lines_of(log) == 1, "status %d: the log replaced the file", status[i]);
	}
}

/* A log that cannot be written, a record that is a FIFO: bad input, and
 * nothing left open. */
static void bad_input(void)
{
	struct sb_config cfg;
	config(&cfg, in_dir("missing/blocks.csv"), "none", "none");
	CHECK(sb_session_open_records("t", &cfg) == SB_STATUS_USAGE, "a log in a missing folder");
	CHECK(!sb_blocks_log_active() && sb_session_close_records("t", 0) == 0, "left open after bad input");
	const char *fifo = in_dir("fifo");
	CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
	const char *log = in_dir("fifo-run.csv");
	config(&cfg, log, "none", fifo);
	CHECK(sb_session_open_records("t", &cfg) == SB_STATUS_USAGE, "a past-runs record that is a FIFO");
	CHECK(!sb_blocks_log_active() && access(log, F_OK) != 0, "the log of a refused run is open or written");
}

/* No home for the records: the run goes on, and says why there is none. */
static void no_home(void)
{
	struct sb_config cfg;
	config(&cfg, NULL, NULL, NULL);
	unsetenv("HOME");
	unsetenv("XDG_STATE_HOME");
	CHECK(sb_session_open_records("t", &cfg) == 0, "open without a home");
	const char *why = NULL;
	CHECK(sb_quiet_record_in_use(&why) == NULL && why && strstr(why, "neither XDG_STATE_HOME nor HOME is set"),
	      "quiet record without a home: %s", why ? why : "no reason");
	CHECK(sb_past_runs_in_use(&why) == NULL && why && strstr(why, "neither XDG_STATE_HOME nor HOME is set"),
	      "past runs without a home: %s", why ? why : "no reason");
	CHECK(sb_session_close_records("t", 0) == 0, "close without a home");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	kept_and_nested();
	not_kept();
	bad_input();
	no_home();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_records_policy: %s left behind\n", dir);
	return check_report("records_policy");
}

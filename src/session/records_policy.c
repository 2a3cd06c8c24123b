/* records_policy.c: the blocks log and the records of a measuring run,
 * opened and closed by the session; see records_policy.h. */
#include "session/records_policy.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/error.h"
#include "base/safe_file.h"
#include "records/past_runs.h"
#include "records/quiet_record.h"
#include "records/record_file.h"
#include "stats/blocks_log.h"

/* How many runs have them open: the outermost opens and closes them. */
static int open_runs;

/* Where the record called name is kept: opt (--quiet-levels or
 * --past-runs), else its default place. Returns 1 with the path in buf, 0
 * for "none", -1 with no home for it, -2 with the reason in buf when the
 * default place is not this run's to write (sudo), -3 with an error in buf
 * (a path too long, a FIFO or device where the record would be). */
static int record_path(const char *opt, const char *name, char *buf, size_t len)
{
	if (opt && !strcmp(opt, "none"))
		return 0;
	int rc = 1;
	if (opt) {
		if (strlen(opt) >= len) {
			snprintf(buf, len, "'%.60s...': path longer than %zu characters", opt, len - 1);
			return -3;
		}
		snprintf(buf, len, "%s", opt);
	} else if ((rc = sb_record_file_default(name, buf, len)) != 0)
		return rc;
	struct stat st;
	if (lstat(buf, &st) == 0 && !S_ISREG(st.st_mode)) {
		char path[SB_SAFE_FILE_PATH_MAX + 1];
		snprintf(path, sizeof(path), "%s", buf);
		snprintf(buf, len, "'%.*s' is %s, not a regular file: not a record", (int)(len / 2), path,
			 sb_safe_file_kind(st.st_mode));
		return -3;
	}
	return 1;
}

/* The records the run uses: the quiet canary levels and the past runs'
 * figures, each as cfg names it or in its default place; without a home
 * for one, why there is none. Returns 0, or -1 after one line (a record
 * that is a FIFO or device). */
static int use_records(const char *tool, const struct sb_records_config *cfg)
{
	static char quiet[SB_SAFE_FILE_PATH_MAX + 1], past[SB_SAFE_FILE_PATH_MAX + 1];
	static char quiet_why[SB_SAFE_FILE_PATH_MAX + 200], past_why[SB_SAFE_FILE_PATH_MAX + 200];
	int q = record_path(cfg->quiet_levels, "quiet-levels", quiet, sizeof(quiet));
	int p = record_path(cfg->past_runs, "past-runs", past, sizeof(past));
	if (q == -3 || p == -3) {
		fprintf(stderr, "%s: %s: %s\n", tool, q == -3 ? "--quiet-levels" : "--past-runs", q == -3 ? quiet : past);
		return -1;
	}
	if (q > 0)
		sb_quiet_record_use(quiet, NULL);
	else if (q == -2) {
		snprintf(quiet_why, sizeof(quiet_why), "%s; this run is not compared with earlier ones "
			 "(--quiet-levels=FILE names a record)", quiet);
		sb_quiet_record_use(NULL, quiet_why);
	} else if (q < 0)
		sb_quiet_record_use(NULL, "neither XDG_STATE_HOME nor HOME is set, so this run is not compared "
					  "with earlier ones (--quiet-levels=FILE names a record)");
	if (p > 0)
		sb_past_runs_use(past, NULL);
	else if (p == -2) {
		snprintf(past_why, sizeof(past_why), "%s (--past-runs=FILE names one)", past);
		sb_past_runs_use(NULL, past_why);
	} else if (p < 0)
		sb_past_runs_use(NULL, "neither XDG_STATE_HOME nor HOME is set (--past-runs=FILE names one)");
	return 0;
}

int sb_session_open_records(const char *tool, const struct sb_config *cfg)
{
	if (open_runs) {
		open_runs++;
		return 0;
	}
	char err[SB_SAFE_FILE_PATH_MAX + 400];
	if (cfg->records.blocks && sb_blocks_log_open(cfg->records.blocks, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return SB_STATUS_USAGE;
	}
	if (use_records(tool, &cfg->records) != 0) {
		if (sb_blocks_log_close(0, err, sizeof(err)) != 0)
			fprintf(stderr, "%s: %s\n", tool, err);
		return SB_STATUS_USAGE;
	}
	open_runs = 1;
	return 0;
}

int sb_session_close_records(const char *tool, int rc)
{
	if (open_runs == 0 || --open_runs > 0)
		return rc;
	char err[SB_SAFE_FILE_PATH_MAX + 400];
	int keep = rc != SB_STATUS_USAGE && rc != SB_STATUS_INTERRUPTED;
	if (sb_blocks_log_close(keep, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: %s\n", tool, err);
		if (rc == 0)
			rc = 1;
	}
	return rc;
}

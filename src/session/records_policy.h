/* records_policy.h: the files a measuring run keeps beside its report,
 * opened before it measures and closed after its ending, by the session
 * alone: the blocks log (--blocks, stats/blocks_log.h) and the records the
 * ending reads and adds to, the quiet canary levels (--quiet-levels,
 * records/quiet_record.h) and the past runs' figures (--past-runs,
 * records/past_runs.h), else their default places (records/record_file.h).
 *
 * sb_command_run (command.h) opens them before it checks or measures
 * anything and closes them after the one ending (every measuring command
 * is a descriptor it drives). A run inside another
 * (opened while they are open) uses the outer run's: only the outermost
 * close ends the blocks log. */
#ifndef STUBBENCH_RECORDS_POLICY_H
#define STUBBENCH_RECORDS_POLICY_H

#include "stubbench/config.h"

/* Opens cfg->records.blocks's log and sets the records the run uses. Without a
 * home for a record (or under sudo, whose HOME is not root's) the run goes
 * on without it, and the ending says why in one line. Returns 0, or
 * SB_STATUS_USAGE after one line (tool first): the log cannot be written,
 * or a record's place is a FIFO, a device or a path too long. */
int sb_session_open_records(const char *tool, const struct sb_config *cfg);

/* Closes what sb_session_open_records opened, given the run's exit status
 * rc: the blocks log replaces its file unless rc is SB_STATUS_USAGE or
 * SB_STATUS_INTERRUPTED (or no block was kept). Returns rc, or 1 when rc
 * was 0 and the log could not be written (said in one line, tool first). */
int sb_session_close_records(const char *tool, int rc);

#endif

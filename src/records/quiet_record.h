/* quiet_record.h: this machine's quiet canary levels, remembered from run
 * to run (--quiet-levels=FILE; docs/busy-core.md).
 *
 * A run judges its blocks against its own quiet levels (disturbed.h): the
 * add canary's 95th percentile and the window canary's 5th. A run that sat
 * beside a busy SMT sibling from its start to its end has no quiet block:
 * its own levels are busy ones, and nothing inside it can tell. The record
 * keeps every run's levels, one line per run:
 *
 *   MACHINE<TAB>DATE<TAB>ADDS<TAB>WINDOW
 *
 * MACHINE: sb_quiet_record_machine(); DATE: UTC, ISO 8601; ADDS: the add
 * canary's quiet level, independent adds per core cycle (0: not measured);
 * WINDOW: the window canary's, core cycles an iteration (0: not measured).
 * Lines starting with '#' are comments. The machine's quiet level is the
 * second quietest of its last SB_QUIET_RECENT runs: one freak run does not
 * set it, and an old one ages out. */
#ifndef STUBBENCH_QUIET_RECORD_H
#define STUBBENCH_QUIET_RECORD_H

#include <stddef.h>
#include <stdio.h>

/* The runs of a machine its quiet level is taken from. */
#define SB_QUIET_RECENT 64
/* A run with fewer blocks is compared but not remembered (a --samples=1
 * test run's levels say little). */
#define SB_QUIET_MIN_BLOCKS 32
/* A record this long (lines) is cut to its newest half when a run is added. */
#define SB_QUIET_MAX_LINES 1024
/* The largest record read, in bytes (SB_QUIET_MAX_LINES lines are ~80 KB). */
#define SB_QUIET_MAX_BYTES (1u << 20)

/* What the record says of one machine. */
struct sb_quiet_reference {
	double adds;     /* the add canary's quiet level; 0: fewer than two runs measured it */
	double window;   /* the window canary's; 0: fewer than two runs measured it */
	size_t runs;     /* runs of this machine considered (at most SB_QUIET_RECENT) */
	double newest_adds; /* the newest of them's add level (0: none) */
	char since[32];  /* the date of the oldest of them */
	const char *path; /* the record it was read from */
};

/* This machine's name in the record: CPUID vendor, family, model, stepping
 * and the microcode revision (/proc/cpuinfo), e.g.
 * "AuthenticAMD/26/2/0/0x1000065", and on a hybrid part the kind of core
 * the calling thread runs on ("/core-type-0x40"). The canaries run user
 * code only, so the kernel and its mitigations are not part of it. */
void sb_quiet_record_machine(char *buf, size_t len);

/* Reads machine's reference from path into ref (a missing file is an empty
 * record: ref->runs 0) and, when lines is not NULL, how many lines the file
 * holds. Returns 0, or -1 with err naming the file and, for a malformed
 * line, its number. */
int sb_quiet_record_read(const char *path, const char *machine, struct sb_quiet_reference *ref, size_t *lines,
			 char *err, size_t errlen);

/* Appends one run's levels, creating the file (and its directories) when
 * missing; a record of SB_QUIET_MAX_LINES lines or more is first cut
 * to its newest SB_QUIET_MAX_LINES / 2 (a new file, renamed over it).
 * Returns 0, or -1 with err naming the file and why. */
int sb_quiet_record_add(const char *path, const char *machine, const char *date, double adds, double window,
			char *err, size_t errlen);

/* The record the runs of this process use: path, or NULL for none (set by
 * the session before a run, session/records_policy.h; before that, none).
 * With no path, why_none (may be NULL: none was wanted) is what the
 * busy-core report says instead, once. */
void sb_quiet_record_use(const char *path, const char *why_none);

/* The record in use (NULL: none), and in *why_none what to say instead when
 * none could be had (else NULL; said once: a second call gives NULL). */
const char *sb_quiet_record_in_use(const char **why_none);
/* The record in use (NULL: none), leaving what to say instead for the
 * busy-core report. */
const char *sb_quiet_record_path(void);

#endif

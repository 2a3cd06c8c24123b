/* verifier_log.h: the verifier's own log of a BPF program load that
 * failed, as libbpf hands it to its print callback ("prog 'NAME': -- BEGIN
 * PROG LOAD LOG --"): kept in short, so that a rejection is reported in the
 * verifier's words (its first line and its last two) instead of as the
 * errno of the load (EACCES reads "Permission denied"). */
#ifndef STUBBENCH_VERIFIER_LOG_H
#define STUBBENCH_VERIFIER_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Looks at one message of libbpf's (for its print callback); keeps the
 * log of a failed load when the message holds one. */
void sb_verifier_log_capture(const char *fmt, va_list ap);
/* Forgets the log kept (before a load). */
void sb_verifier_log_reset(void);
/* The log kept since the last reset, in short: "program 'NAME' (N lines):
 * FIRST\n  ...\n  LAST-1\n  LAST" with each line cut to 96 characters and
 * indented by two spaces. Returns 0, or -1 when no log was kept. */
int sb_verifier_log_summary(char *buf, size_t len);

#endif

/* run_text.h: text of a run's file made safe to print anywhere. */
#ifndef STUBBENCH_RUN_TEXT_H
#define STUBBENCH_RUN_TEXT_H

#include <stddef.h>

/* Text of a run's file into buf (len > 0), made safe to print anywhere:
 * whole UTF-8 characters only (never one cut at the end of buf); a byte
 * that is not part of well-formed UTF-8, a control character (C0, DEL,
 * C1: a terminal's escape sequences start with one) or a bidirectional
 * override becomes '?'. */
void sb_run_text(char *buf, size_t len, const char *s);

#endif

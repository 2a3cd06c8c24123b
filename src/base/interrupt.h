/* interrupt.h: what Ctrl-C, SIGTERM, SIGHUP, SIGQUIT and SIGXFSZ do in the programs. */
#ifndef STUBBENCH_INTERRUPT_H
#define STUBBENCH_INTERRUPT_H

/* The status of a run ended by SIGINT or SIGTERM. */
#include "base/error.h"

#define SB_EXIT_INTERRUPTED SB_STATUS_INTERRUPTED

/* SIGINT, SIGTERM, SIGHUP and SIGQUIT end the process at once with one line, "PROG:
 * interrupted", and status SB_EXIT_INTERRUPTED: no partial result is
 * printed, and nothing a measurement holds (memory, perf_event and BPF file
 * descriptors) outlives the process. A phase that must unwind first (the
 * kernel run's measurements) installs its own handlers over these.
 * SIGXFSZ (a write past ulimit -f) ends it with a line saying so and
 * status 1. Every open temporary (safe_file.h) is removed first. Call
 * once, first thing in main; prog must stay valid. */
void sb_exit_on_signals(const char *prog);
/* handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT, the signals that stop a
 * run (sigaction, no flags, nothing masked). */
void sb_on_stop_signals(void (*handler)(int));

#endif

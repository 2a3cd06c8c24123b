/* interrupt.h: what Ctrl-C and SIGTERM do in the programs. */
#ifndef STUBBENCH_INTERRUPT_H
#define STUBBENCH_INTERRUPT_H

/* The status of a run ended by SIGINT or SIGTERM. */
#define SB_EXIT_INTERRUPTED 130

/* SIGINT and SIGTERM end the process at once with one line, "PROG:
 * interrupted", and status SB_EXIT_INTERRUPTED: no partial result is
 * printed, and nothing a measurement holds (memory, perf_event and BPF file
 * descriptors) outlives the process. A phase that must unwind first (the
 * kernel run's measurements) installs its own handlers over these. Call
 * once, first thing in main; prog must stay valid. */
void sb_exit_on_signals(const char *prog);

#endif

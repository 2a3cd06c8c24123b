/* signals.h: SIGINT, SIGTERM, SIGHUP and SIGQUIT in the kernel side's long loops. */
#ifndef STUBBENCH_SIGNALS_H
#define STUBBENCH_SIGNALS_H



/* Ctrl-C: sb_kernel_install_signals() makes SIGINT/SIGTERM set a flag
 * instead of killing; long loops poll sb_kernel_interrupted() and unwind,
 * unloading everything. */
void sb_kernel_install_signals(void);
int sb_kernel_interrupted(void);

#endif

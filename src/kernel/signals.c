/* kernel_signals.c: Ctrl-C and SIGTERM set a flag; the run unwinds,
 * unloads every program and exits with SB_KERNEL_INTERRUPTED. (Nothing is
 * pinned, so even a SIGKILL leaves nothing loaded.) */
#include "stubbench/kernel.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

void sb_kernel_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int sb_kernel_interrupted(void)
{
	return interrupted != 0;
}

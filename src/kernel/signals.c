/* signals.c: Ctrl-C and SIGTERM set a flag; the run unwinds at the
 * next block, unloads every program and exits with SB_KERNEL_INTERRUPTED.
 * A phase that does not poll the flag (a long verifier load, the statistics
 * of a large batch) must not hold the exit back: the first signal also
 * arms a watchdog that ends the process 0.3 s later, and a second
 * signal ends it at once. Either way the process exits, which closes every
 * program's file descriptor: nothing is pinned, so nothing stays loaded
 * (even a SIGKILL leaves nothing loaded). */
#include "kernel/signals.h"
#include "base/interrupt.h"
#include "kernel/loader.h"
#include "base/safe_file.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t interrupted;

static const char exit_msg[] = "stubbench kernel: interrupted; every BPF program unloaded\n";

static void exit_now(int sig)
{
	(void)sig;
	sb_safe_file_remove_temps();
	(void)!write(STDERR_FILENO, exit_msg, sizeof(exit_msg) - 1);
	_exit(SB_KERNEL_INTERRUPTED);
}

static void on_signal(int sig)
{
	if (interrupted)
		exit_now(sig);
	interrupted = 1;
	struct itimerval watchdog = {.it_value = {.tv_sec = 0, .tv_usec = 300 * 1000}};
	setitimer(ITIMER_REAL, &watchdog, NULL);
}

void sb_kernel_install_signals(void)
{
	sb_on_stop_signals(on_signal);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = exit_now;
	sigaction(SIGALRM, &sa, NULL);
}

int sb_kernel_interrupted(void)
{
	return interrupted != 0;
}

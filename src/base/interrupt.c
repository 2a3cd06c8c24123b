/* interrupt.c: see interrupt.h. */
#include "base/interrupt.h"
#include "base/safe_file.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static const char *interrupt_prog = "stubbench";

static void exit_interrupted(int sig)
{
	(void)sig;
	sb_safe_file_remove_temps(); /* a half-written file never replaces a whole one */
	/* write(2) only: async-signal-safe. */
	(void)!write(STDERR_FILENO, interrupt_prog, strlen(interrupt_prog));
	(void)!write(STDERR_FILENO, ": interrupted\n", 14);
	_exit(SB_EXIT_INTERRUPTED);
}

/* SIGXFSZ: a write past the file size limit (ulimit -f); said, and the
 * temporaries removed, instead of a silent death. */
static void exit_file_too_big(int sig)
{
	(void)sig;
	sb_safe_file_remove_temps();
	static const char msg[] = ": a file outgrew the file size limit (ulimit -f); nothing written\n";
	(void)!write(STDERR_FILENO, interrupt_prog, strlen(interrupt_prog));
	(void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
	_exit(1);
}

void sb_on_stop_signals(void (*handler)(int))
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
}

void sb_exit_on_signals(const char *prog)
{
	interrupt_prog = prog;
	sb_on_stop_signals(exit_interrupted);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = exit_file_too_big;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGXFSZ, &sa, NULL);
}

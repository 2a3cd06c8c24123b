/* insn_trace.c: instructions of one stub call counted by single-stepping
 * it with ptrace; see insn_trace.h. */
#define _GNU_SOURCE
#include "variants/insn_trace.h"
#include "base/error.h"

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <string.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

static int in_ranges(uintptr_t ip, const uintptr_t *lo, const uintptr_t *hi, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ip >= lo[i] && ip < hi[i])
			return 1;
	return 0;
}

int sb_insn_trace_count(sb_stub_fn fn, const uintptr_t *lo, const uintptr_t *hi, size_t n, uint64_t max_steps,
			uint64_t *count, char *err, size_t errlen)
{
	*count = 0;
	pid_t pid = fork();
	if (pid < 0) {
		sb_set_err(err, errlen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
			_exit(126);
		raise(SIGSTOP);
		/* The call may be code read from a file: from here on only read,
		 * write, exit and sigreturn (seccomp's strict mode; anything else
		 * kills the child), so that a system call in it does nothing;
		 * with no file open (strict mode's read and write take any) and
		 * not as root. */
		if (syscall(SYS_close_range, 0u, ~0u, 0u) != 0)
			for (int fd = 0; fd < 4096; fd++)
				close(fd);
		if (getuid() == 0 && (setgroups(0, NULL) != 0 || setresgid(65534, 65534, 65534) != 0 ||
				      setresuid(65534, 65534, 65534) != 0))
			_exit(124);
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT) != 0)
			_exit(125);
		fn();
		syscall(SYS_exit, 0); /* exit_group is not among strict mode's */
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		sb_set_err(err, errlen, "ptrace: the child did not stop (ptrace refused?)");
		if (!WIFEXITED(st))
			kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return -1;
	}
	uint64_t steps = 0;
	int sig = 0;
	for (;;) {
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, (void *)(uintptr_t)sig) != 0) {
			sb_set_err(err, errlen, "ptrace single-step: %s", strerror(errno));
			break;
		}
		sig = 0;
		if (waitpid(pid, &st, 0) != pid)
			break;
		if (WIFEXITED(st))
			return WEXITSTATUS(st) == 0 ? 0 : (sb_set_err(err, errlen, "the traced child exited %d",
								       WEXITSTATUS(st)), -1);
		if (WIFSIGNALED(st)) {
			sb_set_err(err, errlen, "the traced call was killed by signal %d", WTERMSIG(st));
			return -1;
		}
		struct user_regs_struct regs;
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs) != 0) {
			sb_set_err(err, errlen, "ptrace getregs: %s", strerror(errno));
			break;
		}
		if (WSTOPSIG(st) != SIGTRAP) {
			sb_set_err(err, errlen, "the traced call got signal %d (%s) at %#llx", WSTOPSIG(st),
				   strsignal(WSTOPSIG(st)), (unsigned long long)regs.rip);
			break;
		}
		*count += in_ranges((uintptr_t)regs.rip, lo, hi, n);
		if (++steps >= max_steps) {
			sb_set_err(err, errlen, "more than %llu instructions: stopped counting",
				   (unsigned long long)max_steps);
			break;
		}
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

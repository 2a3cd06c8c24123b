/* contain.c: a measuring child that cannot do harm if code from a file
 * got past the static check (see set_run.h, docs/security-model.md).
 * After its setup and before the first measured instruction the child
 * takes no new privileges, leaves root for nobody, and installs a
 * seccomp filter that lets through only the system calls the sampler and
 * its report need; any other one traps into a handler that notes its
 * number on a page shared with the parent and ends the process. */
#define _GNU_SOURCE
#include "set_run.h"

#include <errno.h>
#include <grp.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NOBODY 65534
#define X32_SYSCALL_BIT 0x40000000u

struct sb_trap *sb_trap_map(void)
{
	void *p = mmap(NULL, sizeof(struct sb_trap), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	struct sb_trap *t = p;
	t->nr = -1;
	return t;
}

void sb_trap_unmap(struct sb_trap *t)
{
	if (t)
		munmap(t, sizeof(*t));
}

static struct sb_trap *trap_page;

/* SIGSYS from the filter: the call's number for the parent, then the
 * process ends (exit_group is allowed; nothing else is needed). */
static void on_sigsys(int sig, siginfo_t *info, void *uc)
{
	(void)uc;
	if (trap_page)
		trap_page->nr = info->si_syscall;
	syscall(SYS_exit_group, 128 + sig);
}

/* What the child may call once contained: its report (write, on out_fd or
 * stderr alone), the end (exit_group), signals' return, memory for its
 * allocations, the sampler's sleep, clock and context switches (getrusage of
 * its thread), and the SMT sibling's
 * parking (futex, sched_yield). */
static const unsigned allowed[] = {
	SYS_exit_group, SYS_rt_sigreturn, SYS_rt_sigprocmask, SYS_brk, SYS_mmap, SYS_munmap, SYS_mremap,
	SYS_madvise, SYS_nanosleep, SYS_clock_nanosleep, SYS_clock_gettime, SYS_gettimeofday, SYS_getcpu,
	SYS_sched_yield, SYS_futex, SYS_getpid, SYS_gettid, SYS_getrusage,
};
#define N_ALLOWED (sizeof(allowed) / sizeof(allowed[0]))

#define ARG0_LO offsetof(struct seccomp_data, args[0])
#define ARG0_HI (offsetof(struct seccomp_data, args[0]) + 4)

/* The filter into f (room for 16 + 2 * N_ALLOWED); returns its length. */
static unsigned short build_filter(struct sock_filter *f, int out_fd)
{
	unsigned short n = 0;
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	/* x32 system calls (the same numbers with bit 30 set) are refused. */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, X32_SYSCALL_BIT, 0, 1);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
	for (size_t i = 0; i < N_ALLOWED; i++) {
		f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allowed[i], 0, 1);
		f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	}
	/* write: only on the pipe to the parent and stderr (progress). */
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 7);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_HI);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LO);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)out_fd, 2, 0);
	f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, STDERR_FILENO, 1, 0);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP);
	return n;
}

/* Root (which the child needs no more: its pages are its own, the code is
 * in place) for nobody; the parent-death signal, which a change of
 * credentials clears, set again. */
static int drop_root(char *err, size_t errlen)
{
	if (geteuid() != 0 && getuid() != 0)
		return 0;
	if (setgroups(0, NULL) != 0 || setresgid(NOBODY, NOBODY, NOBODY) != 0 ||
	    setresuid(NOBODY, NOBODY, NOBODY) != 0) {
		sb_run_err(err, errlen, strerror(errno), "containment: dropping root");
		return -1;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	return 0;
}

int sb_contain(int out_fd, struct sb_trap *t, char *err, size_t errlen)
{
	trap_page = t;
	struct sigaction sa = {.sa_sigaction = on_sigsys, .sa_flags = SA_SIGINFO};
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSYS, &sa, NULL) != 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		sb_run_err(err, errlen, strerror(errno), "containment: no new privileges");
		return -1;
	}
	if (drop_root(err, errlen) != 0)
		return -1;
	struct sock_filter f[16 + 2 * N_ALLOWED];
	struct sock_fprog prog = {.len = build_filter(f, out_fd), .filter = f};
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		sb_run_err(err, errlen, strerror(errno), "containment: the seccomp filter");
		return -1;
	}
	return 0;
}

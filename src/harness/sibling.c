/* sibling.c: the SMT sibling's load process and its parking; see sibling.h.
 *
 * The control words live in a shared anonymous page mapped before any
 * fork: the load process, the measuring process and its fresh processes
 * all see the same words. `want` says whether the load runs; the load
 * copies it to `ack` before it parks (a futex wait on `want`) or starts its
 * next chunk of work, so a measuring thread that waits for ack == want
 * knows the sibling is in the state the block records. */
#define _GNU_SOURCE
#include "harness/pin.h"
#include "harness/sibling.h"
#include "set_run.h"

#include <errno.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <x86intrin.h>

#include "base/error.h"
#include "stubbench/timer.h"

/* See sibling.h: with both, the blocks alternate, and the process's
 * parity picks which turn comes first, so that neither state always has
 * a segment's first block (the one after the warm-up). */
int sb_sibling_turn_busy(enum sb_sibling_mode m, size_t process, size_t block)
{
	if (m == SB_SIBLING_BOTH)
		return (int)((block + process) & 1);
	return m == SB_SIBLING_BUSY;
}

#define SAME_BATCH 64           /* the same load's calls per main-prog sample */
#define SPIN_ADDS 4096          /* the spin load's chunk: adds between looks at `want` */
#define ACK_WAIT_TICKS 2000000000ull /* at most this long for the load to take a turn (~1 s) */

struct control {
	_Atomic uint32_t want; /* 1: run the load, 0: park */
	_Atomic uint32_t ack;  /* what the load last took */
};

struct sb_sibling {
	struct control *ctl;
	pid_t pid;              /* the load process, 0: none */
	int dead;               /* the load did not take a turn in time: none from then on */
	struct sb_trap *trap;   /* a contained load's trap page (sb_contain), NULL: not contained */
	struct sb_sibling_facts facts;
	struct sb_sibling_request rq;
};

static struct sb_sibling_facts run_facts;
static int have_facts;

const struct sb_sibling_facts *sb_sibling_facts(void)
{
	return have_facts ? &run_facts : NULL;
}

enum sb_sibling_state sb_sibling_unmanaged_state(void)
{
	static enum sb_sibling_state state;
	static int cpu = -1;
	int now = sched_getcpu();
	if (now != cpu) { /* looked up again only when the thread moved */
		char why[200];
		int pu;
		cpu = now;
		state = now >= 0 && sb_smt_sibling(now, &pu, why, sizeof(why)) == 0 ? SB_SIBLING_IS_QUIET
										   : SB_SIBLING_NONE;
	}
	return state;
}

static long futex(_Atomic uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)w, op, val, NULL, NULL, 0);
}

/* One chunk of the load: independent adds, or the same code measured. */
static void load_chunk(const struct sb_sibling_request *rq, size_t *turn)
{
	if (rq->load == SB_SIBLING_LOAD_SAME && rq->n_same) {
		sb_time_variant(rq->same[*turn % rq->n_same], SAME_BATCH);
		++*turn;
		return;
	}
	uint64_t a = 1, b = 2, c = 3, d = 4;
	for (int i = 0; i < SPIN_ADDS; i++) {
		__asm__ volatile("add %0, %0\n\tadd %1, %1\n\tadd %2, %2\n\tadd %3, %3"
				 : "+r"(a), "+r"(b), "+r"(c), "+r"(d));
	}
}

/* The load process: pinned to the sibling, running or parked as `want`
 * says, until it is killed or its parent ends. Contained (trap non-NULL:
 * the same load runs code read from files) before its first chunk, as
 * the measuring children are: it writes nothing, parks with futex and
 * yields, all of which the filter lets through. */
static _Noreturn void load_main(const struct sb_sibling_request *rq, struct control *ctl, int pu, pid_t parent,
				struct sb_trap *trap)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(pu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		_exit(3);
	char why[256];
	if (trap && sb_contain(STDERR_FILENO, trap, why, sizeof(why)) != 0)
		_exit(4);
	size_t turn = 0;
	for (;;) {
		uint32_t w = atomic_load(&ctl->want);
		atomic_store(&ctl->ack, w);
		if (w)
			load_chunk(rq, &turn);
		else
			futex(&ctl->want, FUTEX_WAIT, 0);
	}
}

/* Forks the load process of s; returns 0, or -1 with err. */
static int fork_load(struct sb_sibling *s, char *err, size_t errlen)
{
	s->ctl = mmap(NULL, sizeof(*s->ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->ctl == MAP_FAILED) {
		s->ctl = NULL;
		return sb_set_err(err, errlen, "--sibling: mmap failed: %s", strerror(errno)), -1;
	}
	/* The same load runs the measured code: contained where that code
	 * came from files. */
	if (s->rq.contain && s->rq.load == SB_SIBLING_LOAD_SAME && !(s->trap = sb_trap_map()))
		return sb_set_err(err, errlen, "--sibling: out of memory"), -1;
	uint32_t start = s->rq.mode == SB_SIBLING_BUSY;
	atomic_store(&s->ctl->want, start);
	atomic_store(&s->ctl->ack, 2); /* neither: the load has not started */
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		return sb_set_err(err, errlen, "--sibling: fork failed: %s", strerror(errno)), -1;
	if (pid == 0)
		load_main(&s->rq, s->ctl, s->facts.pu, parent, s->trap);
	s->pid = pid;
	s->facts.loaded = 1;
	if (sb_sibling_enter(s, (int)start) == SB_SIBLING_NONE)
		return sb_set_err(err, errlen, "--sibling: the load process on CPU %d did not start", s->facts.pu), -1;
	return 0;
}

/* facts->pu and the line to say, for rq. */
static void find_pu(const struct sb_sibling_request *rq, struct sb_sibling_facts *f, char *note, size_t notelen)
{
	const char *mode = sb_sibling_mode_name(rq->mode);
	note[0] = 0;
	if (rq->forced_pu >= 0) {
		f->pu = rq->forced_pu;
		f->forced = 1;
		snprintf(note, notelen, "--sibling=%s: CPU %d stands in for CPU %d's SMT sibling "
			 "(STUBBENCH_TEST_SIBLING_CPU: a test of the load's machinery, not a sibling)", mode, f->pu,
			 rq->cpu);
		return;
	}
	if (sb_smt_sibling(rq->cpu, &f->pu, f->why, sizeof(f->why)) == 0 || rq->mode == SB_SIBLING_QUIET)
		return;
	snprintf(note, notelen, "--sibling=%s: %s; measuring as it comes", mode, f->why);
}

int sb_sibling_start(const struct sb_sibling_request *rq, struct sb_sibling **out, char *note, size_t notelen,
		     char *err, size_t errlen)
{
	struct sb_sibling *s = calloc(1, sizeof(*s));
	*out = s;
	if (!s)
		return sb_set_err(err, errlen, "out of memory"), -1;
	s->rq = *rq;
	s->facts = (struct sb_sibling_facts){.mode = rq->mode, .load = rq->load, .cpu = rq->cpu, .pu = -1};
	find_pu(rq, &s->facts, note, notelen);
	run_facts = s->facts;
	have_facts = 1;
	if (s->facts.pu < 0 || rq->mode == SB_SIBLING_QUIET)
		return 0;
	int rc = fork_load(s, err, errlen);
	run_facts = s->facts;
	return rc;
}

enum sb_sibling_state sb_sibling_enter(struct sb_sibling *s, int busy)
{
	if (!s)
		return sb_sibling_unmanaged_state();
	if (s->facts.pu < 0)
		return SB_SIBLING_NONE;
	if (s->dead)
		return SB_SIBLING_NONE;
	if (!s->ctl)
		return SB_SIBLING_IS_QUIET;
	uint32_t w = busy != 0;
	if (atomic_exchange(&s->ctl->want, w) != w && w)
		futex(&s->ctl->want, FUTEX_WAKE, 1);
	/* Until the load took the turn: a parked load is quiet at once; a
	 * running one within a chunk. */
	uint64_t t0 = __rdtsc();
	while (atomic_load(&s->ctl->ack) != w) {
		if (__rdtsc() - t0 > ACK_WAIT_TICKS) {
			s->dead = 1;
			return SB_SIBLING_NONE;
		}
		sched_yield();
	}
	return w ? SB_SIBLING_IS_BUSY : SB_SIBLING_IS_QUIET;
}

enum sb_sibling_state sb_sibling_block(struct sb_sibling *s, size_t process, size_t block)
{
	return sb_sibling_enter(s, s ? sb_sibling_turn_busy(s->rq.mode, process, block) : 0);
}

int sb_sibling_stop(struct sb_sibling *s, char *err, size_t errlen)
{
	if (!s)
		return 0;
	int rc = 0, status = 0;
	if (s->pid > 0) {
		/* A load that ended before it was stopped: a contained one that
		 * made a forbidden call or died of a signal ends the run. */
		pid_t gone = waitpid(s->pid, &status, WNOHANG);
		if (gone == 0) {
			kill(s->pid, SIGKILL);
			while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
		long nr = s->trap ? s->trap->nr : -1;
		if (s->trap && nr >= 0) {
			sb_set_err(err, errlen, "the SMT sibling's load process made system call %ld, which its "
				   "containment forbids (docs/security-model.md); stopped", nr);
			rc = SB_RUN_CONTAINED;
		} else if (s->trap && gone == s->pid) {
			if (WIFSIGNALED(status))
				sb_set_err(err, errlen, "the SMT sibling's load process ended by signal %d (%s); "
					   "stopped", WTERMSIG(status), strsignal(WTERMSIG(status)));
			else
				sb_set_err(err, errlen, "the SMT sibling's load process ended early (status %d); "
					   "stopped", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
			rc = SB_RUN_CONTAINED;
		}
	}
	sb_trap_unmap(s->trap);
	if (s->ctl)
		munmap(s->ctl, sizeof(*s->ctl));
	free(s);
	return rc;
}

/* run_once.c: one timed run of a loaded program (loader.h,
 * sb_kernel_run_timed), by its driver:
 *   raw_tp      BPF_PROG_TEST_RUN on the CPU asked for;
 *   perf_event  the program attached to a software page-fault event of the
 *               calling thread (sample period 1, opened once per process
 *               and program, enabled only around the run), run by a write
 *               to a page that has none: the fault's path plays the part
 *               of the syscall's, and the empty driver's run removes it as
 *               it removes the syscall. The event is enabled and disabled,
 *               and the page dropped, outside the timed region. A run in
 *               which the program did not run exactly once (the kernel
 *               throttles an event past perf_event_max_sample_rate per
 *               tick) is retried after a pause of a tick, untimed. */
#include "kernel/loader.h"
#include "stubbench/timer.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* raw_tp: the test run through the harness's timed stub. */
static int run_fd = -1, run_cpu = -1, run_rc;

static int test_run_stub(void)
{
	run_rc = sb_kernel_test_run(run_fd, run_cpu);
	return 0;
}

/* perf_event: the page whose first write faults. */
static volatile char *fault_page;

static int touch_stub(void)
{
	fault_page[0] = 1;
	return 0;
}

/* The events of this process, one per program (a run of 8 loads of 6
 * batch sizes has 336): a forked process closes its parent's and opens its
 * own. */
struct event {
	int prog_fd, ev_fd;
	pid_t pid;
};
static struct event *events;
static size_t n_events, cap_events;

/* As many file descriptors as the hard limit allows: each program has
 * its event beside its own descriptors. */
static void raise_fd_limit(void)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int event_of(int prog_fd)
{
	pid_t me = getpid();
	size_t slot = n_events;
	for (size_t i = 0; i < n_events; i++) {
		if (events[i].prog_fd == prog_fd && events[i].pid == me)
			return events[i].ev_fd;
		if (events[i].pid != me && events[i].pid != 0) {
			close(events[i].ev_fd); /* inherited from the parent */
			events[i].pid = 0;
		}
		if (events[i].pid == 0 && slot == n_events)
			slot = i;
	}
	if (slot == n_events && n_events == cap_events) {
		size_t cap = cap_events ? 2 * cap_events : 64;
		struct event *e = realloc(events, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		events = e;
		cap_events = cap;
		raise_fd_limit();
	}
	struct perf_event_attr attr;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.disabled = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) != 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	events[slot].prog_fd = prog_fd;
	events[slot].ev_fd = fd;
	events[slot].pid = me;
	if (slot == n_events)
		n_events++;
	return fd;
}

static void pause_a_tick(void)
{
	struct timespec ts = {0, 2 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

/* The event's count: the faults it saw while enabled, each of which ran
 * its program once (a throttled event is stopped and counts none). */
static uint64_t event_count(int ev)
{
	uint64_t n = 0;
	return read(ev, &n, sizeof(n)) == (ssize_t)sizeof(n) ? n : UINT64_MAX;
}

static uint64_t run_perf_event(int prog_fd, uint64_t (*hits)(const void *arg), const void *arg, uint64_t *runs,
			       int *rc)
{
	if (!fault_page) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			*rc = -errno;
			return UINT64_MAX;
		}
		fault_page = p;
	}
	int ev = event_of(prog_fd);
	if (ev < 0) {
		*rc = ev;
		return UINT64_MAX;
	}
	for (int attempt = 0; attempt < 50; attempt++) {
		madvise((void *)fault_page, 4096, MADV_DONTNEED);
		uint64_t before = hits ? hits(arg) : event_count(ev);
		if (ioctl(ev, PERF_EVENT_IOC_ENABLE, 0) != 0) {
			*rc = -errno;
			return UINT64_MAX;
		}
		uint64_t t = sb_time_calls(touch_stub, 1);
		ioctl(ev, PERF_EVENT_IOC_DISABLE, 0);
		uint64_t ran = (hits ? hits(arg) : event_count(ev)) - before;
		*runs += ran;
		if (ran == 1)
			return t;
		if (ran > 1) /* the program ran more than once in the timed region: not a sample */
			continue;
		pause_a_tick(); /* throttled: the kernel restarts the event at a tick */
	}
	*rc = -EAGAIN;
	return UINT64_MAX;
}

/* A built-in object's counter, as the generic runner reads it. */
struct obj_hits {
	const struct sb_kernel_obj *o;
	uint64_t (*hits)(const struct sb_kernel_obj *o, const void *arg);
	const void *arg;
};

static uint64_t obj_hits(const void *p)
{
	const struct obj_hits *h = p;
	return h->hits(h->o, h->arg);
}

uint64_t sb_kernel_run_timed(const struct sb_kernel_obj *o, int prog_fd, int cpu,
			     uint64_t (*hits)(const struct sb_kernel_obj *o, const void *arg), const void *hits_arg,
			     uint64_t *runs, int *rc)
{
	struct obj_hits h = {o, hits, hits_arg};
	return sb_bpf_run_timed(sb_kernel_obj_driver(o), prog_fd, cpu, obj_hits, &h, runs, rc);
}

uint64_t sb_bpf_run_timed(enum sb_kernel_driver driver, int prog_fd, int cpu, uint64_t (*hits)(const void *arg),
			  const void *hits_arg, uint64_t *runs, int *rc)
{
	*rc = 0;
	if (driver == SB_DRIVER_PERF_EVENT)
		return run_perf_event(prog_fd, hits, hits_arg, runs, rc);
	run_fd = prog_fd;
	run_cpu = cpu;
	uint64_t t = sb_time_calls(test_run_stub, 1);
	if (run_rc != 0) {
		*rc = run_rc;
		return UINT64_MAX;
	}
	(*runs)++;
	return t;
}

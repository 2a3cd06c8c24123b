/* test_counters_perf: the perf_event_open path.
 *
 * Hardware events: whether this machine can count cycles is asked of the
 * kernel directly (a bare perf_event_open); without a PMU the set must say
 * "not supported" in one line and carry on with the software events. The
 * software events must open and read here: a sample that sleeps is a
 * context switch, a sample that changes its CPU affinity is a migration.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "counters/perf_counters.h"

/* errno of opening user-level cycles, 0 when it opens. */
static int kernel_cycles_errno(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static volatile uint64_t sink;

static void busy(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink += i;
}

static void sleep_1ms(void)
{
	struct timespec ts = {0, 1000000};
	nanosleep(&ts, NULL);
}

/* Moves this thread to another allowed CPU; returns 1 when it did. */
static int hop_cpu(cpu_set_t *saved)
{
	if (sched_getaffinity(0, sizeof(*saved), saved) != 0 || CPU_COUNT(saved) < 2)
		return 0;
	int here = sched_getcpu();
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (c != here && CPU_ISSET(c, saved)) {
			cpu_set_t one;
			CPU_ZERO(&one);
			CPU_SET(c, &one);
			return sched_setaffinity(0, sizeof(one), &one) == 0 && sched_getcpu() == c;
		}
	}
	return 0;
}

int main(void)
{
	char err[256] = "";
	int hw_errno = kernel_cycles_errno();

	struct sb_counter_set *s =
		sb_counters_open("cycles,instructions,task-clock,context-switches", err, sizeof(err));
	CHECK(s != NULL, "open failed: %s", err);
	if (!s)
		return check_report("counters_perf");
	CHECK(sb_counters_n_listed(s) == 4, "listed %zu", sb_counters_n_listed(s));
	const char *note = sb_counters_note(s);
	if (hw_errno) {
		printf("this machine: perf_event_open(cycles) fails with %s\n", strerror(hw_errno));
		CHECK(note != NULL, "no note although cycles cannot be opened");
		if (note) {
			printf("note: %s\n", note);
			CHECK(strchr(note, '\n') == NULL, "note is more than one line");
			CHECK(strstr(note, "counters: cycles, instructions ") != NULL,
			      "note does not name the missing events: %s", note);
			if (hw_errno == ENOENT || hw_errno == EOPNOTSUPP || hw_errno == ENODEV)
				CHECK(strstr(note, "not supported here") != NULL, "note: %s", note);
			CHECK(strstr(note, strerror(hw_errno)) != NULL, "note lacks the errno: %s", note);
			CHECK(strstr(note, "carrying on with task-clock, context-switches") != NULL,
			      "note: %s", note);
		}
		CHECK(sb_counters_n_open(s) == 2, "open %zu", sb_counters_n_open(s));
		CHECK(sb_counters_name(s, 0) && strcmp(sb_counters_name(s, 0), "task-clock") == 0,
		      "column 0 = %s", sb_counters_name(s, 0));
		CHECK(sb_counters_name(s, 1) && strcmp(sb_counters_name(s, 1), "context-switches") == 0,
		      "column 1 = %s", sb_counters_name(s, 1));
		CHECK(sb_counters_name(s, 2) == NULL, "a third column");
	} else {
		printf("this machine counts cycles\n");
		CHECK(note == NULL, "note although everything opened: %s", note);
		CHECK(sb_counters_n_open(s) == 4, "open %zu", sb_counters_n_open(s));
		CHECK(sb_counters_name(s, 0) && strcmp(sb_counters_name(s, 0), "cycles") == 0,
		      "column 0 = %s", sb_counters_name(s, 0));
	}
	CHECK(sb_counters_pfm_name(s, 0) && strstr(sb_counters_pfm_name(s, 0), "perf::") != NULL,
	      "libpfm4 name: %s", sb_counters_pfm_name(s, 0));

	/* A sample before binding: disturbances are still seen. */
	struct sb_sample_disturbance d;
	sb_counters_before_sample(s, 0, 0);
	sleep_1ms();
	sb_counters_after_sample(s, 0, 0);
	int r = sb_counters_last_sample(s, &d);
	CHECK(r == 1, "a 1 ms sleep was not a disturbance (%d)", r);
	CHECK(d.context_switches >= 1, "context switches %llu", (unsigned long long)d.context_switches);

	/* after_sample without before_sample adds nothing */
	uint64_t n0, n1, dist0;
	sb_counters_totals(s, NULL, &n0, &dist0);
	sb_counters_after_sample(s, 0, 0);
	sb_counters_totals(s, NULL, &n1, NULL);
	CHECK(n0 == 1 && n1 == 1, "samples %llu then %llu", (unsigned long long)n0,
	      (unsigned long long)n1);

	/* Two arms x two batches, like the harness. */
	struct sb_arm arms[3] = {
		{.name = "quiet", .seed_name = "quiet"},
		{.name = "sleeper", .seed_name = "sleeper"},
		{.name = "overhead", .is_overhead = 1},
	};
	const uint64_t batches[2] = {1, 1000};
	CHECK(sb_counters_bind(s, arms, 3, batches, 2, err, sizeof(err)) == 0, "bind: %s", err);
	const int rounds = 5;
	uint64_t sleeps = 0;
	for (int round = 0; round < rounds; round++) {
		for (size_t b = 0; b < 2; b++) {
			for (size_t a = 0; a < 3; a++) {
				sb_counters_before_sample(s, a, b);
				busy(batches[b]);
				if (a == 1) {
					sleep_1ms();
					sleeps++;
				}
				sb_counters_after_sample(s, a, b);
				if (a == 1) {
					r = sb_counters_last_sample(s, &d);
					CHECK(r == 1 && d.context_switches >= 1,
					      "sleeping sample: r=%d, %llu switches", r,
					      (unsigned long long)d.context_switches);
				}
			}
		}
	}

	/* A migration: the sample moves to another CPU. */
	cpu_set_t saved;
	int hopped = 0;
	sb_counters_before_sample(s, 0, 1);
	hopped = hop_cpu(&saved);
	sb_counters_after_sample(s, 0, 1);
	if (hopped) {
		r = sb_counters_last_sample(s, &d);
		CHECK(r == 1 && d.cpu_migrations >= 1, "hop: r=%d, %llu migrations", r,
		      (unsigned long long)d.cpu_migrations);
		sched_setaffinity(0, sizeof(saved), &saved);
	} else {
		printf("one CPU only: migration not tested\n");
	}

	struct sb_sample_disturbance tot;
	uint64_t n_samples, n_disturbed;
	sb_counters_totals(s, &tot, &n_samples, &n_disturbed);
	CHECK(n_samples == 1 + (uint64_t)rounds * 6 + 1, "samples %llu",
	      (unsigned long long)n_samples);
	CHECK(n_disturbed >= 1 + sleeps, "disturbed %llu < %llu", (unsigned long long)n_disturbed,
	      (unsigned long long)(1 + sleeps));
	CHECK(tot.context_switches >= 1 + sleeps, "switches %llu",
	      (unsigned long long)tot.context_switches);

	/* The columns: cells for the two measured arms, plus one for a batch
	 * nobody bound (left at 0). */
	struct sb_cell cells[5];
	memset(cells, 0, sizeof(cells));
	for (size_t a = 0; a < 2; a++)
		for (size_t b = 0; b < 2; b++) {
			cells[a * 2 + b].arm = &arms[a];
			cells[a * 2 + b].batch = batches[b];
		}
	cells[4].arm = &arms[0];
	cells[4].batch = 77;
	cells[4].counters[0] = 123;
	struct sb_results res;
	memset(&res, 0, sizeof(res));
	res.cells = cells;
	res.n_cells = 5;
	sb_counters_fill(s, &res);
	CHECK(res.n_counters == sb_counters_n_open(s), "n_counters %zu", res.n_counters);
	size_t tc = 0, cs = 0;
	for (size_t j = 0; j < res.n_counters; j++) {
		CHECK(strcmp(res.counter_names[j], sb_counters_name(s, j)) == 0, "name %zu = %s", j,
		      res.counter_names[j]);
		if (strcmp(res.counter_names[j], "task-clock") == 0)
			tc = j + 1;
		if (strcmp(res.counter_names[j], "context-switches") == 0)
			cs = j + 1;
	}
	CHECK(tc && cs, "task-clock or context-switches column missing");
	if (tc && cs) {
		for (size_t c = 0; c < 4; c++)
			CHECK(cells[c].counters[tc - 1] > 0, "cell %zu task-clock per iteration %g", c,
			      cells[c].counters[tc - 1]);
		/* sleeper at batch 1: every sample switched at least once */
		CHECK(cells[2].counters[cs - 1] >= 1.0, "sleeper/1 switches per iteration %g",
		      cells[2].counters[cs - 1]);
		/* sleeper at batch 1000: at least one per 1000 iterations */
		CHECK(cells[3].counters[cs - 1] >= 1.0 / 1000, "sleeper/1000 %g",
		      cells[3].counters[cs - 1]);
		CHECK(cells[4].counters[0] == 0, "unbound cell not cleared: %g", cells[4].counters[0]);
		/* the same figures one cell at a time */
		double v[SB_MAX_COUNTERS];
		size_t nv = sb_counters_cell(s, 1, 0, v, SB_MAX_COUNTERS);
		CHECK(nv == res.n_counters, "sb_counters_cell: %zu columns", nv);
		CHECK(nv >= cs && v[cs - 1] == cells[2].counters[cs - 1], "sb_counters_cell: %g vs %g",
		      nv >= cs ? v[cs - 1] : -1.0, cells[2].counters[cs - 1]);
		CHECK(sb_counters_cell(s, 3, 0, v, SB_MAX_COUNTERS) == 0 &&
			      sb_counters_cell(s, 0, 2, v, SB_MAX_COUNTERS) == 0,
		      "sb_counters_cell out of range");
	}
	if (!hw_errno) {
		/* with a PMU: the quiet arm at batch 1000 retires at least its
		 * loop's instructions per iteration */
		CHECK(cells[1].counters[1] >= 2.0, "instructions per iteration %g", cells[1].counters[1]);
	}
	sb_counters_close(s);

	/* An empty list opens only the disturbance events: no columns, no note. */
	s = sb_counters_open("", err, sizeof(err));
	CHECK(s != NULL, "empty list: %s", err);
	if (s) {
		CHECK(sb_counters_n_open(s) == 0 && sb_counters_note(s) == NULL, "empty list columns");
		sb_counters_before_sample(s, 0, 0);
		sleep_1ms();
		sb_counters_after_sample(s, 0, 0);
		CHECK(sb_counters_last_sample(s, &d) == 1, "empty list: sleep not seen");
		/* read around a "block" outside any sample */
		uint64_t before = sb_counters_disturbances_now(s);
		sleep_1ms();
		uint64_t after = sb_counters_disturbances_now(s);
		CHECK(after > before, "disturbances_now %llu -> %llu", (unsigned long long)before,
		      (unsigned long long)after);
		sb_counters_close(s);
	}
	return check_report("counters_perf");
}

/* Fresh processes per batch size (sb_run_opts.processes): every batch size
 * runs in exactly that many child processes, none of its blocks in this
 * one, each child running its share of every batch size in turn; what an arm asks back (ctx_size) comes back and nothing else does;
 * a child's failure, failed check or crash fails the run with a message
 * that says which. Exact: pids and counts, not timings. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness/harness.h"
#include "stubbench/timer.h"

#define MAX_PIDS 64

/* The pids that ran an arm's samples, each once, in the order seen. */
struct seen {
	pid_t pids[MAX_PIDS];
	uint64_t batch_of[MAX_PIDS]; /* the batch size each pid ran first */
	uint64_t last_of[MAX_PIDS];  /* and last */
	size_t n;
	unsigned long long samples;
	int fail_in_child;  /* 1: a child's samples fail */
	int crash_in_child; /* 1: a child aborts */
};

static pid_t parent;

static uint64_t sample(void *ctx, uint64_t batch)
{
	struct seen *s = ctx;
	pid_t me = getpid();
	if (me != parent && s->fail_in_child)
		return UINT64_MAX;
	if (me != parent && s->crash_in_child)
		abort();
	s->samples++;
	size_t i = 0;
	while (i < s->n && s->pids[i] != me)
		i++;
	if (i == s->n && s->n < MAX_PIDS) {
		s->batch_of[s->n] = batch;
		s->pids[s->n++] = me;
	}
	if (i < MAX_PIDS)
		s->last_of[i] = batch;
	return sb_time_dep_adds(batch);
}

static int child_check_fails(void *ctx, char *err, size_t errlen)
{
	(void)ctx;
	snprintf(err, errlen, "the child's check failed on purpose");
	return -1;
}

static void arms_init(struct sb_arm arms[3], struct seen seen[3])
{
	memset(seen, 0, 3 * sizeof(*seen));
	static const char *names[] = {"overhead", "baseline", "other"};
	for (int a = 0; a < 3; a++)
		arms[a] = (struct sb_arm){.name = names[a], .seed_name = names[a], .sample = sample,
					  .ctx = &seen[a], .is_overhead = a == 0, .is_baseline = a == 1};
}

static int run(struct sb_arm arms[3], size_t processes, char *err, size_t errlen, struct sb_results *res)
{
	static const uint64_t batches[] = {1, 8};
	struct sb_run_opts o = {.batches = batches, .n_batches = 2, .samples = 3000, .seed = 7,
				.processes = processes};
	return sb_run_interleaved(arms, 3, &o, res, err, errlen);
}

int main(void)
{
	parent = getpid();
	struct sb_arm arms[3];
	struct seen seen[3];
	struct sb_results res;
	char err[256];

	/* Three processes per batch size: the arm that asks for its ctx back
	 * saw this process (the sizing round) and 3 children, each running
	 * both batch sizes; the one that does not saw only this process. */
	arms_init(arms, seen);
	arms[1].ctx_size = sizeof(seen[1]);
	int rc = run(arms, 3, err, sizeof(err), &res);
	CHECK(rc == 0, "run failed: %s", err);
	CHECK(seen[1].n == 1 + 3, "%zu pids ran the baseline, want 4", seen[1].n);
	CHECK(seen[1].pids[0] == parent, "the first pid is %d, not this process", (int)seen[1].pids[0]);
	/* The batch sizes take turns: process 1 runs its share of each, then
	 * process 2, so each batch size's processes are spread over the run
	 * (and one fork serves all the batch sizes of a process). */
	for (size_t i = 1; i < seen[1].n; i++)
		CHECK(seen[1].batch_of[i] == 1 && seen[1].last_of[i] == 8,
		      "child %zu ran batch %llu first and %llu last, want 1 then 8", i,
		      (unsigned long long)seen[1].batch_of[i], (unsigned long long)seen[1].last_of[i]);
	CHECK(seen[2].n == 1 && seen[2].pids[0] == parent, "%zu pids in an arm that asks nothing back",
	      seen[2].n);
	CHECK(seen[2].samples == 8, "this process ran %llu samples of the other arm, want 8 (a cold and 3 timed sizing rounds per batch size)",
	      seen[2].samples);
	/* Every round ran (3000 per batch size, split 1000 each), plus a
	 * warm-up block per child and the sizing rounds: more than 6000. */
	CHECK(seen[1].samples > 6000, "%llu baseline samples came back", seen[1].samples);
	for (size_t i = 0; i < res.n_cells && rc == 0; i++) {
		const struct sb_cell *c = &res.cells[i];
		CHECK(c->n_processes == 3, "%s@%llu ran in %zu processes", c->arm->name,
		      (unsigned long long)c->batch, c->n_processes);
		CHECK(c->n_samples + c->n_disturbed <= 3000 && c->n_samples > 0, "%s@%llu: %zu samples",
		      c->arm->name, (unsigned long long)c->batch, c->n_samples);
	}
	if (rc == 0)
		sb_results_free(&res);

	/* One process: nothing forks, the CIs keep to the states. */
	arms_init(arms, seen);
	arms[1].ctx_size = sizeof(seen[1]);
	rc = run(arms, 1, err, sizeof(err), &res);
	CHECK(rc == 0 && seen[1].n == 1 && res.cells[0].n_processes == 1, "one process: rc %d, %zu pids", rc,
	      seen[1].n);
	if (rc == 0)
		sb_results_free(&res);

	/* A child whose samples fail: the run fails naming the arm. */
	arms_init(arms, seen);
	seen[2].fail_in_child = 1;
	rc = run(arms, 2, err, sizeof(err), &res);
	CHECK(rc == -1 && strstr(err, "other: sample failed"), "rc %d, err '%s'", rc, err);
	sb_results_free(&res);

	/* A child's check fails: its message is the run's. */
	arms_init(arms, seen);
	static const uint64_t batches[] = {8};
	struct sb_run_opts o = {.batches = batches, .n_batches = 1, .samples = 100, .seed = 7, .processes = 2,
				.child_check = child_check_fails};
	rc = sb_run_interleaved(arms, 3, &o, &res, err, sizeof(err));
	CHECK(rc == -1 && strcmp(err, "the child's check failed on purpose") == 0, "rc %d, err '%s'", rc, err);
	sb_results_free(&res);

	/* A child that crashes: the run says it ended by a signal. */
	arms_init(arms, seen);
	seen[2].crash_in_child = 1;
	rc = run(arms, 2, err, sizeof(err), &res);
	CHECK(rc == -1 && strstr(err, "ended by signal 6"), "rc %d, err '%s'", rc, err);
	sb_results_free(&res);
	return check_report("processes");
}

/* processes.c: segments run in a fresh child process (fork: a new task,
 * kernel stack, data pages of its own, predictor history that starts
 * over), so that whatever one process fixes for all its blocks is
 * re-rolled. The child runs them one after the other, then sends each
 * one's rounds and blocks back through a pipe (nothing is written while it
 * measures, so the parent sleeps in read meanwhile) and leaves with _exit.
 * One fork per process and not per segment: with a thousand placed copies
 * the address space has ~3000 mappings, and each fork and exit cost ~20 ms.
 */
#define _GNU_SOURCE
#include "part_run.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads from the child; a signal that stops the run (the child's own
 * pid may not have got it) is passed on, so the child stops at its next
 * block and reports "interrupted". */
static int read_all(int fd, void *p, size_t n, const struct sb_run_opts *o, pid_t child, int *passed_on)
{
	char *c = p;
	while (n) {
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR) {
			if (o->stop && o->stop() && !*passed_on) {
				kill(child, SIGINT);
				*passed_on = 1;
			}
			continue;
		}
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* What the child sends ahead of each segment's rounds and blocks. */
struct segment_header {
	int rc, capped;
	size_t n_rounds, n_blocks;
	char err[256];
};

/* The child's report on fd: per segment that ran (up to the first that
 * failed) its header, rounds and blocks; then the arms' ctx_size bytes.
 * Returns 0, or -1 when a write failed. */
static int send_segments(int fd, const struct sb_arm *arms, size_t n_arms, struct batch_data *cd,
			 struct segment_header *h, size_t ran)
{
	int bad = 0;
	for (size_t i = 0; i < ran && !bad; i++) {
		h[i].capped = cd[i].capped;
		h[i].n_rounds = h[i].rc ? 0 : cd[i].n_rounds;
		h[i].n_blocks = h[i].rc ? 0 : cd[i].n_blocks;
		bad = write_all(fd, &h[i], sizeof(h[i]));
		for (size_t a = 0; a < n_arms && !bad && h[i].n_rounds; a++)
			bad = write_all(fd, cd[i].ticks + a * cd[i].cap, h[i].n_rounds * sizeof(*cd[i].ticks));
		if (!bad && h[i].n_blocks)
			bad = write_all(fd, cd[i].blocks, h[i].n_blocks * sizeof(*cd[i].blocks));
		if (h[i].rc)
			break;
	}
	for (size_t a = 0; a < n_arms && !bad; a++)
		if (arms[a].ctx_size)
			bad = write_all(fd, arms[a].ctx, arms[a].ctx_size);
	return bad ? -1 : 0;
}

/* A part that another part's failure stopped early: one failed header
 * more, so that the parent's reading ends there. */
static void part_failed(struct segment_header *h, size_t *ran, size_t n_sg, const char *why)
{
	if (*ran < n_sg && (*ran == 0 || h[*ran - 1].rc == 0)) {
		h[*ran].rc = -1;
		snprintf(h[*ran].err, sizeof(h[*ran].err), "not run: %.200s", why);
		(*ran)++;
	}
}

/* The child's side: the parts' segments, taking turns segment by segment
 * from part `first` on (each part's before_set ahead of its segment),
 * then each part's report on fds[1] in order; never
 * returns. */
static __attribute__((noreturn)) void child_main(int fds[2], const struct sb_child_part *cp, size_t n_cp,
						 size_t first, const struct sb_span *skip, size_t n_skip)
{
	/* A parent that ends (a signal's _exit) takes the child along. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	close(fds[0]);
	/* Its own data pages: the ones it would only read are still the
	 * parent's physical pages, the same in every child of this exec
	 * (but for the parent's sample buffers, which it does not read). */
	sb_own_pages(skip, n_skip);
	struct sb_rng *rng = calloc(n_cp, sizeof(*rng));
	struct batch_data **cd = calloc(n_cp, sizeof(*cd));
	struct segment_header **h = calloc(n_cp, sizeof(*h));
	size_t *ran = calloc(n_cp, sizeof(*ran)), most = 0;
	if (!rng || !cd || !h || !ran)
		_exit(1);
	for (size_t c = 0; c < n_cp; c++) {
		sb_rng_seed(&rng[c], cp[c].seed);
		cd[c] = calloc(cp[c].n_sg ? cp[c].n_sg : 1, sizeof(**cd));
		h[c] = calloc(cp[c].n_sg ? cp[c].n_sg : 1, sizeof(**h));
		if (!cd[c] || !h[c])
			_exit(1);
		if (cp[c].n_sg > most)
			most = cp[c].n_sg;
	}
	uint64_t carry = 0;
	const struct sb_run_opts *last = n_cp ? cp[0].o : NULL;
	const char *failed = NULL;
	for (size_t i = 0; i < most && !failed; i++)
		for (size_t t = 0; t < n_cp && !failed; t++) {
			size_t c = (first + t) % n_cp;
			const struct sb_child_part *q = &cp[c];
			if (i >= q->n_sg)
				continue;
			struct segment_header *hi = &h[c][i];
			if (q->o->before_set &&
			    (hi->rc = q->o->before_set(q->o->set_ctx, hi->err, sizeof(hi->err))) != 0) {
				ran[c] = i + 1;
				failed = hi->err;
				break;
			}
			struct segment sg = q->sgs[i];
			sb_take_carry(&sg, carry);
			hi->rc = sb_run_segment(q->arms, q->n_arms, q->o, &sg, q->order, q->n_states, &rng[c],
						q->delay_max, &cd[c][i], &carry, hi->err, sizeof(hi->err));
			ran[c] = i + 1;
			last = q->o;
			if (hi->rc == 0 && i + 1 == q->n_sg && q->o->child_check &&
			    q->o->child_check(q->o->check_ctx, hi->err, sizeof(hi->err)) != 0)
				hi->rc = -1;
			if (hi->rc)
				failed = hi->err;
		}
	if (!failed && last)
		sb_wait_out(carry, last);
	int bad = 0;
	for (size_t c = 0; c < n_cp && !bad; c++) {
		if (failed)
			part_failed(h[c], &ran[c], cp[c].n_sg, failed);
		bad = send_segments(fds[1], cp[c].arms, cp[c].n_arms, cd[c], h[c], ran[c]) != 0;
	}
	_exit(bad ? 1 : 0);
}

/* The parent's side: each segment's header, rounds and blocks appended to
 * *ds[i], up to the first that failed (its header in *h), then the arms'
 * ctx_size bytes; *at: the segment read last. Returns 0, or -1 when the
 * child sent too little (or memory ran out). */
static int read_segments(int fd, pid_t pid, const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
			 const struct segment *sgs, size_t n_sg, struct batch_data **ds, struct segment_header *h,
			 const struct segment **at)
{
	int passed_on = 0, rc = 0;
	memset(h, 0, sizeof(*h));
	*at = sgs;
	for (size_t i = 0; i < n_sg && rc == 0 && h->rc == 0; i++) {
		*at = &sgs[i];
		struct batch_data *d = ds[i];
		rc = read_all(fd, h, sizeof(*h), o, pid, &passed_on);
		size_t base = d->n_rounds;
		if (rc == 0 && h->rc == 0) {
			if (sb_batch_reserve_rounds(d, n_arms, base + h->n_rounds) != 0 ||
			    sb_batch_reserve_blocks(d, d->n_blocks + h->n_blocks) != 0)
				rc = -1;
			for (size_t a = 0; a < n_arms && rc == 0; a++)
				rc = read_all(fd, d->ticks + a * d->cap + base, h->n_rounds * sizeof(*d->ticks), o, pid,
					      &passed_on);
			if (rc == 0 && h->n_blocks)
				rc = read_all(fd, d->blocks + d->n_blocks, h->n_blocks * sizeof(*d->blocks), o, pid,
					      &passed_on);
			if (rc == 0) {
				for (size_t k = 0; k < h->n_blocks; k++)
					d->blocks[d->n_blocks + k].first_round += base;
				d->n_blocks += h->n_blocks;
				d->n_rounds = base + h->n_rounds;
				d->capped |= h->capped;
			}
		}
	}
	for (size_t a = 0; a < n_arms && rc == 0 && h->rc == 0; a++)
		if (arms[a].ctx_size)
			rc = read_all(fd, arms[a].ctx, arms[a].ctx_size, o, pid, &passed_on);
	return rc;
}

int sb_run_in_child(const struct sb_child_part *cp, size_t n_cp, size_t first, const struct sb_span *skip,
		    size_t n_skip, char *err, size_t errlen)
{
	int fds[2];
	if (pipe(fds) != 0) {
		sb_run_err(err, errlen, strerror(errno), "pipe");
		return -1;
	}
	fflush(NULL);
	malloc_trim(0); /* freed memory stays out of the child's pages */
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		sb_run_err(err, errlen, strerror(errno), "fork");
		return -1;
	}
	if (pid == 0)
		child_main(fds, cp, n_cp, first, skip, n_skip);
	close(fds[1]);
	struct segment_header h = {0};
	const struct segment *at = n_cp ? cp[0].sgs : NULL;
	int rc = 0;
	for (size_t c = 0; c < n_cp && rc == 0 && h.rc == 0; c++)
		rc = read_segments(fds[0], pid, cp[c].arms, cp[c].n_arms, cp[c].o, cp[c].sgs, cp[c].n_sg, cp[c].ds, &h,
				   &at);
	close(fds[0]);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc != 0) {
		unsigned long long batch = at ? (unsigned long long)at->batch : 0;
		if (WIFSIGNALED(status))
			snprintf(err, errlen, "the measuring process of batch %llu ended by signal %d", batch,
				 WTERMSIG(status));
		else
			snprintf(err, errlen, "the measuring process of batch %llu sent no results", batch);
		return -1;
	}
	if (h.rc != 0) {
		sb_run_err(err, errlen, h.err, NULL);
		return -1;
	}
	return 0;
}

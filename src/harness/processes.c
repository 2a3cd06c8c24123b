/* processes.c: segments run in a fresh child process (fork: a new task,
 * kernel stack, data pages of its own, predictor history that starts
 * over), so that whatever one process fixes for all its blocks is
 * re-rolled. The child runs them one after the other, then sends each
 * one's rounds and blocks back through a pipe (nothing is written while it
 * measures, so the parent sleeps in poll meanwhile, its watchdog's deadline
 * the timeout) and leaves with _exit. A child of a contained run
 * (sb_run_opts.contain) is contained before its first block (contain.c).
 * One fork per process and not per segment: with a thousand placed copies
 * the address space has ~3000 mappings, and each fork and exit cost ~20 ms.
 */
#define _GNU_SOURCE
#include "set_run.h"
#include "stubbench/sibling_names.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
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

/* A message from a child, as this process prints it: cut at its buffer's
 * end, every byte outside printable ASCII a '?' (a hostile child's
 * terminal escapes reach no terminal). */
static void untrusted_text(char *s, size_t cap)
{
	s[cap - 1] = 0;
	for (char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || (unsigned char)*c > 0x7e)
			*c = '?';
}

#define HOSTILE_REPORT_MAX (16u << 20) /* the test hook's report: at most this many bytes */

/* The test hook sb_run_test_hooks.child_report: in a contained child of
 * that kind (sizing or not), the file's bytes go to the parent in place of
 * the report, as code that took over the child could send them. Read
 * before containment (read is not among its calls); returns only where
 * the hook does not apply. */
static void hostile_report(const struct sb_run_opts *o, int sizing, int fd, struct sb_trap *trap)
{
	const struct sb_run_test_hooks *t = o ? o->test : NULL;
	if (!trap || !t || !t->child_report || t->child_report_sizing != sizing)
		return;
	char *buf = malloc(HOSTILE_REPORT_MAX);
	int in = open(t->child_report, O_RDONLY | O_CLOEXEC);
	if (!buf || in < 0)
		_exit(1);
	size_t n = 0;
	ssize_t r;
	while (n < HOSTILE_REPORT_MAX && (r = read(in, buf + n, HOSTILE_REPORT_MAX - n)) > 0)
		n += (size_t)r;
	close(in);
	char why[256];
	if (sb_contain(fd, trap, why, sizeof(why)) != 0)
		_exit(1);
	write_all(fd, buf, n);
	_exit(0);
}

/* The parent's watch on a child: the signal it passed on, and the
 * watchdog's deadline (CLOCK_MONOTONIC seconds, 0: none). */
struct watch {
	const struct sb_run_opts *o;
	pid_t child;
	int passed_on, timed_out;
	double deadline, limit_s;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Waits for the child's next bytes until the deadline; a child past it
 * is killed (-1, w->timed_out set). A signal that stops the run (the
 * child's own pid may not have got it) is passed on, so the child stops
 * at its next block and reports "interrupted". */
static int wait_readable(int fd, struct watch *w)
{
	for (;;) {
		int ms = -1;
		if (w->deadline > 0) {
			double left = w->deadline - now_s();
			ms = left <= 0 ? 0 : left > 1e6 ? 1000000000 : (int)(left * 1e3) + 1;
		}
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		int r = poll(&pfd, 1, ms);
		if (r > 0)
			return 0;
		if (r < 0 && errno == EINTR) {
			if (w->o && w->o->stop && w->o->stop() && !w->passed_on) {
				kill(w->child, SIGINT);
				w->passed_on = 1;
			}
			continue;
		}
		if (r == 0) {
			kill(w->child, SIGKILL);
			w->timed_out = 1;
		}
		return -1;
	}
}

/* Reads n bytes from the child (wait_readable before each read). */
static int read_all(int fd, void *p, size_t n, struct watch *w)
{
	char *c = p;
	while (n) {
		if (wait_readable(fd, w) != 0)
			return -1;
		ssize_t r = read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
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
static void set_failed(struct segment_header *h, size_t *ran, size_t n_sg, const char *why)
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
static __attribute__((noreturn)) void child_main(int fds[2], const struct sb_child_set *cp, size_t n_cp,
						 size_t first, const struct sb_span *skip, size_t n_skip,
						 struct sb_trap *trap)
{
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
	static char why[256];
	hostile_report(n_cp ? cp[0].o : NULL, 0, fds[1], trap);
	if (trap && sb_contain(fds[1], trap, why, sizeof(why)) != 0)
		failed = why;
	for (size_t i = 0; i < most && !failed; i++)
		for (size_t t = 0; t < n_cp && !failed; t++) {
			size_t c = (first + t) % n_cp;
			const struct sb_child_set *q = &cp[c];
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
			set_failed(h[c], &ran[c], cp[c].n_sg, failed);
		bad = send_segments(fds[1], cp[c].arms, cp[c].n_arms, cd[c], h[c], ran[c]) != 0;
	}
	_exit(bad ? 1 : 0);
}

/* The checks on what a child reports (docs/security-model.md, "What the
 * parent checks"): every count within what the segment could hold,
 * every block within the rounds sent and in a state the part has, every
 * figure finite. The child may run code read from files, so its bytes
 * are hostile input. A sample's ticks are at most HOSTILE_TICKS_MAX
 * (about 20 minutes at 4 GHz: no sample of a live run comes near it). */
#define HOSTILE_TICKS_MAX 5e12

static int bad_report(char *why, size_t whylen, const char *what)
{
	snprintf(why, whylen, "%s", what);
	return -1;
}

/* Header h of segment sg (a part of n_states states; the batch's data
 * holding `base` rounds already): 0, or -1 with why. */
static int check_header(struct segment_header *h, const struct segment *sg, size_t base, char *why, size_t whylen)
{
	untrusted_text(h->err, sizeof(h->err));
	h->rc = h->rc ? -1 : 0;
	h->capped = h->capped != 0;
	if (h->rc)
		return 0;
	size_t most = sg->samples ? (size_t)sg->samples : sg->max_rounds + sg->block_rounds;
	if (h->n_rounds > most || base > MAX_ROUNDS_PER_BATCH * 2 || h->n_rounds > MAX_ROUNDS_PER_BATCH * 2 - base)
		return bad_report(why, whylen, "more rounds than its segment holds");
	if (h->n_blocks > h->n_rounds)
		return bad_report(why, whylen, "more blocks than rounds");
	return 0;
}

/* The rounds r[0..n) of one arm: finite, from 0 to HOSTILE_TICKS_MAX. */
static int check_ticks(const double *r, size_t n, char *why, size_t whylen)
{
	for (size_t k = 0; k < n; k++)
		if (!isfinite(r[k]) || r[k] < 0 || r[k] > HOSTILE_TICKS_MAX)
			return bad_report(why, whylen, "a sample that is not a time");
	return 0;
}

/* The blocks b[0..n) of a segment of n_rounds rounds: one after the
 * other, each of one round at least, together every round; each in a
 * state of the part and a sibling state that exists, its figures finite.
 * The process is this segment's; disturbed is this process's to flag. */
static int check_blocks(struct block *b, size_t n, size_t n_rounds, const struct segment *sg, size_t n_states,
			char *why, size_t whylen)
{
	size_t next = 0;
	for (size_t k = 0; k < n; k++) {
		if (b[k].first_round != next || b[k].n_rounds == 0 || b[k].n_rounds > n_rounds - next)
			return bad_report(why, whylen, "blocks that do not cover its rounds");
		next += b[k].n_rounds;
		if (b[k].state >= (n_states ? n_states : 1) || b[k].process != sg->process)
			return bad_report(why, whylen, "a block in a state or process that does not exist");
		if (b[k].sibling < SB_SIBLING_UNRECORDED || b[k].sibling > SB_SIBLING_IS_BUSY)
			return bad_report(why, whylen, "a block beside a sibling state that does not exist");
		if (!isfinite(b[k].cpt) || !isfinite(b[k].canary) || !isfinite(b[k].window) || b[k].cpt < 0 ||
		    b[k].canary < 0 || b[k].window < 0 || b[k].csw < 0)
			return bad_report(why, whylen, "a block whose clock or canaries are not figures");
		b[k].disturbed = 0;
	}
	if (next != n_rounds)
		return bad_report(why, whylen, "blocks that do not cover its rounds");
	return 0;
}

/* The parent's side: each segment's header, rounds and blocks appended to
 * *ds[i], up to the first that failed (its header in *h), then the arms'
 * ctx_size bytes; *at: the segment read last. Returns 0, -1 when the
 * child sent too little, -2 with why when what it sent breaks the checks
 * above, or -4 when this process had no room for what it sent. */
static int read_segments(int fd, struct watch *w, const struct sb_child_set *cp, struct segment_header *h,
			 const struct segment **at, char *why, size_t whylen)
{
	int rc = 0;
	size_t n_arms = cp->n_arms;
	w->o = cp->o;
	memset(h, 0, sizeof(*h));
	*at = cp->sgs;
	for (size_t i = 0; i < cp->n_sg && rc == 0 && h->rc == 0; i++) {
		*at = &cp->sgs[i];
		struct batch_data *d = cp->ds[i];
		rc = read_all(fd, h, sizeof(*h), w);
		size_t base = d->n_rounds;
		if (rc == 0 && check_header(h, &cp->sgs[i], base, why, whylen) != 0)
			rc = -2;
		if (rc == 0 && h->rc == 0) {
			if (sb_batch_reserve_rounds(d, n_arms, base + h->n_rounds) != 0 ||
			    sb_batch_reserve_blocks(d, d->n_blocks + h->n_blocks) != 0)
				rc = -4; /* this process is out of memory: said by its cause */
			for (size_t a = 0; a < n_arms && rc == 0; a++) {
				rc = read_all(fd, d->ticks + a * d->cap + base, h->n_rounds * sizeof(*d->ticks), w);
				if (rc == 0 && check_ticks(d->ticks + a * d->cap + base, h->n_rounds, why, whylen) != 0)
					rc = -2;
			}
			if (rc == 0 && h->n_blocks)
				rc = read_all(fd, d->blocks + d->n_blocks, h->n_blocks * sizeof(*d->blocks), w);
			if (rc == 0 && check_blocks(d->blocks + d->n_blocks, h->n_blocks, h->n_rounds, &cp->sgs[i],
						    cp->n_states, why, whylen) != 0)
				rc = -2;
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
		if (cp->arms[a].ctx_size)
			rc = read_all(fd, cp->arms[a].ctx, cp->arms[a].ctx_size, w);
	return rc;
}

/* A child on its way: its pid, the pipe's read end, the trap page
 * (contained) and the parent's watch. */
struct child {
	int fds[2];
	struct sb_trap *trap;
	struct watch w;
};

/* The pipe, the trap page (contain), the fork. Returns 0 in both
 * processes (c->w.child: 0 in the child), or -1 with err set. The child
 * is ended with its parent and closes the pipe's read end. */
static int child_start(struct child *c, int contain, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	if (pipe(c->fds) != 0) {
		sb_run_err(err, errlen, strerror(errno), "pipe");
		return -1;
	}
	if (contain && !(c->trap = sb_trap_map())) {
		close(c->fds[0]), close(c->fds[1]);
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	fflush(NULL);
	malloc_trim(0); /* freed memory stays out of the child's pages */
	c->w.child = fork();
	if (c->w.child < 0) {
		close(c->fds[0]), close(c->fds[1]);
		sb_trap_unmap(c->trap);
		sb_run_err(err, errlen, strerror(errno), "fork");
		return -1;
	}
	if (c->w.child == 0) {
		/* A parent that ends (a signal's _exit) takes the child along. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(1);
		close(c->fds[0]);
		return 0;
	}
	close(c->fds[1]);
	return 0;
}

/* The watchdog's limit on a child expected to take budget_s: four times
 * that and 5 s (a loaded machine, a slow start: fork, own pages). A
 * contained child whose time is not known (no TSC rate) still gets one:
 * CONTAINED_LIMIT_S. */
#define CONTAINED_LIMIT_S 600.0
static void child_watch(struct child *c, double budget_s)
{
	if (budget_s < 0 && c->trap)
		budget_s = (CONTAINED_LIMIT_S - 5) / 4;
	c->w.limit_s = budget_s >= 0 ? 4 * budget_s + 5 : 0;
	c->w.deadline = c->w.limit_s > 0 ? now_s() + c->w.limit_s : 0;
}

/* The child reaped; rc: how reading its report went. A child that made
 * a forbidden system call, ran past its limit or died says so in err
 * ("the measuring process of WHAT ..."). Returns rc, or SB_RUN_CONTAINED
 * for a contained child stopped, -1 for other failures. */
static int child_end(struct child *c, int rc, const char *what, char *err, size_t errlen)
{
	close(c->fds[0]);
	int status = 0;
	while (waitpid(c->w.child, &status, 0) < 0 && errno == EINTR)
		;
	long nr = c->trap ? c->trap->nr : -1;
	sb_trap_unmap(c->trap);
	if (rc == 0)
		return 0;
	if (rc == -2) /* err holds which check it broke */
		return c->trap ? SB_RUN_CONTAINED : -1;
	if (rc == -4) /* err holds the cause */
		return -1;
	if (nr >= 0)
		snprintf(err, errlen, "the measuring process of %s made system call %ld, which its containment "
			 "forbids (docs/security-model.md); stopped", what, nr);
	else if (c->w.timed_out)
		snprintf(err, errlen, "the measuring process of %s ran past its budget of %.1f s (code that does "
			 "not return?); stopped", what, (c->w.limit_s - 5) / 4);
	else if (WIFSIGNALED(status))
		snprintf(err, errlen, "the measuring process of %s ended by signal %d (%s)", what, WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(err, errlen, "the measuring process of %s sent no results", what);
	return c->trap && (nr >= 0 || c->w.timed_out || WIFSIGNALED(status)) ? SB_RUN_CONTAINED : -1;
}

/* What a child's segments should take, seconds: their time, or their
 * rounds (a warm-up block and the last block's rest) at their sized
 * round's length; -1 when the clock is unknown. */
static double budget_of(const struct sb_child_set *cp, size_t n_cp, double tsc_hz)
{
	if (tsc_hz <= 0)
		return -1;
	double ticks = 0;
	for (size_t c = 0; c < n_cp; c++)
		for (size_t i = 0; i < cp[c].n_sg; i++) {
			const struct segment *sg = &cp[c].sgs[i];
			ticks += sg->budget_ticks != UINT64_MAX
					 ? (double)sg->budget_ticks
					 : (double)(sg->samples + 2 * sg->block_rounds) * sg->round_ticks;
		}
	return ticks / tsc_hz;
}

int sb_run_in_child(const struct sb_child_set *cp, size_t n_cp, size_t first, const struct sb_span *skip,
		    size_t n_skip, double tsc_hz, char *err, size_t errlen)
{
	int contain = 0, sends_ctx = 0;
	for (size_t c = 0; c < n_cp; c++) {
		contain |= cp[c].o->contain;
		for (size_t a = 0; a < cp[c].n_arms; a++)
			sends_ctx |= cp[c].arms[a].ctx_size != 0;
	}
	/* A contained child sends figures only: no arm's bytes come back
	 * from it (the kernel's arms, which send theirs, are never contained). */
	if (contain && sends_ctx) {
		sb_run_err(err, errlen, "an arm that sends its state back cannot run contained", NULL);
		return -1;
	}
	struct child ch;
	if (child_start(&ch, contain, err, errlen) != 0)
		return -1;
	if (ch.w.child == 0)
		child_main(ch.fds, cp, n_cp, first, skip, n_skip, ch.trap);
	child_watch(&ch, budget_of(cp, n_cp, tsc_hz));
	struct segment_header h = {0};
	const struct segment *at = n_cp ? cp[0].sgs : NULL;
	char why[128] = "";
	int rc = 0;
	for (size_t c = 0; c < n_cp && rc == 0 && h.rc == 0; c++)
		rc = read_segments(ch.fds[0], &ch.w, &cp[c], &h, &at, why, sizeof(why));
	char what[64];
	snprintf(what, sizeof(what), "batch %llu", at ? (unsigned long long)at->batch : 0ULL);
	if (rc == -2)
		snprintf(err, errlen, "the measuring process of %s sent a report this process refuses (%s); stopped",
			 what, why);
	if (rc == -4) { /* the child's report has nowhere to go: it is ended, not left to die of SIGPIPE */
		snprintf(err, errlen, "the samples of %s: %s", what, sb_errno_cause(ENOMEM));
		kill(ch.w.child, SIGKILL);
	}
	rc = child_end(&ch, rc, what, err, errlen);
	if (rc != 0)
		return rc;
	if (h.rc != 0) {
		sb_run_err(err, errlen, h.err, NULL);
		return -1;
	}
	return 0;
}

/* What the sizing child sends: a return (0 or -1) and message, then each
 * batch size's fastest round (sb_fastest_rounds). This process makes the
 * segments from them (sb_segments_sized), each round checked against how
 * long the child lived: no round can take longer. */
struct sizing_header {
	int rc;
	char err[256];
};

int sb_size_blocks_in_child(const struct sb_arm *arms, size_t n_arms, const struct sb_run_opts *o,
			    uint64_t delay_max, double cpt0, double tsc_hz, struct batch_run *runs, char *err,
			    size_t errlen)
{
	uint64_t *fastest = calloc(o->n_batches + 1, sizeof(*fastest));
	if (!fastest) {
		sb_run_err(err, errlen, "out of memory", NULL);
		return -1;
	}
	struct child ch;
	if (child_start(&ch, 1, err, errlen) != 0) {
		free(fastest);
		return -1;
	}
	if (ch.w.child == 0) {
		hostile_report(o, 1, ch.fds[1], ch.trap);
		struct sizing_header h = {0};
		h.rc = sb_contain(ch.fds[1], ch.trap, h.err, sizeof(h.err));
		if (h.rc == 0)
			h.rc = sb_fastest_rounds(arms, n_arms, o, fastest, h.err, sizeof(h.err));
		int bad = write_all(ch.fds[1], &h, sizeof(h));
		if (!bad && h.rc == 0)
			bad = write_all(ch.fds[1], fastest, o->n_batches * sizeof(*fastest));
		_exit(bad ? 1 : 0);
	}
	double t0 = now_s();
	/* A few rounds of each batch size: bounded by the run's time (none
	 * with samples: the margin alone). */
	child_watch(&ch, o->time_s);
	ch.w.o = o;
	struct sizing_header h = {0};
	int rc = read_all(ch.fds[0], &h, sizeof(h), &ch.w);
	untrusted_text(h.err, sizeof(h.err));
	h.rc = h.rc ? -1 : 0;
	if (rc == 0 && h.rc == 0)
		rc = read_all(ch.fds[0], fastest, o->n_batches * sizeof(*fastest), &ch.w);
	/* How long the child lived, with a margin for the clock rate's error. */
	double lived_ticks = ((now_s() - t0) * 1.1 + 0.01) * (tsc_hz > 0 ? tsc_hz : 5e9);
	for (size_t bi = 0; bi < o->n_batches && rc == 0 && h.rc == 0; bi++)
		if (fastest[bi] == 0 || (double)fastest[bi] > lived_ticks) {
			snprintf(err, errlen, "the measuring process of the block sizing sent a report this process "
				 "refuses (a round of batch %llu longer than the process lived); stopped",
				 (unsigned long long)o->batches[bi]);
			rc = -2;
		}
	rc = child_end(&ch, rc, "the block sizing", err, errlen);
	if (rc == 0 && h.rc != 0) {
		sb_run_err(err, errlen, h.err, NULL);
		rc = -1;
	}
	if (rc == 0)
		rc = sb_segments_sized(n_arms, o, fastest, delay_max, cpt0, tsc_hz, runs, err, errlen);
	free(fastest);
	return rc;
}

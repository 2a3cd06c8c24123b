/* output.c: a run's output through its format's reporter (reporter.h),
 * and the checks that it was written; see output.h. */
#define _GNU_SOURCE
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/json_doc.h"
#include "harness/harness.h"
#include "output/reporter.h"

size_t sb_results_count_empty(const struct sb_results *r)
{
	size_t n = 0;
	for (size_t i = 0; i < r->n_cells; i++)
		n += r->cells[i].arm && r->cells[i].no_samples[0] && !r->cells[i].below_overhead;
	return n;
}

/* Cells in batch-major order (all variants of batch 1, then of batch 8 ...),
 * as the seeds' run script prints them. */
const struct sb_cell *sb_reporter_cell_at(const struct sb_results *r, size_t i)
{
	size_t nb = r->n_batches ? r->n_batches : 1;
	size_t n_arms = r->n_cells / nb;
	if (n_arms == 0)
		return NULL;
	return &r->cells[(i % n_arms) * nb + i / n_arms];
}

/* The command's own members as a document, to rep; -1 when the document
 * ran out of memory (errno ENOMEM). */
static int write_members(FILE *f, const struct sb_reporter *rep, const struct sb_output_meta *m)
{
	if (!rep->members || !m->members)
		return 0;
	struct sb_doc *doc = sb_doc_new();
	m->members(doc, m->members_ctx);
	int failed = sb_doc_failed(doc);
	if (!failed)
		failed = rep->members(f, doc) != 0;
	else
		errno = ENOMEM;
	sb_doc_free(doc);
	return failed ? -1 : 0;
}

int sb_output_write(FILE *f, const struct sb_reporter *rep, const struct sb_results *r,
		    const struct sb_output_meta *m)
{
	if ((rep->begin && rep->begin(f, r, m) != 0) || rep->results(f, r, m) != 0 ||
	    write_members(f, rep, m) != 0 || (rep->end && rep->end(f, r, m) != 0))
		return -1;
	return ferror(f) || fflush(f) != 0 ? -1 : 0;
}

int sb_output_notes(const char *format, FILE *f, const char *tool, const struct sb_results *r,
		    const struct sb_output_meta *m, enum sb_notes which)
{
	const struct sb_reporter *rep = sb_reporter_for(format);
	if (rep->notes)
		return rep->notes(f, tool, r, m, which);
	return sb_output_text_notes(f, tool, r, m, which);
}

/* A failed write to stdout already said: the exit check only sets the status. */
static int stdout_failure_said;

void sb_output_write_failed(FILE *f, const char *prog, int err)
{
	fprintf(stderr, "%s: cannot write the results: %s\n", prog, strerror(err));
	if (f == stdout)
		stdout_failure_said = 1;
}

int sb_output_report(FILE *f, const struct sb_reporter *rep, const struct sb_results *r,
		     const struct sb_output_meta *m, const char *prog)
{
	if (sb_output_write(f, rep, r, m) != 0) {
		fprintf(stderr, "%s: cannot write the results: %s\n", prog, strerror(errno));
		if (f == stdout)
			stdout_failure_said = 1;
		return 1;
	}
	size_t empty = sb_results_count_empty(r);
	if (empty) {
		fprintf(stderr, "%s: %zu of %zu results have no usable samples (n/a above)\n", prog, empty,
			r->n_cells);
		return 1;
	}
	return 0;
}

/* Checked at exit: a full disk, a closed stdout or a reader gone must not
 * pass for success. Like gnulib's close_stdout: a stdout that was closed
 * before the program started and never written to is fine. */
static const char *close_stdout_prog = "stubbench";

static void close_stdout(void)
{
	int pending = __fpending(stdout) > 0;
	int had_error = ferror(stdout);
	int fd = had_error ? dup(STDOUT_FILENO) : -1; /* to ask the output why, below */
	errno = 0;
	if (fclose(stdout) != 0 && (had_error || pending || errno != EBADF)) {
		if (stdout_failure_said)
			_exit(1);
		fprintf(stderr, "%s: cannot write the results to standard output: %s\n", close_stdout_prog,
			errno ? strerror(errno) : "write error");
		_exit(1);
	}
	if (had_error) {
		if (stdout_failure_said)
			_exit(1);
		/* The write that failed is gone with its errno: one byte more on
		 * the broken output says why (ENOSPC, EPIPE, EIO). */
		errno = 0;
		ssize_t w = fd >= 0 ? write(fd, "\n", 1) : -1;
		int why = w < 0 ? errno : 0;
		if (fd >= 0)
			close(fd);
		fprintf(stderr, "%s: cannot write the results to standard output%s%s\n", close_stdout_prog,
			why ? ": " : "", why ? strerror(why) : "");
		_exit(1);
	}
}

void sb_check_stdout_at_exit(const char *prog)
{
	close_stdout_prog = prog;
	/* A closed stdin or stderr gets /dev/null, so that no file opened later
	 * (a perf map, a dump) takes its number and receives messages. A closed
	 * stdout is a failure now: the results would have nowhere to go. */
	if (fcntl(STDIN_FILENO, F_GETFD) < 0 && errno == EBADF)
		(void)!open("/dev/null", O_RDONLY);
	if (fcntl(STDERR_FILENO, F_GETFD) < 0 && errno == EBADF) {
		if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF)
			_exit(1); /* nowhere to say anything */
		(void)!dup2(open("/dev/null", O_WRONLY), STDERR_FILENO);
	}
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
		fprintf(stderr, "%s: cannot write the results to standard output: it is closed\n", prog);
		exit(1);
	}
	atexit(close_stdout);
}


/* perf_counters.h: counters per arm x batch through perf_event_open.
 *
 * --counters=LIST names events the way perf and libpfm4 do: cycles,
 * instructions, branches, branch-misses, L1-icache-load-misses,
 * iTLB-load-misses, a core PMU's own names on a machine that has one
 * (INST_RETIRED:ANY_P), and the software events task-clock,
 * context-switches, cpu-migrations. libpfm4 turns every name into a
 * perf_event_attr; each event gets its own perf_event_open() on the
 * calling thread (pid 0, any CPU).
 *
 * Hardware events count user level only (the stubs, not the kernel), unless
 * the name carries libpfm4 modifiers (cycles:k=1); software events count
 * everywhere, since the kernel is where context switches happen.
 *
 * A hardware event the machine cannot count (no PMU, a VM that hides it,
 * perf_event_paranoid) is dropped with one line of explanation
 * (sb_counters_note) and the run carries on with the rest. Beside the
 * listed events the set always opens context-switches and cpu-migrations
 * for itself: every sample then says whether the thread was switched out or
 * moved, which is how the harness flags disturbed blocks.
 *
 * The hooks read every counter just before and just after a sample (outside
 * the timed region) and add the differences to the arm x batch cell.
 * Per-iteration figures are raw: they include the timed loop's own
 * "call; dec; jnz" (3 instructions, 2 branches per iteration), as likwid's
 * region counts do.
 */
#ifndef STUBBENCH_PERF_COUNTERS_H
#define STUBBENCH_PERF_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"

/* Longest event name kept (the column name in tables and JSON). */
#define SB_COUNTER_NAME_MAX 32

struct sb_counter_set;

/* One sample's software counts: what the harness needs to flag a block. */
struct sb_sample_disturbance {
	uint64_t context_switches; /* the thread was switched out this often */
	uint64_t cpu_migrations;   /* and moved to another CPU this often */
	int multiplexed;           /* a hardware counter ran only part of the time */
};

/* Splits and checks a comma-separated event list without opening anything:
 * every name must be known to libpfm4, none may repeat, at most max names
 * (SB_MAX_COUNTERS columns). Writes the names to names[0..n-1] and returns
 * n, or returns -1 with a one-line error naming the bad entry in err. */
int sb_counters_parse(const char *list, char names[][SB_COUNTER_NAME_MAX], size_t max,
		      char *err, size_t errlen);

/* Parses list (NULL or "" for none: then only the disturbance events are
 * opened) and opens every event on the calling thread. Returns the set, or
 * NULL with a one-line error in err when the list is bad (the CLI exits 2)
 * or memory runs out. Events the machine cannot count are not an error:
 * see sb_counters_note(). */
struct sb_counter_set *sb_counters_open(const char *list, char *err, size_t errlen);

/* One line saying which listed events are unavailable and why, and what
 * the run carries on with; NULL when every listed event opened. */
const char *sb_counters_note(const struct sb_counter_set *set);

/* Events listed / listed and opened (the columns sb_counters_fill writes). */
size_t sb_counters_n_listed(const struct sb_counter_set *set);
size_t sb_counters_n_open(const struct sb_counter_set *set);
/* The i-th opened column's name as listed, and libpfm4's full name for it
 * ("perf::PERF_COUNT_HW_CPU_CYCLES:u=1:k=0:h=0:mg=0:mh=1"). */
const char *sb_counters_name(const struct sb_counter_set *set, size_t i);
const char *sb_counters_pfm_name(const struct sb_counter_set *set, size_t i);

/* Makes room for one cell per arm x batch; call before sb_run_interleaved
 * with the same arrays. Returns 0, or -1 with a reason in err. Without it
 * the hooks still report disturbances but accumulate nothing. */
int sb_counters_bind(struct sb_counter_set *set, const struct sb_arm *arms, size_t n_arms,
		     const uint64_t *batches, size_t n_batches, char *err, size_t errlen);

/* The harness hooks (sb_run_opts.before_sample / after_sample with
 * hook_ctx = the set). after_sample divides nothing: it adds the sample's
 * differences and its iteration count (the batch) to the cell. */
void sb_counters_before_sample(void *set, size_t arm, size_t batch_idx);
void sb_counters_after_sample(void *set, size_t arm, size_t batch_idx);

/* The last sample's software counts. Returns 1 when the thread was switched
 * out or migrated during it, 0 when not, -1 when the disturbance events
 * could not be opened (nothing is known). */
int sb_counters_last_sample(const struct sb_counter_set *set, struct sb_sample_disturbance *out);

/* Context switches plus migrations of the calling thread since the set was
 * opened, read now (not only inside samples): read it before and after a
 * block, like getrusage, and flag the block when it moved. Takes the set as
 * void * to serve as a harness callback. */
uint64_t sb_counters_disturbances_now(void *set);

/* Totals over every sample so far. */
void sb_counters_totals(const struct sb_counter_set *set, struct sb_sample_disturbance *out,
			uint64_t *samples, uint64_t *disturbed_samples);

/* The counts per iteration of one bound arm x batch, one per opened column
 * (the rules of sb_counters_fill). Writes up to max values and returns how
 * many columns there are; 0 when the cell is not bound. */
size_t sb_counters_cell(const struct sb_counter_set *set, size_t arm, size_t batch_idx,
			double *per_iter, size_t max);

/* Writes the opened events as counter columns of r: names, and for each
 * cell the count per iteration. Hardware events average the samples with
 * no context switch or migration (all samples when none was clean);
 * software events average all samples. Cells of arms or batches not bound
 * are left at 0. */
void sb_counters_fill(const struct sb_counter_set *set, struct sb_results *r);

/* Closes every event and frees the set (NULL is fine). */
void sb_counters_close(struct sb_counter_set *set);

#endif

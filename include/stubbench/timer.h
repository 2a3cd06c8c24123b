/* timer.h: the timer probe, the timed loops, and the context switches that
 * disturb a timing.
 *
 * Once per process the probe reads CPUID, tries rdtscp under a SIGILL
 * handler, measures the TSC's granularity (the median step between
 * back-to-back reads) and
 * frequency (against CLOCK_MONOTONIC_RAW), and chooses how samples are
 * timed: "rdtscp; lfence" or "lfence; rdtsc; lfence".
 */
#ifndef STUBBENCH_TIMER_H
#define STUBBENCH_TIMER_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/registry.h"

struct sb_variant;

enum sb_timer_kind {
	SB_TIMER_RDTSCP = 0,        /* rdtscp; lfence */
	SB_TIMER_LFENCE_RDTSC = 1,  /* lfence; rdtsc; lfence */
};

/* What the probe saw. */
struct sb_timer_facts {
	int cpuid_rdtscp;           /* CPUID 0x80000001 EDX[27] */
	int cpuid_invariant_tsc;    /* CPUID 0x80000007 EDX[8] */
	int rdtscp_executes;        /* the SIGILL-guarded trial succeeded */
	uint64_t granularity;       /* median step between back-to-back reads, ticks */
	double tsc_hz;              /* TSC frequency against CLOCK_MONOTONIC_RAW */
};

/* What it chose, and why. */
struct sb_timer_info {
	struct sb_timer_facts facts;
	enum sb_timer_kind kind;
	int needs_dither;           /* coarse granularity: random delays required */
	char reason[256];
	double read_cost_ticks;     /* median cost of an empty timed loop (n = 0) */
};

/* The decision, from the facts alone (testable with made-up facts). */
void sb_timer_decide(const struct sb_timer_facts *facts, struct sb_timer_info *out);

/* The granularity from n steps between back-to-back reads, ticks (their
 * order changes): their median, the step a timing is quantised by. Not the
 * smallest: a TSC that moves by many ticks may now and then move by 1, and
 * a run that reads 1 goes without random delays and reads other figures
 * (measured: results/amd-epyc-zen5-vm.md). */
uint64_t sb_timer_granularity_of(double *steps, size_t n);

/* Probes this machine (once; later calls return the cached result). */
const struct sb_timer_info *sb_timer_probe(void);

/* Name of a kind, for output: "rdtscp+lfence" or "lfence+rdtsc+lfence". */
const char *sb_timer_kind_name(enum sb_timer_kind kind);

/* Timed loops with the probed timer; all return elapsed TSC ticks. */
uint64_t sb_time_calls(sb_stub_fn fn, uint64_t n);
uint64_t sb_time_dep_adds(uint64_t n);   /* n x 64 dependent adds */
uint64_t sb_time_indep_adds(uint64_t n); /* n x 64 independent adds */
uint64_t sb_time_window(uint64_t n);     /* n x (20 dependent imuls, 160 adds) */
/* batch iterations of a variant: per-run stubs are called batch times,
 * in-loop stubs once with *batch_iters = batch. */
uint64_t sb_time_variant(const struct sb_variant *v, uint64_t batch);
/* n calls round a table of n_fns stubs, starting at *cursor and leaving
 * *cursor at the next one (stubbench footprint). */
uint64_t sb_time_round_robin(const sb_stub_fn *table, uint64_t n_fns, uint64_t *cursor, uint64_t n);

/* Core cycles per TSC tick, measured now with dependent adds (n x 64). */
double sb_core_cycles_per_tick(uint64_t n);
/* The highest of `tries` such calibrations: a host that takes the CPU
 * inside one makes its ticks longer and its clock lower, never higher. */
double sb_core_cycles_per_tick_best(int tries, uint64_t n);

/* Voluntary plus involuntary context switches of the calling thread so far
 * (getrusage): a sample or block during which it moved was disturbed. */
long sb_context_switches(void);

/* About n core cycles of busy waiting (random delays). */
void sb_spin(uint64_t n);

/* The asm loops themselves (asm/timed_loop.asm). */
uint64_t sb_timed_calls_rdtscp(sb_stub_fn fn, uint64_t n);
uint64_t sb_timed_calls_lfence(sb_stub_fn fn, uint64_t n);
uint64_t sb_timed_round_robin_rdtscp(const sb_stub_fn *table, uint64_t n_fns, uint64_t *cursor, uint64_t n);
uint64_t sb_timed_round_robin_lfence(const sb_stub_fn *table, uint64_t n_fns, uint64_t *cursor, uint64_t n);
uint64_t sb_timed_dep_adds_rdtscp(uint64_t n);
uint64_t sb_timed_dep_adds_lfence(uint64_t n);
uint64_t sb_timed_indep_adds_rdtscp(uint64_t n);
uint64_t sb_timed_indep_adds_lfence(uint64_t n);
uint64_t sb_timed_window_rdtscp(uint64_t n);
uint64_t sb_timed_window_lfence(uint64_t n);
int sb_empty_stub(void);
int sb_rdtscp_probe(uint64_t *tsc, uint32_t *aux);

#endif

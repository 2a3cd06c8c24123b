/* timer.c: timer probe, the C side of the timed loops, context switches; see timer.h. */
#define _GNU_SOURCE
#include "stubbench/timer.h"

#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <x86intrin.h>

#include "stubbench/stats.h"
#include "stubbench/registry.h"

const char *sb_timer_kind_name(enum sb_timer_kind kind)
{
	return kind == SB_TIMER_RDTSCP ? "rdtscp+lfence" : "lfence+rdtsc+lfence";
}

void sb_timer_decide(const struct sb_timer_facts *f, struct sb_timer_info *out)
{
	memset(out, 0, sizeof(*out));
	out->facts = *f;
	if (f->rdtscp_executes && f->cpuid_rdtscp) {
		out->kind = SB_TIMER_RDTSCP;
		snprintf(out->reason, sizeof(out->reason),
			 "CPUID reports RDTSCP and it executes: rdtscp; lfence");
	} else if (f->rdtscp_executes) {
		/* A hypervisor that hides RDTSCP may trap or drop it later
		 * (after a migration); rdtsc with fences is always there. */
		out->kind = SB_TIMER_LFENCE_RDTSC;
		snprintf(out->reason, sizeof(out->reason),
			 "CPUID hides RDTSCP although it executes: not relied on; lfence; rdtsc; lfence");
	} else {
		out->kind = SB_TIMER_LFENCE_RDTSC;
		snprintf(out->reason, sizeof(out->reason),
			 "RDTSCP %s: lfence; rdtsc; lfence",
			 f->cpuid_rdtscp ? "is reported but faults" : "is absent");
	}
	if (f->granularity > 1) {
		out->needs_dither = 1;
		size_t l = strlen(out->reason);
		snprintf(out->reason + l, sizeof(out->reason) - l,
			 "; TSC steps by %llu ticks: samples get random delays",
			 (unsigned long long)f->granularity);
	}
	if (!f->cpuid_invariant_tsc) {
		size_t l = strlen(out->reason);
		snprintf(out->reason + l, sizeof(out->reason) - l,
			 "; CPUID does not report an invariant TSC");
	}
}

static sigjmp_buf probe_jmp;

static void on_sigill(int sig)
{
	(void)sig;
	siglongjmp(probe_jmp, 1);
}

static int try_rdtscp(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigill;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGILL, &sa, &old);
	volatile int ok = 0;
	if (sigsetjmp(probe_jmp, 1) == 0) {
		uint64_t tsc;
		uint32_t aux;
		sb_rdtscp_probe(&tsc, &aux);
		ok = tsc != 0;
	}
	sigaction(SIGILL, &old, NULL);
	return ok;
}

uint64_t sb_timer_granularity_of(double *steps, size_t n)
{
	return n ? (uint64_t)llround(sb_percentile_select(steps, n, 50)) : 0;
}

#define GRANULARITY_STEPS 20000

static uint64_t granularity(void)
{
	static double steps[GRANULARITY_STEPS];
	for (size_t i = 0; i < GRANULARITY_STEPS; i++) {
		uint64_t a = __rdtsc(), b;
		do
			b = __rdtsc();
		while (b == a);
		steps[i] = (double)(b - a);
	}
	return sb_timer_granularity_of(steps, GRANULARITY_STEPS);
}

static double now_raw_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double tsc_hz(void)
{
	/* Three 20 ms windows; the median resists one interrupted window. */
	double hz[3];
	for (int i = 0; i < 3; i++) {
		double t0 = now_raw_s();
		uint64_t c0 = __rdtsc();
		while (now_raw_s() - t0 < 0.02)
			;
		double t1 = now_raw_s();
		uint64_t c1 = __rdtsc();
		hz[i] = (double)(c1 - c0) / (t1 - t0);
	}
	return sb_median(hz, 3);
}

static struct sb_timer_info probed;
static int probed_done;

const struct sb_timer_info *sb_timer_probe(void)
{
	if (probed_done)
		return &probed;
	struct sb_timer_facts f;
	memset(&f, 0, sizeof(f));
	unsigned a, b, c, d;
	if (__get_cpuid(0x80000001, &a, &b, &c, &d))
		f.cpuid_rdtscp = (d >> 27) & 1;
	if (__get_cpuid(0x80000007, &a, &b, &c, &d))
		f.cpuid_invariant_tsc = (d >> 8) & 1;
	f.rdtscp_executes = try_rdtscp();
	f.granularity = granularity();
	f.tsc_hz = tsc_hz();
	sb_timer_decide(&f, &probed);
	probed_done = 1;

	double cost[101];
	for (int i = 0; i < 101; i++)
		cost[i] = (double)sb_time_calls(sb_empty_stub, 0);
	probed.read_cost_ticks = sb_median(cost, 101);
	return &probed;
}

uint64_t sb_time_calls(sb_stub_fn fn, uint64_t n)
{
	return sb_timer_probe()->kind == SB_TIMER_RDTSCP ? sb_timed_calls_rdtscp(fn, n)
							 : sb_timed_calls_lfence(fn, n);
}

uint64_t sb_time_round_robin(const sb_stub_fn *table, uint64_t n_fns, uint64_t *cursor, uint64_t n)
{
	return sb_timer_probe()->kind == SB_TIMER_RDTSCP ? sb_timed_round_robin_rdtscp(table, n_fns, cursor, n)
							 : sb_timed_round_robin_lfence(table, n_fns, cursor, n);
}

uint64_t sb_time_dep_adds(uint64_t n)
{
	return sb_timer_probe()->kind == SB_TIMER_RDTSCP ? sb_timed_dep_adds_rdtscp(n)
							 : sb_timed_dep_adds_lfence(n);
}

uint64_t sb_time_indep_adds(uint64_t n)
{
	return sb_timer_probe()->kind == SB_TIMER_RDTSCP ? sb_timed_indep_adds_rdtscp(n)
							 : sb_timed_indep_adds_lfence(n);
}

uint64_t sb_time_window(uint64_t n)
{
	return sb_timer_probe()->kind == SB_TIMER_RDTSCP ? sb_timed_window_rdtscp(n) : sb_timed_window_lfence(n);
}

uint64_t sb_time_variant(const struct sb_variant *v, uint64_t batch)
{
	if (v->batch_iters) {
		*v->batch_iters = batch;
		return sb_time_calls(v->main, 1);
	}
	return sb_time_calls(v->main, batch);
}

double sb_core_cycles_per_tick(uint64_t n)
{
	uint64_t ticks = sb_time_dep_adds(n);
	double cost = probed.read_cost_ticks;
	if ((double)ticks <= cost)
		return 0;
	return (double)(n * 64) / ((double)ticks - cost);
}

double sb_core_cycles_per_tick_best(int tries, uint64_t n)
{
	double best = 0;
	for (int i = 0; i < tries; i++) {
		double c = sb_core_cycles_per_tick(n);
		if (c > best)
			best = c;
	}
	return best;
}

long sb_context_switches(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return 0;
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* The timer probe's decision on made-up facts, and the probe on this machine. */
#include <string.h>

#include "check.h"
#include "stubbench/timer.h"

int main(void)
{
	struct sb_timer_facts f = {.cpuid_rdtscp = 1, .cpuid_invariant_tsc = 1, .rdtscp_executes = 1,
				   .granularity = 1, .tsc_hz = 2.1e9};
	struct sb_timer_info i;

	sb_timer_decide(&f, &i);
	CHECK(i.kind == SB_TIMER_RDTSCP, "reported and working rdtscp not chosen");
	CHECK(!i.needs_dither, "dither with a 1-tick TSC");

	/* A development VM seen: CPUID hides RDTSCP, yet it executes. */
	f.cpuid_rdtscp = 0;
	sb_timer_decide(&f, &i);
	CHECK(i.kind == SB_TIMER_LFENCE_RDTSC, "hidden rdtscp relied on");
	CHECK(strstr(i.reason, "hides RDTSCP") != NULL, "reason: %s", i.reason);

	/* Reported but faulting. */
	f.cpuid_rdtscp = 1;
	f.rdtscp_executes = 0;
	sb_timer_decide(&f, &i);
	CHECK(i.kind == SB_TIMER_LFENCE_RDTSC, "faulting rdtscp chosen");
	CHECK(strstr(i.reason, "faults") != NULL, "reason: %s", i.reason);

	/* Absent and faulting. */
	f.cpuid_rdtscp = 0;
	sb_timer_decide(&f, &i);
	CHECK(i.kind == SB_TIMER_LFENCE_RDTSC && strstr(i.reason, "absent"), "reason: %s", i.reason);

	/* Coarse granularity: 21 ticks (10 ns at 2.096 GHz). */
	f.granularity = 21;
	f.cpuid_invariant_tsc = 0;
	sb_timer_decide(&f, &i);
	CHECK(i.needs_dither, "21-tick TSC without random delays");
	CHECK(strstr(i.reason, "21 ticks") != NULL, "reason: %s", i.reason);
	CHECK(strstr(i.reason, "invariant") != NULL, "reason: %s", i.reason);
	CHECK(strcmp(sb_timer_kind_name(SB_TIMER_LFENCE_RDTSC), "lfence+rdtsc+lfence") == 0, "name");

	/* The granularity from the steps between reads: their median, not
	 * the smallest. The AMD Zen 5 VM's TSC moves by 26 ticks, and by 1 in
	 * 0.1-5 % of the steps: 26 either way. */
	static double steps[20000];
	for (size_t k = 0; k < 20000; k++)
		steps[k] = k < 40 ? 1 : k % 100 == 0 ? 52 : 26;
	CHECK(sb_timer_granularity_of(steps, 20000) == 26, "AMD Zen 5 steps, 0.2 %% of 1 tick: %llu, want 26",
	      (unsigned long long)sb_timer_granularity_of(steps, 20000));
	for (size_t k = 0; k < 20000; k++)
		steps[k] = k % 20 == 0 ? 1 : 26;
	CHECK(sb_timer_granularity_of(steps, 20000) == 26, "AMD Zen 5 steps, 5 %% of 1 tick: %llu, want 26",
	      (unsigned long long)sb_timer_granularity_of(steps, 20000));
	/* A TSC that moves by 1 tick between most reads. */
	for (size_t k = 0; k < 20000; k++)
		steps[k] = k % 3 == 0 ? 2 : 1;
	CHECK(sb_timer_granularity_of(steps, 20000) == 1, "1-tick steps: %llu, want 1",
	      (unsigned long long)sb_timer_granularity_of(steps, 20000));
	/* Reads at varying intervals (30..229 ticks, 100 each): the median. */
	for (size_t k = 0; k < 20000; k++)
		steps[k] = 30 + (k * 7919) % 200;
	CHECK(sb_timer_granularity_of(steps, 20000) == 130, "spread steps: %llu, want the median, 130",
	      (unsigned long long)sb_timer_granularity_of(steps, 20000));
	CHECK(sb_timer_granularity_of(steps, 0) == 0, "no steps: not 0");

	/* The real probe: whatever it chose, it must be consistent with what it saw. */
	const struct sb_timer_info *p = sb_timer_probe();
	struct sb_timer_info again;
	sb_timer_decide(&p->facts, &again);
	CHECK(again.kind == p->kind && strcmp(again.reason, p->reason) == 0, "probe and decision disagree");
	CHECK(p->facts.granularity >= 1, "granularity %llu", (unsigned long long)p->facts.granularity);
	CHECK(p->facts.tsc_hz > 1e8 && p->facts.tsc_hz < 1e10, "TSC frequency %g", p->facts.tsc_hz);
	CHECK(sb_time_calls(sb_empty_stub, 0) > 0, "timed loop returned 0 ticks");
	printf("probe: %s (%s)\n", sb_timer_kind_name(p->kind), p->reason);
	return check_report("test_timer_decide");
}

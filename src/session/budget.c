/* budget.c: the shares of --time; see budget.h. */
#include "session/budget.h"

static const double fraction[SB_N_SHARES] = {
	[SB_SHARE_ALL] = 1.0,
	/* Half for the total, half for the parts. */
	[SB_SHARE_DIFF_TOTAL] = 0.5,
	/* The parts run until --time (a bound on the process's age), less
	 * what their statistics take beyond the harness's reserve: an
	 * ablation per part, bootstrapped (7 s after the last process of a
	 * 30 s diff on an Intel Xeon VM; results/intel-xeon-0xa7-vm.md). */
	[SB_SHARE_DIFF_PARTS] = 1.0 - 0.07,
	/* Half for the kernel's run, the twins against their de-privatized
	 * selves the rest. */
	[SB_SHARE_OBJ_KERNEL] = 0.5,
	/* Three quarters for the twins' groups, their parts (annotate) the
	 * rest. */
	[SB_SHARE_OBJ_PRIVATE] = 0.75,
};

double sb_share_fraction(enum sb_share share)
{
	return share >= 0 && share < SB_N_SHARES ? fraction[share] : 1.0;
}

double sb_budget_seconds(const struct sb_measure_config *cfg)
{
	if (cfg->samples)
		return 0;
	double ways = cfg->share_ways > 1 ? (double)cfg->share_ways : 1.0;
	return cfg->time_s * sb_share_fraction(cfg->share) / ways;
}

double sb_budget_longest_run_seconds(const struct sb_measure_config *cfg)
{
	return cfg->time_s > 0 ? cfg->time_s / 8 : 0;
}

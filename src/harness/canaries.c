/* canaries.c: what the harness measures beside every block (see
 * set_run.h): the core clock, core cycles per TSC tick (dependent
 * adds); the add canary, independent adds per core cycle; the window
 * canary, core cycles an iteration of a loop bound by the out-of-order
 * window. A busy sibling thread or a host that takes the core shows in
 * them (disturbed.c judges them). */
#include "set_run.h"

#include "stubbench/timer.h"

#define CAL_LOOPS 300              /* x 64 adds: about 6 us per calibration */
#define CAL_TRIES 3                /* calibrations per block, the highest clock kept */
#define WINDOW_LOOPS 40            /* window canary iterations: about 3000 cycles */

double sb_core_clock_once(void)
{
	return sb_core_cycles_per_tick(CAL_LOOPS);
}

/* The highest of CAL_TRIES calibrations. A host that takes the CPU for a
 * few microseconds inside one makes its ticks longer and its clock lower,
 * never higher, and the block's cycles (ticks x clock) and canaries with it
 * (measured: results/amd-epyc-zen1-vm.md). */
double sb_block_clock(void)
{
	return sb_core_cycles_per_tick_best(CAL_TRIES, CAL_LOOPS);
}

/* The lower of two timings (a host stall inside one makes it read high). */
double sb_measure_window(double cpt)
{
	uint64_t t = sb_time_window(WINDOW_LOOPS), u = sb_time_window(WINDOW_LOOPS);
	return (double)(u < t ? u : t) * cpt / WINDOW_LOOPS;
}

double sb_measure_canary(double cpt)
{
	uint64_t t = sb_time_indep_adds(CAL_LOOPS);
	return cpt > 0 && t > 0 ? (double)(CAL_LOOPS * 64) / ((double)t * cpt) : 0;
}

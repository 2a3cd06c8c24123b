/* wall_clock.h: how long this process has run, so that --time can bound a
 * command's whole wall time: its setup (placing copies, loading programs)
 * and its fresh processes' start and end included. */
#ifndef STUBBENCH_WALL_CLOCK_H
#define STUBBENCH_WALL_CLOCK_H

/* Seconds since this process started (/proc/self/stat's starttime against
 * CLOCK_BOOTTIME, to a clock tick); 0 when it cannot be read. */
double sb_process_age_s(void);

#endif

/* sweep_run.h: `stubbench` without a subcommand, the replica sweep:
 * byte-exact replicas of the BPF JIT's private-stack codegen, measured
 * interleaved, pinned and calibrated (README.md), each flavour (--flavour:
 * the host's, the seed's) against its own baseline, in fresh processes of
 * its own that take turns with the other flavour's. */
#ifndef STUBBENCH_SWEEP_RUN_H
#define STUBBENCH_SWEEP_RUN_H

#include <stdint.h>

#include "stubbench/config.h"
#include "base/error.h"

/* The sweep's own options, beside the run configuration. */
struct sb_sweep_options {
	int list;       /* --list: print the variants and the listings they reproduce, no measurement */
	uint64_t calls; /* --calls: call each main prog this many times and check its counter; 0: measure */
};

/* The sweep of cfg->measure.variants ("all": the replicas) in the flavours of
 * cfg->measure.flavour, or what o asks instead. Returns SB_STATUS_USAGE after one
 * line on bad input, SB_STATUS_FAILED when a check failed (--calls: a
 * counter that missed calls), else the session's status (session.h). */
enum sb_status sb_sweep_run(const struct sb_config *cfg, const struct sb_sweep_options *o);

#endif

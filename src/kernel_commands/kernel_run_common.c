/* kernel_run_common.c: what the built-in shapes' run and --shape=htab's
 * share (kernel_run_state.h): the start on the CPU, where the lines before
 * the measurement go; and how every mode ends (kernel_run.h): the
 * statuses of its command's ending, the interrupted status. */
#include "kernel_run_state.h"

#include <stdio.h>

#include "kernel/private_stack_probe.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "output/text_grid.h"
#include "session/session.h"
#include "kernel/signals.h"
#include "output/reporter.h"

enum sb_kernel_status kernel_run_start(const struct sb_measure_config *cfg, int *cpu)
{
	char why[512];
	enum sb_kernel_status st = sb_kernel_start(cfg->cpu, cpu, why, sizeof(why));
	if (st != SB_KERNEL_OK)
		fprintf(stderr, "stubbench kernel: %s\n", why);
	return st;
}

int kernel_run_perf_event_instead(enum sb_kernel_status st, int driver_option, enum sb_kernel_driver driver,
				  const struct sb_private_stack_probe *probe)
{
	if (st != SB_KERNEL_NO_PRIV_STACK || driver_option != SB_KERNEL_DRIVER_AUTO || driver != SB_DRIVER_RAW_TP)
		return 0;
	struct sb_private_stack_probe now;
	char err[256];
	if (!probe) {
		if (sb_private_stack_probe_run(&now, err, sizeof(err)) != 0)
			return 0;
		probe = &now;
	}
	return sb_private_stack_probe_type_gets(probe, SB_PROBE_PERF_EVENT) == 1;
}

FILE *kernel_run_findings_stream(const struct sb_config *cfg, FILE **quiet)
{
	*quiet = NULL;
	if (!sb_format_is(cfg->out.format, SB_OUT_TEXT) && !sb_session_summary_alone_here(&cfg->out))
		return stderr;
	if (sb_format_is(cfg->out.format, SB_OUT_TEXT) && sb_session_full_report(&cfg->out)) {
		if (cfg->out.verbose)
			return stdout;
		/* Within the table's width: each line folded (closed with *quiet). */
		*quiet = sb_fold_stream(stdout, SB_TABLE_MAX_COLUMNS);
		return *quiet ? *quiet : stdout;
	}
	*quiet = fopen("/dev/null", "w");
	return *quiet ? *quiet : stderr;
}

int sb_kernel_ending_status(int reported, int measured)
{
	if (!reported)
		return -1;
	return measured == SB_KERNEL_NO_PRIV_STACK ? 0 : measured;
}

int sb_kernel_finish_status(int measured, int finished, void *ctx)
{
	(void)ctx;
	return finished ? finished : measured;
}

enum sb_kernel_status sb_kernel_interrupted_or(int status)
{
	if (status == SB_KERNEL_INTERRUPTED || sb_kernel_interrupted()) {
		fprintf(stderr, "stubbench kernel: interrupted; every BPF program unloaded\n");
		return SB_KERNEL_INTERRUPTED;
	}
	return (enum sb_kernel_status)status;
}

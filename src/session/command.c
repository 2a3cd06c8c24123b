/* command.c: a measuring command driven by the session; see command.h. */
#include "session/command.h"
#include "session/records_policy.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "plot/run_plot.h"
#include "stats/block_table.h"
#include "stats/blocks_log.h"
#include "variants/percpu.h"

/* The run between its records' opening and closing. */
static int drive(const struct sb_command *c, const struct sb_config *run_cfg, void *ctx)
{
	struct sb_config cfg = *run_cfg;
	/* The plot's file is checked before anything is measured. */
	if (sb_plot_check_option(c->tool, &cfg.out.plot))
		return SB_STATUS_USAGE;
	if (c->validate && c->validate(&cfg, ctx) != 0)
		return SB_STATUS_USAGE;
	struct sb_group *g = calloc(c->max_groups ? c->max_groups : 1, sizeof(*g));
	if (!g) {
		fprintf(stderr, "%s: out of memory\n", c->tool);
		return SB_STATUS_FAILED;
	}
	int n = c->setup ? c->setup(&cfg, ctx, g) : 0;
	if (n < 0 || (size_t)n > c->max_groups) {
		free(g);
		return SB_STATUS_USAGE;
	}
	/* The kept blocks, for the figures per core state at the ending. */
	struct sb_block_table blocks = {0};
	if (c->collect_blocks)
		sb_blocks_log_collect(&blocks);
	int rc = c->measure ? c->measure(&cfg, ctx, g, (size_t)n)
		 : n	    ? sb_measure_groups(&cfg, c->tool, g, (size_t)n)
			    : SB_STATUS_OK;
	int measured = rc;
	if (c->collect_blocks) {
		sb_blocks_log_collect(NULL);
		if (sb_blocks_log_collect_failed())
			fprintf(stderr, "%s: out of memory collecting the blocks: no figures per core state\n", c->tool);
	}
	/* Bad input is named, and has no report. */
	int ending = c->ending_status ? c->ending_status(rc, ctx) : rc == SB_STATUS_USAGE ? -1 : rc;
	if (ending >= 0) {
		struct sb_session s;
		sb_session_init(&s, c->tool, &cfg);
		s.blocks = c->collect_blocks && !sb_blocks_log_collect_failed() ? &blocks : NULL;
		if (c->report_final)
			c->report_final(&s, g, (size_t)n, ctx, rc);
		rc = sb_session_finish(&s, ending);
		if (c->finish_status)
			rc = c->finish_status(measured, rc, ctx);
	}
	sb_block_table_free(&blocks);
	if (c->cleanup)
		c->cleanup(ctx);
	free(g);
	sb_percpu_thread_fini();
	return rc;
}

int sb_command_run(const struct sb_command *c, const struct sb_config *cfg, void *ctx)
{
	int rc = sb_session_open_records(c->tool, cfg);
	return rc ? rc : sb_session_close_records(c->tool, drive(c, cfg, ctx));
}

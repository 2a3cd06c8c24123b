/* plot_results.c: --plot=FILE of a run just measured, through the same
 * writer as `stubbench plot` (run_plot.c); see run_plot.h. */
#include <stdio.h>

#include "base/mitigations.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"

int sb_plot_results(const struct sb_results *r, const char *tool, const char *path,
		    const struct sb_return_thunk *thunk)
{
	struct sb_run_file run;
	char err[1024];
	int rc = 0;
	if (sb_run_file_from_results(r, tool, &run) != 0) {
		fprintf(stderr, "%s: no plot: out of memory\n", tool);
		return 1;
	}
	/* Where returns go, for the title, as the run's header says it. */
	if (thunk)
		snprintf(run.thunk, sizeof(run.thunk), "%s", sb_thunk_name(thunk->thunk));
	if (sb_run_plot(&run, path, SB_PLOT_FIGURE_DEFAULT, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: no %s\n", tool, err);
		rc = 1;
	} else {
		fprintf(stderr, "%s: plot written to %s (script and data beside it)\n", tool, path);
	}
	sb_run_file_free(&run);
	return rc;
}

int sb_plot_check_option(const char *tool, const char **path)
{
	char err[1024];
	int rc = *path ? sb_run_plot_check_path(*path, err, sizeof(err)) : 0;
	if (rc < 0) {
		fprintf(stderr, "%s: %s\n", tool, err);
		return 2;
	}
	if (rc > 0) {
		fprintf(stderr, "%s: %s; measuring without it\n", tool, err);
		*path = NULL;
	}
	return 0;
}

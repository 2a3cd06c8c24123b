/* session.c: the run configuration's harness options and the one ending
 * of every measuring command; see session.h. */
#include "session/session.h"
#include "session/budget.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "answer/answer.h"
#include "output/out_file.h"
#include "output/figure_checks.h"
#include "output/text_grid.h"
#include "records/past_runs.h"
#include "saved/state_figures.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "jit/return_thunks.h"
#include "saved/run_file.h"
#include "plot/run_plot.h"
#include "live_states.h"

#ifndef SB_VERSION
#define SB_VERSION "unknown"
#endif

void sb_session_init(struct sb_session *s, const char *tool, const struct sb_config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->tool = tool;
	s->cfg = cfg;
	s->plots = 1;
	s->meta = (struct sb_output_meta){.tool = tool, .version = SB_VERSION, .seed = cfg->measure.seed, .config = cfg};
}

int sb_session_add(struct sb_session *s, struct sb_results *res, const char *label)
{
	if (s->n_sections == SB_SESSION_MAX_SECTIONS)
		return -1;
	s->sections[s->n_sections++] = (struct sb_session_section){.res = res, .label = label};
	return 0;
}

int sb_session_add_section(struct sb_session *s, struct sb_results *res, const char *label, const char *heading)
{
	if (sb_session_add(s, res, label) != 0)
		return -1;
	s->sections[s->n_sections - 1].heading = heading;
	return 0;
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

void sb_session_run_opts(const struct sb_config *cfg, struct sb_run_opts *ro)
{
	*ro = (struct sb_run_opts){
		.batches = cfg->measure.batches,
		.n_batches = cfg->measure.n_batches,
		.time_s = sb_budget_seconds(&cfg->measure),
		.samples = cfg->measure.samples,
		.seed = cfg->measure.seed,
		.progress = isatty(STDERR_FILENO),
		.verbose = cfg->out.verbose,
		.processes = cfg->measure.processes,
		.test = cfg->test,
		.time_is_wall = 1,
		.contain = cfg->measure.contain,
	};
}

/* Every part's cells in one results, in the parts' order. */
static int merge_parts(const struct sb_session *s, size_t from, size_t to, struct sb_results *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = from; i < to; i++)
		if (sb_results_append(out, s->sections[i].res) != 0)
			return -1;
	return 0;
}

/* The table: one section per run of parts with the same label. Returns
 * sb_output_report's status, 1 out of memory. */
static int report_sections(const struct sb_session *s, FILE *f)
{
	int rc = 0;
	for (size_t i = 0; i < s->n_sections;) {
		size_t j = i + 1;
		const char *label = s->sections[i].label;
		while (j < s->n_sections && same_text(label, s->sections[j].label) &&
		       same_text(s->sections[i].heading, s->sections[j].heading))
			j++;
		struct sb_results section = {0};
		if (j - i > 1 && merge_parts(s, i, j, &section) != 0) {
			sb_results_free(&section);
			fprintf(stderr, "%s: out of memory\n", s->tool);
			return 1;
		}
		struct sb_output_meta m = s->meta;
		if (label)
			m.shape = label;
		m.section = s->sections[i].heading;
		rc |= sb_output_report(f, sb_reporter_for(s->cfg->out.format), j - i > 1 ? &section : s->sections[i].res, &m, s->tool);
		sb_results_free(&section);
		i = j;
	}
	return rc;
}

/* The command's own table, checked as sb_output_report checks the common
 * one: written whole, every cell with samples. Returns 0 or 1. */
static int report_own_table(const struct sb_session *s, FILE *f, const struct sb_results *all)
{
	s->table(f, all, s->table_ctx);
	if (fflush(f) != 0 || ferror(f)) {
		fprintf(stderr, "%s: cannot write the results: %s\n", s->tool, strerror(errno));
		return 1;
	}
	size_t empty = sb_results_count_empty(all);
	if (empty) {
		fprintf(stderr, "%s: %zu of %zu results have no usable samples (n/a above)\n", s->tool, empty,
			all->n_cells);
		return 1;
	}
	return 0;
}

/* The report in the format asked for. Returns 0 or 1. */
static int report(const struct sb_session *s, FILE *f, const struct sb_results *all)
{
	if (!sb_format_is(s->cfg->out.format, SB_OUT_TEXT))
		return sb_output_report(f, sb_reporter_for(s->cfg->out.format), all, &s->meta, s->tool) != 0;
	return (s->table ? report_own_table(s, f, all) : report_sections(s, f)) != 0;
}

/* What the front end says after the report, on to: in the table (but
 * with --verbose) each line folded within the table's width. */
static void after_report(const struct sb_session *s, FILE *to, const struct sb_results *all)
{
	FILE *fold = to == stderr || s->cfg->out.verbose ? NULL : sb_fold_stream(to, SB_TABLE_MAX_COLUMNS);
	s->after_report(fold ? fold : to, s->cfg->out.format, all, s->after_ctx);
	if (fold)
		fclose(fold);
}

/* Cells without usable samples: one line on stderr. Returns their number. */
static size_t empty_cells(const struct sb_session *s, const struct sb_results *all)
{
	size_t empty = sb_results_count_empty(all);
	if (empty)
		fprintf(stderr, "%s: %zu of %zu results have no usable samples (n/a; --table says why)\n", s->tool,
			empty, all->n_cells);
	return empty;
}

/* The summary (answer.h) of the run's cells. Returns 0, or 1 out of memory. */
static int summary(const struct sb_session *s, FILE *f, const struct sb_results *all)
{
	struct sb_run_file rf;
	if (sb_run_file_from_results(all, s->tool, &rf) != 0) {
		sb_run_file_free(&rf);
		fprintf(stderr, "%s: out of memory\n", s->tool);
		return 1;
	}
	if (s->meta.thunk)
		snprintf(rf.thunk, sizeof(rf.thunk), "%s", sb_thunk_name(s->meta.thunk->thunk));
	if (s->meta.kernel_driver)
		snprintf(rf.kernel_driver, sizeof(rf.kernel_driver), "%s", s->meta.kernel_driver);
	if (s->meta.not_measured)
		snprintf(rf.not_measured, sizeof(rf.not_measured), "%s", s->meta.not_measured);
	rf.states = s->live.states; /* borrowed: not freed with rf */
	if (s->table && !s->answer)
		sb_answer_header(f, &rf);
	else
		sb_answer_write(f, &rf, s->answer);
	rf.states = NULL;
	sb_run_file_free(&rf);
	return 0;
}

/* --plot: the command's own plot or the common one. Returns 0 or 1. */
static int plot(const struct sb_session *s, const struct sb_results *all)
{
	if (!s->plot)
		return sb_plot_results(all, s->tool, s->cfg->out.plot, s->meta.thunk) != 0;
	char err[512];
	if (s->plot(s->cfg->out.plot, all, s->table_ctx, err, sizeof(err)) != 0) {
		fprintf(stderr, "%s: no plot: %s\n", s->tool, err);
		return 1;
	}
	fprintf(stderr, "%s: plot written to %s (script and data beside it)\n", s->tool, s->cfg->out.plot);
	return 0;
}

/* What the run says about itself after its report, as its format says it
 * (sb_output_notes): with the summary alone, only a busy core; with the
 * summary alone on the terminal and the report in a file, nothing. Returns
 * 1 when the core was busy. */
static int notes(const struct sb_session *s, const struct sb_results *all)
{
	enum sb_notes which = SB_NOTES_BUSY;
	if (sb_session_full_report(&s->cfg->out) && !sb_session_summary_alone_here(&s->cfg->out))
		which = s->cfg->out.verbose ? SB_NOTES_VERBOSE : SB_NOTES_ALL;
	return sb_output_notes(s->cfg->out.format, sb_session_notes(s->cfg), s->tool, all, &s->meta, which);
}

void sb_session_progress(const char *tool, const char *what)
{
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "\r%s: %s ...%20s\r", tool, what, "");
}

int sb_session_full_report(const struct sb_output_config *cfg)
{
	return !sb_format_is(cfg->format, SB_OUT_TEXT) || cfg->table || cfg->verbose;
}

int sb_session_summary_alone_here(const struct sb_output_config *cfg)
{
	return !sb_format_is(cfg->format, SB_OUT_TEXT) && cfg->output && !cfg->verbose;
}

FILE *sb_session_nowhere(void)
{
	static FILE *nowhere;
	if (!nowhere)
		nowhere = fopen("/dev/null", "w");
	return nowhere ? nowhere : stderr;
}

FILE *sb_session_notes(const struct sb_config *cfg)
{
	return sb_session_summary_alone_here(&cfg->out) ? sb_session_nowhere() : stderr;
}

int sb_session_finish(struct sb_session *s, int rc)
{
	char measurement[1536];
	struct sb_results *widen[SB_SESSION_MAX_SECTIONS];
	/* No figure without a CI or below the overhead reaches a format. */
	for (size_t i = 0; i < s->n_sections; i++)
		sb_figure_checks(s->sections[i].res);
	for (size_t i = 0; i < s->n_sections; i++)
		widen[i] = s->sections[i].res;
	/* The key: the CPU the run was pinned to, not the option. */
	int cpu = s->n_sections && s->sections[0].res->cpu >= 0 ? s->sections[0].res->cpu : s->cfg->measure.cpu;
	sb_past_runs_measurement(measurement, sizeof(measurement), s->tool, s->cfg, cpu, s->measurement_extra);
	s->meta.record_key = measurement;
	/* The core states first: a run's next-run range is drawn from the
	 * record's runs in the state it saw. */
	sb_live_states_begin(&s->live, s->blocks, s->cfg->measure.seed, &s->meta, s->tool);
	sb_past_runs_next_run(stderr, s->tool, measurement, sb_state_figures_pooled(s->live.states), widen,
			      s->n_sections);
	/* Every part's cells: one part's own results (their cells keep their
	 * addresses, which a front end's JSON members may look up), several
	 * parts merged. */
	struct sb_results merged = {0};
	const struct sb_results *all = s->n_sections == 1 ? s->sections[0].res : &merged;
	if (s->n_sections > 1 && merge_parts(s, 0, s->n_sections, &merged) != 0) {
		fprintf(stderr, "%s: out of memory\n", s->tool);
		rc = rc ? rc : 1;
		goto out;
	}
	if (s->n_sections && all->n_cells) {
		struct sb_out out;
		if (sb_out_open(&out, s->cfg->out.output, s->tool) != 0) {
			rc = rc ? rc : 1;
			goto out;
		}
		int table = sb_format_is(s->cfg->out.format, SB_OUT_TEXT), here = sb_session_summary_alone_here(&s->cfg->out);
		if ((table || here) && summary(s, table ? out.f : stdout, all) && rc == 0)
			rc = 1;
		/* A command with a table of its own and no summary lines of its
		 * own: its table is the answer. */
		if (sb_session_full_report(&s->cfg->out) || (s->table && !s->answer)) {
			if (report(s, out.f, all) && rc == 0)
				rc = 1;
			if (s->after_report && !here)
				after_report(s, table ? out.f : stderr, all);
		}
		if (sb_out_close(&out) != 0 && rc == 0)
			rc = 1;
		/* With the summary alone, cells without samples still fail the run
		 * (the table names them). */
		if (!sb_session_full_report(&s->cfg->out) && (!s->table || s->answer) && empty_cells(s, all) && rc == 0)
			rc = 1;
		int busy = notes(s, all);
		if (rc == 0 && !s->forget)
			sb_past_runs_remember(stderr, s->tool, measurement, all, s->live.states, busy);
		if (rc == 0 && s->plots && s->cfg->out.plot && plot(s, all))
			rc = 1;
	}
out:
	sb_live_states_end(&s->live);
	sb_results_free(&merged);
	for (size_t i = 0; i < s->n_sections; i++)
		sb_results_free(s->sections[i].res);
	s->n_sections = 0;
	return rc;
}

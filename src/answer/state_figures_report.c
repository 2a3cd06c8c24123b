/* state_figures_report.c: the report of a sweep estimated again per core
 * state; see state_figures.h. */
#include "saved/state_figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "answer/kernel_from_blocks.h"
#include "output/json_doc.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "records/quiet_record.h"
#include "saved/run_file.h"
#include "answer/answer.h"
#include "base/error.h"
#include "output/json_doc.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "records/quiet_record.h"
#include "saved/run_file.h"

/* The largest batch size with a figure. */
static uint64_t largest_batch(const struct sb_state_figures *s)
{
	uint64_t b = 0;
	for (size_t i = 0; i < s->n; i++)
		b = s->f[i].batch > b ? s->f[i].batch : b;
	return b;
}

/* "busy 1680 blocks (canary 3.28), quiet 137 (4.60)": the states seen, most blocks first. */
static void states_seen(char *buf, size_t len, const struct sb_core_split *sp)
{
	int order[SB_CORE_STATES] = {SB_CORE_QUIET, SB_CORE_BUSY, SB_CORE_UNKNOWN};
	if (sp->n[SB_CORE_BUSY] > sp->n[SB_CORE_QUIET])
		order[0] = SB_CORE_BUSY, order[1] = SB_CORE_QUIET;
	size_t k = 0, said = 0;
	buf[0] = 0;
	for (int i = 0; i < SB_CORE_STATES && k < len; i++) {
		int s = order[i];
		if (sp->n[s] < SB_CORE_MIN_BLOCKS)
			continue;
		k += (size_t)snprintf(buf + k, len - k, said ? ", %s %zu (%.2f)" : "%s %zu blocks (%.2f adds/cycle)",
				      sb_core_state_name((enum sb_core_state)s), sp->n[s], sp->median[s]);
		said++;
	}
}

/* Where the quiet level came from, in one line. */
static void basis_line(FILE *f, const struct sb_core_split *sp, const char *record, const char *why_none)
{
	const char *base = record && strrchr(record, '/') ? strrchr(record, '/') + 1 : record;
	if (!strcmp(sp->basis, "record"))
		fprintf(f, "quiet level %.2f adds per cycle (the record %s); busy below %.2f\n", sp->quiet_level,
			base ? base : "given", sp->threshold);
	else if (!strcmp(sp->basis, "run"))
		fprintf(f, "quiet level %.2f adds per cycle: the upper of the run's two canary clusters; busy below "
			   "%.2f\n", sp->quiet_level, sp->threshold);
	else
		fprintf(f, "one state, unknown: one canary cluster, no quiet level to name it (%s)\n",
			why_none ? why_none : "--quiet-levels=FILE");
}

static void figure_line(FILE *f, const struct sb_state_figure *g)
{
	char cg[64], tot[64];
	sb_answer_estimate(cg, sizeof(cg), &g->codegen, 1);
	sb_answer_estimate(tot, sizeof(tot), &g->total, 1);
	fprintf(f, "%-14s %-7s codegen %s, total %s\n", g->variant, sb_core_state_name(g->state), cg, tot);
}

static void write_text(FILE *f, const struct sb_state_figures *s, const char *run, const char *log,
		       const char *record, const char *why_none)
{
	char seen[256];
	states_seen(seen, sizeof(seen), &s->split);
	const char *rb = strrchr(run, '/'), *lb = strrchr(log, '/');
	fprintf(f, "stubbench report: %s, estimated again from %s\n", rb ? rb + 1 : run, lb ? lb + 1 : log);
	fprintf(f, "core states by the add canary, %zu blocks: %s\n", s->n_blocks,
		seen[0] ? seen : "none with enough blocks");
	basis_line(f, &s->split, record, why_none);
	uint64_t top = largest_batch(s);
	fprintf(f, "cycles per call at batch %llu (95 %% CI) per core state:\n", (unsigned long long)top);
	for (size_t i = 0; i < s->n; i++)
		if (s->f[i].batch == top)
			figure_line(f, &s->f[i]);
	fprintf(f, "the CIs: this run's blocks in each state; the next run's states need not be these\n\n");
	fprintf(f, "%-6s %-13s %-7s %6s  %-20s %-20s %s\n", "batch", "variant", "state", "blocks", "codegen",
		"total", "vs base");
	for (size_t i = 0; i < s->n; i++) {
		char cg[64], tot[64], vb[64];
		const struct sb_state_figure *g = &s->f[i];
		sb_answer_estimate(cg, sizeof(cg), &g->codegen, 1);
		sb_answer_estimate(tot, sizeof(tot), &g->total, 1);
		sb_answer_estimate(vb, sizeof(vb), &g->vs_base, 1);
		fprintf(f, "%-6llu %-13s %-7s %6zu  %-20s %-20s %s\n", (unsigned long long)g->batch, g->variant,
			sb_core_state_name(g->state), g->blocks, cg, tot, vb);
	}
	fprintf(f, "# codegen: against its padded baseline at identical layout (the median over placements);\n"
		   "# total: against the baseline there (the mean); vs base: interleaved with the baseline;\n"
		   "# blocks: the variant's blocks in that state beside its baseline\n");
}

/* The figures, one object each, as parent's member key. */
static void doc_figures(struct sb_doc *parent, const char *key, const struct sb_state_figures *s)
{
	struct sb_doc *figs = sb_doc_array(parent, key);
	for (size_t i = 0; i < s->n; i++) {
		const struct sb_state_figure *g = &s->f[i];
		struct sb_doc *o = sb_doc_object(figs, NULL);
		sb_doc_string(o, "variant", g->variant);
		sb_doc_uint(o, "batch", g->batch);
		sb_doc_string(o, "state", sb_core_state_name(g->state));
		sb_doc_uint(o, "blocks", g->blocks);
		sb_doc_string(o, "baseline", g->baseline);
		sb_doc_string_or_null(o, "codegen_against", g->against);
		sb_doc_estimate(o, "codegen", "cycles", &g->codegen);
		sb_doc_estimate(o, "total", "cycles", &g->total);
		sb_doc_estimate(o, "vs_base", "cycles", &g->vs_base);
	}
}

void sb_state_figures_doc(struct sb_doc *parent, const char *key, const struct sb_state_figures *s,
			  const char *record, int figures_inside)
{
	const struct sb_core_split *sp = &s->split;
	struct sb_doc *cs = sb_doc_object(parent, key);
	sb_doc_string(cs, "basis", sp->basis);
	sb_doc_string_or_null(cs, "record", record && !strcmp(sp->basis, "record") ? record : NULL);
	sb_doc_number(cs, "quiet_level", sp->quiet_level > 0 ? sp->quiet_level : NAN);
	sb_doc_number(cs, "busy_below", sp->threshold > 0 ? sp->threshold : NAN);
	if (sp->no_level)
		sb_doc_string(cs, "no_quiet_level", sp->no_level);
	struct sb_doc *seen = sb_doc_array(cs, "seen");
	for (int st = 0; st < SB_CORE_STATES; st++)
		if (sp->n[st]) {
			struct sb_doc *o = sb_doc_object(seen, NULL);
			sb_doc_string(o, "state", sb_core_state_name((enum sb_core_state)st));
			sb_doc_uint(o, "blocks", sp->n[st]);
			sb_doc_number(o, "canary_median", sp->median[st] > 0 ? sp->median[st] : NAN);
		}
	if (figures_inside)
		doc_figures(cs, "figures", s);
}

/* report --from-blocks's document, written by the JSON reporter. */
static int write_json(FILE *f, const struct sb_state_figures *s, const char *run, const char *log,
		      const char *record)
{
	struct sb_doc *doc = sb_doc_new();
	if (!doc)
		return -1;
	sb_doc_string(doc, "tool", "stubbench report --from-blocks");
	sb_doc_string(doc, "run", run);
	sb_doc_string(doc, "blocks_log", log);
	sb_doc_uint(doc, "blocks", s->n_blocks);
	sb_state_figures_doc(doc, "core_states", s, record, 0);
	doc_figures(doc, "figures", s);
	int rc = sb_reporter_json_doc(f, doc);
	sb_doc_free(doc);
	return rc;
}

void sb_state_figures_write(FILE *f, const struct sb_state_figures *s, int json, const char *run, const char *log,
			    const char *record, const char *why_none)
{
	if (json)
		write_json(f, s, run, log, record);
	else
		write_text(f, s, run, log, record, why_none);
}

/* The machine's quiet add level from record path (NULL: none) for the run's
 * machine, into *level (0: none, with *why saying why). Returns 0, or -1
 * with err (a record that cannot be read). */
static int record_level(const char *path, const struct sb_run_file *rf, double *level, const char **why, char *err,
			size_t errlen)
{
	*level = 0;
	*why = NULL;
	if (!path)
		return 0;
	if (!rf->quiet_machine[0])
		return *why = "the run's JSON does not name its machine (past_runs.machine)", 0;
	struct sb_quiet_reference ref;
	if (sb_quiet_record_read(path, rf->quiet_machine, &ref, NULL, err, errlen) != 0)
		return -1;
	*level = ref.adds;
	if (ref.adds <= 0)
		*why = "the record has fewer than two runs of this machine";
	return 0;
}

/* Whether log t can be the run rf's: every batch size of the log is the
 * run's, some arm is a variant of the run, and an arm that is one ran in
 * no more processes than the run's row says. 0, or -1 with err. */
static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

static int log_of_run(const struct sb_block_table *t, const struct sb_run_file *rf, char *err, size_t errlen)
{
	uint64_t *batches = malloc((rf->n_rows + 1) * sizeof(*batches));
	if (!batches)
		return sb_set_err(err, errlen, "out of memory"), -1;
	for (size_t k = 0; k < rf->n_rows; k++)
		batches[k] = rf->rows[k].batch;
	qsort(batches, rf->n_rows, sizeof(*batches), cmp_u64);
	size_t named = 0;
	for (size_t r = 0; r < t->n; r++) {
		const struct sb_block_value *v = &t->rows[r];
		if (!bsearch(&v->batch, batches, rf->n_rows, sizeof(*batches), cmp_u64)) {
			free(batches);
			return sb_set_err(err, errlen, "not the run's log: batch %llu is none of the run's",
					  (unsigned long long)v->batch), -1;
		}
		if (r && v->batch == t->rows[r - 1].batch && v->arm == t->rows[r - 1].arm)
			continue;
		const struct sb_run_row *row = sb_run_file_find(rf, t->arms[v->arm], v->batch);
		named += row != NULL;
		if (row && row->processes && v->process >= row->processes)
			return free(batches), sb_set_err(err, errlen, "not the run's log: %s at batch %llu ran in %zu processes in the "
						       "run, the log has process %zu", t->arms[v->arm],
					  (unsigned long long)v->batch, row->processes, v->process), -1;
	}
	free(batches);
	if (!named)
		return sb_set_err(err, errlen, "not the run's log: none of its arms is a variant of the run"), -1;
	return 0;
}

/* s's figures of the named variants only; -1 with err when one has none. */
static int keep_variants(struct sb_state_figures *s, char *const *variants, size_t n, char *err, size_t errlen)
{
	for (size_t v = 0; v < n; v++) {
		size_t k = 0;
		while (k < s->n && strcmp(s->f[k].variant, variants[v]) != 0)
			k++;
		if (k == s->n)
			return sb_set_err(err, errlen, "--variant: no figure of '%s' in the log", variants[v]), -1;
	}
	size_t kept = 0;
	for (size_t k = 0; k < s->n; k++) {
		size_t v = 0;
		while (v < n && strcmp(s->f[k].variant, variants[v]) != 0)
			v++;
		if (v < n)
			s->f[kept++] = s->f[k];
	}
	s->n = kept;
	return 0;
}

/* A run of the kernel's built-in shapes (rf, freed here) and its log: its
 * summary with the figures load by load (kernel_from_blocks.h). Core
 * states, --quiet-levels, --variant and JSON are the sweep's and refused. */
static int kernel_from_blocks(FILE *f, struct sb_run_file *rf, const char *log, const char *quiet_levels, int json,
			      char *const *variants)
{
	struct sb_block_table t;
	char err[1024];
	int rc = 2;
	if (quiet_levels || json || variants)
		fprintf(stderr, "stubbench report: --from-blocks of a kernel run: %s does not apply (it prints the "
			"summary with the figures load by load)\n", quiet_levels ? "--quiet-levels" : json ? "--format=json"
												: "--variant");
	else if (sb_block_table_read(log, &t, err, sizeof(err)) != 0)
		fprintf(stderr, "stubbench report: --from-blocks: %s\n", err);
	else {
		if (log_of_run(&t, rf, err, sizeof(err)) != 0)
			fprintf(stderr, "stubbench report: --from-blocks: %s: %s\n", log, err);
		else
			rc = sb_kernel_report_from_blocks(f, rf, &t, log);
		sb_block_table_free(&t);
	}
	sb_run_file_free(rf);
	return rc;
}

int sb_report_from_blocks(FILE *f, const char *run, const char *log, const char *quiet_levels, int json,
			  char *const *variants, size_t n_variants)
{
	struct sb_run_file rf;
	struct sb_block_table t;
	struct sb_state_figures s;
	char err[1024];
	double level;
	const char *why;
	if (sb_run_file_load(run, &rf, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench report: %s\n", err);
		return 2;
	}
	int rc = 2;
	if (sb_kernel_run_of_shapes(&rf))
		return kernel_from_blocks(f, &rf, log, quiet_levels, json, variants);
	if (record_level(quiet_levels, &rf, &level, &why, err, sizeof(err)) != 0)
		fprintf(stderr, "stubbench report: --quiet-levels: %s\n", err);
	else if (sb_block_table_read(log, &t, err, sizeof(err)) != 0)
		fprintf(stderr, "stubbench report: --from-blocks: %s\n", err);
	else {
		if (log_of_run(&t, &rf, err, sizeof(err)) != 0)
			fprintf(stderr, "stubbench report: --from-blocks: %s: %s\n", log, err);
		else if (sb_state_figures_compute(&t, level, 1, &s, err, sizeof(err)) != 0)
			fprintf(stderr, "stubbench report: --from-blocks: %s: %s\n", log, err);
		else if (variants && keep_variants(&s, variants, n_variants, err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench report: %s: %s\n", log, err);
			sb_state_figures_free(&s);
		} else {
			sb_state_figures_write(f, &s, json, run, log, level > 0 ? quiet_levels : NULL, why);
			sb_state_figures_free(&s);
			rc = fflush(f) == 0 && !ferror(f) ? 0 : 1;
		}
		sb_block_table_free(&t);
	}
	sb_run_file_free(&rf);
	return rc;
}

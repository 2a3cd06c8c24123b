/* kernel_from_blocks.c: a kernel run's summary with its figures load by
 * load from its blocks log; see kernel_from_blocks.h. */
#include "answer/kernel_from_blocks.h"

#include <string.h>

#include "stubbench/config.h"

#include "answer/answer.h"
#include "answer/kernel_verdict.h"
#include "saved/kernel_by_load.h"

int sb_kernel_run_of_shapes(const struct sb_run_file *rf)
{
	return strcmp(rf->tool, "stubbench kernel") == 0;
}

static void set_figure(struct sb_run_row *r, const char *name, const struct sb_estimate *e)
{
	int k = sb_figure_index(name);
	if (r && k >= 0)
		r->figures[k] = *e;
}

/* Kernel row r's figures and its placed twin's from t. 0, or -1 out of memory. */
static int row_figures(struct sb_run_file *rf, struct sb_run_row *r, const struct sb_block_table *t)
{
	const char *codegen = r->key.codegen, *shape = r->key.shape;
	const struct sb_run_row *kb = sb_answer_find(rf, SB_SIDE_KERNEL, NULL, "baseline", shape, r->batch);
	const struct sb_run_row *p = sb_answer_find(rf, SB_SIDE_PLACED_TWIN, NULL, codegen, shape, r->batch);
	const struct sb_run_row *pb = sb_answer_find(rf, SB_SIDE_PLACED_TWIN, NULL, "baseline", shape, r->batch);
	int base = kb == r;
	if (!kb)
		return 0;
	struct sb_kernel_load_arms a = {r->batch, r->variant, base ? NULL : kb->variant,
					base || !p || !pb ? NULL : p->variant, pb ? pb->variant : NULL};
	struct sb_kernel_by_load f;
	if (sb_kernel_by_load(t, &a, sb_kernel_by_load_seed(rf->seed, r->variant, r->batch), &f) != 0)
		return -1;
	set_figure(r, "between-loads", &f.absolute.between);
	set_figure(r, "within-loads", &f.absolute.within);
	if (base)
		return 0;
	set_figure(r, "between-loads-added", &f.added.between);
	set_figure(r, "within-loads-added", &f.added.within);
	if (a.placed)
		set_figure((struct sb_run_row *)p, "paired-vs-kernel", &f.paired);
	return 0;
}

/* The loads the log's blocks of arm at batch ran in. */
static size_t loads_in_log(const struct sb_block_table *t, long arm, uint64_t batch, unsigned char *seen)
{
	size_t n = 0;
	memset(seen, 0, SB_MAX_STATES);
	for (size_t r = 0; arm >= 0 && r < t->n; r++) {
		const struct sb_block_value *v = &t->rows[r];
		if (v->arm == (size_t)arm && v->batch == batch && v->state < SB_MAX_STATES && !seen[v->state]) {
			seen[v->state] = 1;
			n++;
		}
	}
	return n;
}

/* Whether t is rf's log: every row of rf whose arm the log has ran in as
 * many loads in the log as the run says. 0, or -1 with err. */
static int log_is_the_runs(const struct sb_run_file *rf, const struct sb_block_table *t, char *err, size_t errlen)
{
	unsigned char seen[SB_MAX_STATES];
	for (size_t i = 0; i < rf->n_rows; i++) {
		const struct sb_run_row *r = &rf->rows[i];
		long arm = sb_block_table_arm(t, r->variant);
		size_t n = arm >= 0 && r->states ? loads_in_log(t, arm, r->batch, seen) : r->states;
		if (n != r->states)
			return snprintf(err, errlen, "not the run's log: %s at batch %llu ran in %zu loads in the run, in "
				       "%zu in the log", r->variant, (unsigned long long)r->batch, r->states, n), -1;
	}
	return 0;
}

int sb_kernel_report_from_blocks(FILE *f, struct sb_run_file *rf, const struct sb_block_table *t, const char *log)
{
	char err[512];
	if (log_is_the_runs(rf, t, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench report: --from-blocks: %s: %s\n", log, err);
		return 2;
	}
	for (size_t i = 0; i < rf->n_rows; i++) {
		struct sb_run_row *r = &rf->rows[i];
		if (r->key.side == SB_SIDE_KERNEL && r->key.codegen[0] && r->key.shape[0] &&
		    row_figures(rf, r, t) != 0) {
			fprintf(stderr, "stubbench report: out of memory\n");
			return 1;
		}
	}
	sb_answer_write(f, rf, sb_kernel_answer);
	return fflush(f) == 0 && !ferror(f) ? 0 : 1;
}

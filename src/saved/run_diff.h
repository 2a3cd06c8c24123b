/* run_diff.h: what a saved `stubbench diff` run holds beyond its rows, as
 * read back from its JSON document: the "diff" member (the functions
 * paired, each pair's old -> new instructions) and the "annotate" member
 * (what each part of the change costs, batch by batch); and the diff's
 * summary lines, drawn from the saved run alone (src/answer/diff_answer.c),
 * so that the live run and `stubbench report` print the same. */
#ifndef STUBBENCH_RUN_DIFF_H
#define STUBBENCH_RUN_DIFF_H

#include <stddef.h>
#include <stdio.h>

#include "stats/attribution.h"

struct sb_run_file;

/* One row of a pair's old -> new map, as the summary shows it: NEW's
 * instruction, or OLD's where it was removed. */
struct sb_run_diff_row {
	char mark;        /* '+' added, '~' changed, '-' removed; 0: the same on both sides */
	int from_old;     /* the instruction shown is OLD's (a removed one) */
	size_t off;       /* its offset in its function */
	char text[96];    /* its text */
};

/* One pair of functions. The first pair of a run is the main progs'. */
struct sb_run_diff_pair {
	char old_name[64], new_name[64];
	size_t added, changed, removed;  /* rows of each change */
	struct sb_run_diff_row *rows;
	size_t n_rows;
};

/* One side's twin as traced (the diff member's "path"). */
struct sb_run_diff_path {
	int traced;            /* 0: not traced, or a run without the member */
	double insns;          /* instructions of one run */
	int reads_zeroed;      /* its path depends on memory the twin zeroes */
	char at[24];           /* where: "0x..." kernel address, or "" */
	char global[64];       /* the global there, or "" */
	size_t n_set;          /* --global values in it */
};

struct sb_run_diff {
	struct sb_run_diff_path path[2];  /* OLD, NEW */
	struct sb_run_diff_pair *pairs;
	size_t n_pairs;
	size_t added, changed, removed;  /* over all pairs */
	/* NEW's parts against OLD (the annotate member): their names and each
	 * batch size's figures; n_att 0: the run has none. */
	char part_names[SB_ATTRIBUTION_MAX_PARTS][64];
	struct sb_attribution *att;
	size_t n_att;
};

/* The diff and annotate members of a JSON document's text (one object,
 * as `stubbench diff --format=json` writes them) into *out (NULL: the text
 * has no diff member). Returns 0, or -1 with err: not JSON, out of memory.
 * Free with sb_run_diff_free. */
int sb_run_diff_parse(const char *text, struct sb_run_diff **out, char *err, size_t errlen);
void sb_run_diff_free(struct sb_run_diff *d);

/* stubbench diff's own lines of the summary (an sb_answer_fn, answer.h),
 * from rf alone: what changed (rf->diff), what the change costs per run
 * at the largest batch (rf's rows), and the parts' costs or the changed
 * instructions as hunks. Without rf->diff, the cost lines alone. */
int sb_diff_answer(FILE *f, const struct sb_run_file *rf, int max_lines);

#endif

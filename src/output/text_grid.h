/* text_grid.h: a text table built cell by cell, then printed within a
 * width: columns of one group stay together, key columns start every
 * block, and the groups that do not fit go to a further block of rows. */
#ifndef SB_TEXT_GRID_H
#define SB_TEXT_GRID_H

#include <stddef.h>
#include <stdio.h>

#define SB_GRID_MAX_COLS 48
/* The width of the default table and its "#" lines (--verbose: unlimited). */
#define SB_TABLE_MAX_COLUMNS 100

struct sb_grid_col {
	const char *head;
	int left;  /* left-aligned (names); else right-aligned */
	int key;   /* repeated at the start of every block */
	int group; /* columns with one group id fold together */
	int drop;  /* left out of the printed table */
};

struct sb_grid {
	struct sb_grid_col cols[SB_GRID_MAX_COLS];
	size_t n_cols;
	char **cells; /* n_rows * SB_GRID_MAX_COLS; NULL: empty */
	size_t n_rows, cap_rows;
	char **notes; /* "#" lines printed after the last block */
	size_t n_notes;
};

/* Adds a column; returns its index (-1 when the grid is full). A column
 * with group < 0 is a group of its own. */
int sb_grid_col(struct sb_grid *g, const char *head, int left, int key, int group);
/* Adds an empty row; returns its index (-1 out of memory). */
long sb_grid_row(struct sb_grid *g);
/* Sets a cell (printf-style). */
void sb_grid_set(struct sb_grid *g, long row, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Adds a note line, printed after the table (folded like a "#" line). */
void sb_grid_note(struct sb_grid *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the grid. width > 0: blocks of at most width columns (a block
 * holds at least one group), and groups whose cells are all empty are
 * left out; width 0: one block of every column. */
void sb_grid_print(FILE *f, const struct sb_grid *g, int width);
void sb_grid_free(struct sb_grid *g);

/* Prints line (no newline) folded at spaces into lines of at most width
 * columns (0: unlimited). A continuation line repeats the line's lead
 * ("#" and spaces, or spaces) and 2 more spaces; a word longer than a line
 * stays whole. */
void sb_fold_line(FILE *f, int width, const char *line);
/* "# " and text, folded as sb_fold_line does. */
void sb_fold_comment(FILE *f, int width, const char *text);
/* A "#" line (printf-style), folded within SB_TABLE_MAX_COLUMNS. */
void sb_comment(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A stream that prints each line written to it on to, folded within
 * width (sb_fold_line); fclose flushes the last line. NULL: no memory. */
FILE *sb_fold_stream(FILE *to, int width);

#endif

/* text_grid.c: a text table built cell by cell and printed within a width
 * (text_grid.h). */
#define _GNU_SOURCE /* vasprintf */
#include "output/text_grid.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GRID_SEP 2

int sb_grid_col(struct sb_grid *g, const char *head, int left, int key, int group)
{
	if (g->n_cols == SB_GRID_MAX_COLS)
		return -1;
	int i = (int)g->n_cols++;
	g->cols[i] = (struct sb_grid_col){.head = head, .left = left, .key = key, .group = group < 0 ? 1000 + i : group};
	return i;
}

long sb_grid_row(struct sb_grid *g)
{
	if (g->n_rows == g->cap_rows) {
		size_t cap = g->cap_rows ? 2 * g->cap_rows : 16;
		char **c = realloc(g->cells, cap * SB_GRID_MAX_COLS * sizeof(*c));
		if (!c)
			return -1;
		g->cells = c;
		g->cap_rows = cap;
	}
	memset(g->cells + g->n_rows * SB_GRID_MAX_COLS, 0, SB_GRID_MAX_COLS * sizeof(*g->cells));
	return (long)g->n_rows++;
}

static char *vformat(const char *fmt, va_list ap)
{
	char *s = NULL;
	return vasprintf(&s, fmt, ap) < 0 ? NULL : s;
}

void sb_grid_set(struct sb_grid *g, long row, int col, const char *fmt, ...)
{
	if (row < 0 || col < 0 || (size_t)row >= g->n_rows || (size_t)col >= g->n_cols)
		return;
	va_list ap;
	va_start(ap, fmt);
	char **cell = &g->cells[(size_t)row * SB_GRID_MAX_COLS + (size_t)col];
	free(*cell);
	*cell = vformat(fmt, ap);
	va_end(ap);
}

void sb_grid_note(struct sb_grid *g, const char *fmt, ...)
{
	char **n = realloc(g->notes, (g->n_notes + 1) * sizeof(*n));
	if (!n)
		return;
	g->notes = n;
	va_list ap;
	va_start(ap, fmt);
	g->notes[g->n_notes] = vformat(fmt, ap);
	va_end(ap);
	if (g->notes[g->n_notes])
		g->n_notes++;
}

static const char *cell_at(const struct sb_grid *g, size_t row, size_t col)
{
	const char *s = g->cells[row * SB_GRID_MAX_COLS + col];
	return s ? s : "";
}

/* Whether every cell of col's group is empty. */
static int group_empty(const struct sb_grid *g, size_t col)
{
	for (size_t c = 0; c < g->n_cols; c++)
		if (g->cols[c].group == g->cols[col].group)
			for (size_t r = 0; r < g->n_rows; r++)
				if (cell_at(g, r, c)[0])
					return 0;
	return 1;
}

/* One line of the columns in[0..n): header (row < 0) or a row, no trailing blanks. */
static void print_line(FILE *f, const struct sb_grid *g, const size_t *in, size_t n, const int *w, long row)
{
	char line[4096];
	size_t len = 0;
	for (size_t k = 0; k < n && len < sizeof(line); k++) {
		const struct sb_grid_col *c = &g->cols[in[k]];
		const char *s = row < 0 ? c->head : cell_at(g, (size_t)row, in[k]);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%*s%*s", k ? GRID_SEP : 0, "",
					c->left ? -w[in[k]] : w[in[k]], s);
	}
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	while (len && line[len - 1] == ' ')
		len--;
	fprintf(f, "%.*s\n", (int)len, line);
}

void sb_grid_print(FILE *f, const struct sb_grid *g, int width)
{
	int w[SB_GRID_MAX_COLS];
	size_t keys[SB_GRID_MAX_COLS], n_keys = 0, rest[SB_GRID_MAX_COLS], n_rest = 0;
	int key_width = 0;
	for (size_t c = 0; c < g->n_cols; c++) {
		w[c] = (int)strlen(g->cols[c].head);
		for (size_t r = 0; r < g->n_rows; r++)
			if ((int)strlen(cell_at(g, r, c)) > w[c])
				w[c] = (int)strlen(cell_at(g, r, c));
		if (g->cols[c].drop || (width > 0 && !g->cols[c].key && group_empty(g, c)))
			continue;
		if (g->cols[c].key) {
			key_width += (n_keys ? GRID_SEP : 0) + w[c];
			keys[n_keys++] = c;
		} else
			rest[n_rest++] = c;
	}
	for (size_t first = 0, block = 0; first < n_rest || (!n_rest && !block); block++) {
		size_t in[SB_GRID_MAX_COLS], n = n_keys, last = first;
		memcpy(in, keys, n_keys * sizeof(*keys));
		for (int used = key_width; last < n_rest;) {
			size_t end = last, gw = 0;
			while (end < n_rest && g->cols[rest[end]].group == g->cols[rest[last]].group)
				gw += GRID_SEP + (size_t)w[rest[end++]];
			if (width > 0 && last > first && used + (int)gw > width)
				break;
			used += (int)gw;
			while (last < end)
				in[n++] = rest[last++];
		}
		if (block)
			fputc('\n', f);
		print_line(f, g, in, n, w, -1);
		for (size_t r = 0; r < g->n_rows; r++)
			print_line(f, g, in, n, w, (long)r);
		first = last;
		if (!n_rest)
			break;
	}
	for (size_t i = 0; i < g->n_notes; i++)
		sb_fold_comment(f, width > 0 ? width : 0, g->notes[i]);
}

void sb_grid_free(struct sb_grid *g)
{
	for (size_t i = 0; i < g->n_rows * SB_GRID_MAX_COLS; i++)
		free(g->cells[i]);
	for (size_t i = 0; i < g->n_notes; i++)
		free(g->notes[i]);
	free(g->cells);
	free(g->notes);
	memset(g, 0, sizeof(*g));
}

void sb_fold_line(FILE *f, int width, const char *line)
{
	size_t pre = line[0] == '#' ? 1 : 0;
	pre += strspn(line + pre, " ");
	char cont[64];
	snprintf(cont, sizeof(cont), "%.*s  ", (int)(pre < 60 ? pre : 60), line);
	size_t lead = pre, room = width > 0 ? (size_t)width : (size_t)-1;
	const char *text = line + pre;
	fprintf(f, "%.*s", (int)pre, line);
	while (*text) {
		size_t take = strlen(text);
		if (lead + take > room) {
			size_t max = room > lead ? room - lead : 0, cut = 0;
			for (size_t i = 1; i <= max && text[i]; i++)
				if (text[i] == ' ')
					cut = i;
			if (!cut) /* a word longer than the line: up to its end */
				cut = strcspn(text, " ");
			take = cut;
		}
		fprintf(f, "%.*s\n", (int)take, text);
		text += take;
		text += strspn(text, " ");
		if (*text) {
			fputs(cont, f);
			lead = strlen(cont);
		}
	}
	if (!*(line + pre))
		fputc('\n', f);
}

void sb_fold_comment(FILE *f, int width, const char *text)
{
	char *line = NULL;
	if (asprintf(&line, "# %s", text) < 0) {
		fprintf(f, "# %s\n", text);
		return;
	}
	sb_fold_line(f, width, line);
	free(line);
}

void sb_comment(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = vformat(fmt, ap);
	va_end(ap);
	sb_fold_comment(f, SB_TABLE_MAX_COLUMNS, text ? text : "");
	free(text);
}

/* sb_fold_stream's state: the line so far, and where its folded lines go. */
struct fold_cookie {
	FILE *to;
	int width;
	char *line;
	size_t len, cap;
};

static ssize_t fold_write(void *cookie, const char *buf, size_t n)
{
	struct fold_cookie *c = cookie;
	for (size_t i = 0; i < n; i++) {
		if (c->len + 1 >= c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 256;
			char *l = realloc(c->line, cap);
			if (!l)
				return -1;
			c->line = l;
			c->cap = cap;
		}
		if (buf[i] != '\n') {
			c->line[c->len++] = buf[i];
			continue;
		}
		c->line[c->len] = 0;
		sb_fold_line(c->to, c->width, c->line);
		c->len = 0;
	}
	return (ssize_t)n;
}

static int fold_close(void *cookie)
{
	struct fold_cookie *c = cookie;
	if (c->len) {
		c->line[c->len] = 0;
		sb_fold_line(c->to, c->width, c->line);
	}
	fflush(c->to);
	free(c->line);
	free(c);
	return 0;
}

FILE *sb_fold_stream(FILE *to, int width)
{
	struct fold_cookie *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->to = to;
	c->width = width;
	FILE *f = fopencookie(c, "w", (cookie_io_functions_t){.write = fold_write, .close = fold_close});
	if (!f) {
		free(c);
		return NULL;
	}
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

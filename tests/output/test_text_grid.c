/* test_text_grid: the table grid (src/output/text_grid.h) folds within a
 * width exactly: key columns start every block, a group stays whole, empty
 * groups and dropped columns are left out, width 0 prints every column;
 * "#" lines fold at spaces with their lead repeated. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/text_grid.h"

/* What print wrote, as a string (caller frees). */
static char *printed(const struct sb_grid *g, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sb_grid_print(f, g, width);
	fclose(f);
	return buf;
}

static int widest_line(const char *s)
{
	int w = 0, n = 0;
	for (; *s; s++) {
		n = *s == '\n' ? 0 : n + 1;
		w = n > w ? n : w;
	}
	return w;
}

static void grid_fold(void)
{
	struct sb_grid g = {0};
	int v = sb_grid_col(&g, "variant", 1, 1, -1);
	int a = sb_grid_col(&g, "aaaa", 0, 0, 1), aci = sb_grid_col(&g, "ci", 0, 0, 1);
	int b = sb_grid_col(&g, "bbbb", 0, 0, 2), bci = sb_grid_col(&g, "ci", 0, 0, 2);
	int e = sb_grid_col(&g, "empty", 0, 0, -1), d = sb_grid_col(&g, "dropped", 0, 0, -1);
	g.cols[d].drop = 1;
	long r0 = sb_grid_row(&g), r1 = sb_grid_row(&g);
	sb_grid_set(&g, r0, v, "base");
	sb_grid_set(&g, r1, v, "private");
	sb_grid_set(&g, r1, a, "+1.00");
	sb_grid_set(&g, r1, aci, "[+0.50, +1.50]");
	sb_grid_set(&g, r1, b, "+2.00");
	sb_grid_set(&g, r1, bci, "[+1.00, +3.00]");
	sb_grid_set(&g, r1, d, "x");
	(void)e;
	char *narrow = printed(&g, 40);
	const char *want = "variant   aaaa              ci\n"
			   "base\n"
			   "private  +1.00  [+0.50, +1.50]\n"
			   "\n"
			   "variant   bbbb              ci\n"
			   "base\n"
			   "private  +2.00  [+1.00, +3.00]\n";
	CHECK(strcmp(narrow, want) == 0, "narrow grid:\n%s", narrow);
	CHECK(widest_line(narrow) <= 40, "widest line %d", widest_line(narrow));
	char *wide = printed(&g, 0);
	CHECK(strstr(wide, "variant   aaaa              ci   bbbb              ci  empty\n") == wide,
	      "wide grid: one block, the empty column kept, the dropped one not:\n%s", wide);
	CHECK(!strstr(wide, "\n\n"), "wide grid in one block:\n%s", wide);
	free(narrow);
	free(wide);
	sb_grid_free(&g);
}

static void fold_lines(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sb_fold_comment(f, 20, "one two three four five six");
	sb_fold_line(f, 20, "  indented words that go on and on");
	sb_fold_line(f, 10, "averyveryverylongword x");
	sb_fold_line(f, 20, "short");
	fclose(f);
	const char *want = "# one two three four\n"
			   "#   five six\n"
			   "  indented words\n"
			   "    that go on and\n"
			   "    on\n"
			   "averyveryverylongword\n"
			   "  x\n"
			   "short\n";
	CHECK(strcmp(buf, want) == 0, "folded:\n%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	FILE *s = sb_fold_stream(f, 20);
	CHECK(s != NULL, "a fold stream");
	if (s) {
		fprintf(s, "# one two three ");
		fprintf(s, "four five six\nlast");
		fclose(s);
	}
	fclose(f);
	CHECK(buf && strcmp(buf, "# one two three four\n#   five six\nlast\n") == 0, "the stream folds: %s", buf);
	free(buf);
}

int main(void)
{
	grid_fold();
	fold_lines();
	return check_report("test_text_grid");
}

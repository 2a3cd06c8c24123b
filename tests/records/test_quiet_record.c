/* The record of quiet canary levels (quiet_record.h) on made-up files: the
 * machine's level is the second quietest of its newest SB_QUIET_RECENT runs,
 * other machines' lines are ignored, a malformed line is named, a missing
 * file is an empty record, adding creates the file (and its directories) and
 * cuts a long record to its newest half; and the busy-core line names a run
 * whose own quiet levels are beyond the machine's. Exact: no timing. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "busy_note.h"
#include "check.h"
#include "output/output.h"
#include "records/quiet_record.h"
#include "stubbench/results.h"

static char dir[] = "/tmp/quiet_record_XXXXXX";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static size_t count_lines(const char *path, char *last, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t n = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		snprintf(last, len, "%s", line);
	}
	fclose(f);
	return n;
}

int main(void)
{
	char path[256], err[1024], buf[1024];
	struct sb_quiet_reference ref;
	size_t lines;
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}

	/* Missing: an empty record. */
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK(sb_quiet_record_read(path, "M", &ref, &lines, err, sizeof(err)) == 0, "missing file: %s", err);
	CHECK(ref.runs == 0 && ref.adds == 0 && ref.window == 0 && lines == 0, "missing file: %zu runs %g %g",
	      ref.runs, ref.adds, ref.window);

	/* Second quietest, this machine only; comments and blank lines skipped. */
	snprintf(path, sizeof(path), "%s/q", dir);
	write_text(path, "# comment\n"
			 "M\t2026-12-01T00:00:00Z\t5.00\t63.0\n"
			 "Other\t2026-12-01T00:00:01Z\t9.90\t10.0\n"
			 "\n"
			 "M\t2026-12-01T00:00:02Z\t4.20\t75.0\n"
			 "M\t2026-12-01T00:00:03Z\t5.10\t62.5\n"
			 "M\t2026-12-01T00:00:04Z\t0\t61.0\n"
			 "M\t2026-12-01T00:00:05Z\t4.90\t0\n");
	CHECK(sb_quiet_record_read(path, "M", &ref, &lines, err, sizeof(err)) == 0, "read: %s", err);
	CHECK(ref.runs == 5 && lines == 8, "%zu runs of M, %zu lines", ref.runs, lines);
	CHECK(ref.adds == 5.00 && ref.window == 62.5, "second quietest: adds %g window %g", ref.adds, ref.window);
	CHECK(!strcmp(ref.since, "2026-12-01T00:00:00Z") && !strcmp(ref.path, path), "since '%s'", ref.since);
	/* One run: no level yet. */
	CHECK(sb_quiet_record_read(path, "Other", &ref, NULL, err, sizeof(err)) == 0 && ref.runs == 1 &&
		      ref.adds == 0 && ref.window == 0,
	      "one run of Other: %zu runs, %g %g", ref.runs, ref.adds, ref.window);

	/* The newest SB_QUIET_RECENT runs only: the quiet ones of the first
	 * six age out. */
	FILE *f = fopen(path, "w");
	for (int i = 0; i < SB_QUIET_RECENT + 6; i++)
		fprintf(f, "M\t2026-12-01T00:%02d:%02dZ\t%.2f\t%.1f\n", i / 60, i % 60, i < 6 ? 6.0 : 4.0 + 0.01 * i,
			i < 6 ? 50.0 : 80.0 - 0.1 * i);
	fclose(f);
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == 0, "read: %s", err);
	int newest = SB_QUIET_RECENT + 5;
	CHECK(ref.runs == SB_QUIET_RECENT, "%zu runs", ref.runs);
	CHECK(ref.adds > 4.0 + 0.01 * (newest - 1) - 1e-9 && ref.adds < 4.0 + 0.01 * (newest - 1) + 1e-9,
	      "adds %g", ref.adds);
	CHECK(ref.window > 80.0 - 0.1 * (newest - 1) - 1e-9 && ref.window < 80.0 - 0.1 * (newest - 1) + 1e-9,
	      "window %g", ref.window);
	CHECK(!strcmp(ref.since, "2026-12-01T00:00:06Z"), "since '%s'", ref.since);

	/* A malformed line is named, with its number. */
	write_text(path, "M\t2026-12-01T00:00:00Z\t5.00\t63.0\nM\t2026-12-01\t5.0\nM\tx\t1\t2\n");
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == -1 && strstr(err, path) &&
		      strstr(err, "line 2"),
	      "three fields: '%s'", err);
	write_text(path, "M\t2026-12-01T00:00:00Z\t5.00\t63x\n");
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == -1 && strstr(err, "line 1"),
	      "a bad number: '%s'", err);
	write_text(path, "M\t2026-12-01T00:00:00Z\t-5.00\t63\n");
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == -1, "a negative level was read");
	write_text(path, "M\t2026-12-01T00:00:00Z\t5000\t63\n");
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == -1 && strstr(err, "line 1"),
	      "5000 adds a cycle read as a quiet level");
	CHECK(sb_quiet_record_read(dir, "M", &ref, NULL, err, sizeof(err)) == -1 && strstr(err, dir),
	      "a directory: '%s'", err);

	/* Adding: the file and its directory are made, with the header. */
	snprintf(path, sizeof(path), "%s/state/quiet-levels", dir);
	CHECK(sb_quiet_record_add(path, "M", "2026-12-02T00:00:00Z", 5.05, 62.8, err, sizeof(err)) == 0, "add: %s",
	      err);
	CHECK(sb_quiet_record_add(path, "M", "2026-12-02T00:00:01Z", 4.25, 73.5, err, sizeof(err)) == 0, "add: %s",
	      err);
	char last[512] = "";
	CHECK(count_lines(path, last, sizeof(last)) == 3 && !strcmp(last, "M\t2026-12-02T00:00:01Z\t4.2500\t73.500\n"),
	      "after two adds, last line '%s'", last);
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == 0 && ref.runs == 2 &&
		      ref.adds == 4.25 && ref.window == 73.5,
	      "two runs: %zu, %g %g", ref.runs, ref.adds, ref.window);
	/* Missing directories are made; one that is a file is an error naming it. */
	char deep[300];
	snprintf(deep, sizeof(deep), "%s/a/b/quiet-levels", dir);
	CHECK(sb_quiet_record_add(deep, "M", "d", 5, 60, err, sizeof(err)) == 0, "two levels missing: '%s'", err);
	snprintf(deep, sizeof(deep), "%s/a/b/quiet-levels/c/quiet-levels", dir);
	CHECK(sb_quiet_record_add(deep, "M", "d", 5, 60, err, sizeof(err)) == -1 && strstr(err, "b/quiet-levels/c'"),
	      "a file for a directory: '%s'", err);

	/* A long record is cut to its newest half, then the run. */
	f = fopen(path, "w");
	for (int i = 0; i < SB_QUIET_MAX_LINES; i++)
		fprintf(f, "M\t2026-12-01T%02d:%02d:00Z\t5.0\t%d\n", i / 60, i % 60, 100 + i);
	fclose(f);
	CHECK(sb_quiet_record_add(path, "M", "2026-12-02T01:00:00Z", 5.0, 61.0, err, sizeof(err)) == 0, "add: %s",
	      err);
	size_t n = count_lines(path, last, sizeof(last));
	CHECK(n == 1 + SB_QUIET_MAX_LINES / 2 + 1 && !strcmp(last, "M\t2026-12-02T01:00:00Z\t5.0000\t61.000\n"),
	      "cut to %zu lines, last '%s'", n, last);
	CHECK(sb_quiet_record_read(path, "M", &ref, NULL, err, sizeof(err)) == 0 &&
		      ref.window == 100 + SB_QUIET_MAX_LINES - SB_QUIET_RECENT + 1,
	      "after the cut: window %g", ref.window);

	/* The busy-core line against the machine's levels. */
	struct sb_cell cell;
	struct sb_results r;
	memset(&r, 0, sizeof(r));
	r.cells = &cell;
	r.n_cells = 1;
	r.canary_median = r.canary_quiet = 5.0;
	r.window_median = r.window_quiet = 62.8;
	struct sb_quiet_reference m = {.adds = 5.0, .window = 62.8, .runs = 12, .since = "2026-12-01T00:00:00Z",
				       .path = "/x/quiet-levels"};
	CHECK(busy_note(&r, &m, buf, sizeof(buf)) == 0 && !buf[0], "a quiet run said '%s'", buf);
	CHECK(busy_note(&r, NULL, buf, sizeof(buf)) == 0, "no record: said '%s'", buf);
	/* Beside a busy sibling throughout: its own levels are busy ones (a
	 * note longer than a line: busy_note checks it is folded). */
	r.window_median = r.window_quiet = 73.5;
	CHECK(busy_note(&r, &m, buf, sizeof(buf)) == 1 && strlen(buf) > 100 &&
		      strstr(buf, "busy core: even this run's quietest blocks") &&
		      strstr(buf, "window canary at 73.5 cycles") && strstr(buf, "read 62.8 (") &&
		      strstr(buf, "12 runs since 2026-12-01T00:00:00Z in /x/quiet-levels") &&
		      !strstr(buf, "adds per cycle") && strchr(buf, '\n') == buf + strlen(buf) - 1,
	      "busy throughout said '%s'", buf);
	CHECK(busy_note(&r, NULL, buf, sizeof(buf)) == 0, "without the record it cannot know, yet said '%s'", buf);
	struct sb_quiet_reference unknown = m;
	unknown.window = unknown.adds = 0;
	CHECK(busy_note(&r, &unknown, buf, sizeof(buf)) == 0, "unknown levels said '%s'", buf);
	/* The edges: 105 % of the window level, 90 % of the add level. */
	r.window_median = r.window_quiet = 1.04 * 62.8;
	CHECK(busy_note(&r, &m, buf, sizeof(buf)) == 0, "104 %% of the window level said '%s'", buf);
	r.window_median = r.window_quiet = 62.8;
	r.canary_median = r.canary_quiet = 0.91 * 5.0;
	CHECK(busy_note(&r, &m, buf, sizeof(buf)) == 0, "91 %% of the add level said '%s'", buf);
	r.canary_median = r.canary_quiet = 4.25;
	CHECK(busy_note(&r, &m, buf, sizeof(buf)) == 1 && strstr(buf, "canary at 4.25 adds per cycle") &&
		      strstr(buf, "read 5.00 (") && !strstr(buf, "window canary at"),
	      "adds below the machine's said '%s'", buf);

	/* The machine's name: vendor, family, model, stepping, microcode (and a
	 * hybrid part's kind of core). */
	sb_quiet_record_machine(buf, sizeof(buf));
	int slashes = 0;
	for (const char *p = buf; *p; p++)
		slashes += *p == '/';
	CHECK((slashes == 4 || (slashes == 5 && strstr(buf, "/core-type-0x"))) && !strchr(buf, '\t') &&
		      !strchr(buf, ' '),
	      "machine '%s'", buf);

	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_report("quiet_record");
}

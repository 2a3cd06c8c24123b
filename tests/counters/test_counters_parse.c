/* test_counters_parse: the --counters=LIST parser (libpfm4 names). */
#include <string.h>

#include "check.h"
#include "counters/perf_counters.h"

static char names[SB_MAX_COUNTERS][SB_COUNTER_NAME_MAX];
static char err[512];

static int parse(const char *list)
{
	err[0] = '\0';
	memset(names, 0, sizeof(names));
	return sb_counters_parse(list, names, SB_MAX_COUNTERS, err, sizeof(err));
}

int main(void)
{
	int n;

	n = parse("cycles,instructions,branches");
	CHECK(n == 3, "got %d (%s)", n, err);
	CHECK(strcmp(names[0], "cycles") == 0, "names[0] = '%s'", names[0]);
	CHECK(strcmp(names[1], "instructions") == 0, "names[1] = '%s'", names[1]);
	CHECK(strcmp(names[2], "branches") == 0, "names[2] = '%s'", names[2]);

	/* software events, spaces around names, perf's other spellings */
	n = parse(" task-clock , context-switches,cpu-migrations ,branch-misses");
	CHECK(n == 4, "got %d (%s)", n, err);
	CHECK(strcmp(names[0], "task-clock") == 0, "names[0] = '%s'", names[0]);
	CHECK(strcmp(names[2], "cpu-migrations") == 0, "names[2] = '%s'", names[2]);
	n = parse("L1-icache-load-misses,iTLB-load-misses");
	CHECK(n == 2, "cache events: got %d (%s)", n, err);

	/* an empty list lists nothing */
	n = parse("");
	CHECK(n == 0, "empty list: got %d (%s)", n, err);

	/* unknown names: the error names the entry and says what to use */
	n = parse("cycles,nope");
	CHECK(n == -1, "unknown event accepted (%d)", n);
	CHECK(strstr(err, "unknown event 'nope'") != NULL, "err: %s", err);
	CHECK(strstr(err, "--counters") != NULL, "err does not name the option: %s", err);
	CHECK(strstr(err, "cycles") != NULL, "err suggests nothing: %s", err);
	CHECK(strchr(err, '\n') == NULL, "err is more than one line: %s", err);

	n = parse("cycles,,branches");
	CHECK(n == -1, "empty entry accepted (%d)", n);
	CHECK(strstr(err, "empty event name") != NULL, "err: %s", err);
	n = parse("cycles,");
	CHECK(n == -1, "trailing comma accepted (%d)", n);

	/* the same event twice, also under another name */
	n = parse("cycles,branches,cycles");
	CHECK(n == -1, "duplicate accepted (%d)", n);
	CHECK(strstr(err, "'cycles' is listed twice") != NULL, "err: %s", err);
	n = parse("context-switches,cs");
	CHECK(n == -1, "alias duplicate accepted (%d)", n);
	CHECK(strstr(err, "'cs' is listed twice") != NULL, "err: %s", err);

	/* more names than columns */
	n = parse("cycles,instructions,branches,branch-misses,task-clock,context-switches,"
		  "cpu-migrations,page-faults,L1-icache-load-misses");
	CHECK(n == -1, "9 events accepted (%d)", n);
	CHECK(strstr(err, "more than 8 events") != NULL, "err: %s", err);

	/* a name longer than a column name */
	n = parse("this-event-name-is-much-too-long-for-a-column");
	CHECK(n == -1, "long name accepted (%d)", n);
	CHECK(strstr(err, "longer than") != NULL, "err: %s", err);

	/* sb_counters_open refuses the same lists, with the same message */
	err[0] = '\0';
	struct sb_counter_set *s = sb_counters_open("instructions,bogus-event", err, sizeof(err));
	CHECK(s == NULL, "open accepted an unknown event");
	CHECK(strstr(err, "unknown event 'bogus-event'") != NULL, "err: %s", err);
	sb_counters_close(s);

	return check_report("counters_parse");
}

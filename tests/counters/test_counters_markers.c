/* test_counters_markers: likwid marker regions, built with likwid
 * (LIKWID_PERFMON, test counters_markers) and without it
 * (counters_markers_without_likwid); neither runs under likwid-perfctr.
 *
 * Region names follow the seed-format lines; the hooks count samples per
 * region; without a PMU or on a CPU likwid does not know the markers say
 * so in one line and stay off.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "counters/markers.h"

#ifdef LIKWID_PERFMON
#include <likwid.h>
#endif

static int sysfs_has_core_pmu(void)
{
	struct stat st;
	return stat("/sys/bus/event_source/devices/cpu", &st) == 0 ||
	       stat("/sys/bus/event_source/devices/cpu_core", &st) == 0;
}

static void fake_likwid_perfctr_env(int on)
{
	static const char *const vars[] = {"LIKWID_MODE", "LIKWID_EVENTS", "LIKWID_THREADS",
					   "LIKWID_FILEPATH"};
	static const char *const vals[] = {"1", "BRANCH", "0", "/tmp/stubbench_no_such_likwid"};
	for (int i = 0; i < 4; i++) {
		if (on)
			setenv(vars[i], vals[i], 1);
		else
			unsetenv(vars[i]);
	}
}

int main(void)
{
	char buf[SB_MARKER_NAME_MAX], err[256] = "";

	CHECK(sb_markers_region_name(buf, sizeof(buf), "private-stack", 64) == 0 &&
		      strcmp(buf, "private-stack-64") == 0, "got '%s'", buf);
	CHECK(sb_markers_region_name(buf, sizeof(buf), "no-private-stack", 8) == 0 &&
		      strcmp(buf, "no-private-stack-8") == 0, "got '%s'", buf);
	CHECK(sb_markers_region_name(buf, 8, "private-stack", 4096) == -1, "too long accepted");
	CHECK(sb_markers_region_name(buf, sizeof(buf), NULL, 1) == -1, "NULL seed name accepted");
	CHECK(sb_markers_region_name(buf, sizeof(buf), "", 1) == -1, "empty seed name accepted");

	const struct sb_arm arms[4] = {
		{.name = "overhead", .seed_name = "overhead", .is_overhead = 1},
		{.name = "baseline", .seed_name = "no-private-stack"},
		{.name = "private", .seed_name = "private-stack"},
		{.name = "hybrid", .seed_name = "hybrid"},
	};
	const uint64_t batches[3] = {1, 8, 64};

	fake_likwid_perfctr_env(0);
	struct sb_markers *m = sb_markers_open(arms, 4, batches, 3, err, sizeof(err));
	CHECK(m != NULL, "open: %s", err);
	if (!m)
		return check_report("counters_markers");
	CHECK(sb_markers_name(m, 0, 0) == NULL, "the overhead arm has a region");
	CHECK(sb_markers_name(m, 1, 1) && strcmp(sb_markers_name(m, 1, 1), "no-private-stack-8") == 0,
	      "got %s", sb_markers_name(m, 1, 1));
	CHECK(sb_markers_name(m, 2, 2) && strcmp(sb_markers_name(m, 2, 2), "private-stack-64") == 0,
	      "got %s", sb_markers_name(m, 2, 2));
	CHECK(sb_markers_name(m, 3, 0) && strcmp(sb_markers_name(m, 3, 0), "hybrid-1") == 0,
	      "got %s", sb_markers_name(m, 3, 0));
	CHECK(sb_markers_name(m, 4, 0) == NULL && sb_markers_name(m, 1, 3) == NULL,
	      "names past the end");
	CHECK(!sb_markers_live(m), "live without likwid-perfctr");
	printf("status: %s\n", sb_markers_status(m));

	/* the hooks run (regions off) and count samples per region */
	for (int round = 0; round < 3; round++)
		for (size_t b = 0; b < 3; b++)
			for (size_t a = 0; a < 4; a++) {
				sb_markers_before_sample(m, a, b);
				sb_markers_after_sample(m, a, b);
			}
	sb_markers_before_sample(m, 9, 9); /* out of range: ignored */
	sb_markers_after_sample(m, 9, 9);
	CHECK(sb_markers_count(m, 2, 2) == 3, "private-stack-64 count %llu",
	      (unsigned long long)sb_markers_count(m, 2, 2));
	CHECK(sb_markers_count(m, 0, 0) == 0, "overhead counted");

	const char *note = sb_markers_note(m);
	int can_fake_perfctr = 1;
#ifdef LIKWID_PERFMON
	printf("built with likwid\n");
	CHECK(strstr(sb_markers_status(m), "likwid marker regions: off") != NULL, "status: %s",
	      sb_markers_status(m));
	/* Ask likwid and sysfs independently what stands in the way here. */
	int cpu_unknown = 1;
	if (topology_init() == 0) {
		CpuInfo_t ci = get_cpuInfo();
		cpu_unknown = !ci->short_name || strcmp(ci->short_name, "unknown") == 0;
		topology_finalize();
	}
	int pmu = sysfs_has_core_pmu();
	printf("this machine: likwid %s the CPU, %s\n", cpu_unknown ? "does not know" : "knows",
	       pmu ? "core PMU present" : "no core PMU");
	if (cpu_unknown || !pmu) {
		CHECK(note != NULL, "no note although counters are unavailable");
		if (note) {
			printf("note: %s\n", note);
			CHECK(strchr(note, '\n') == NULL, "note is more than one line");
			CHECK(strncmp(note, "hardware counters unavailable: ", 31) == 0, "note: %s", note);
			if (cpu_unknown)
				CHECK(strstr(note, "likwid does not know this CPU") != NULL &&
					      strstr(note, "Unsupported Processor") != NULL,
				      "note: %s", note);
			if (!pmu)
				CHECK(strstr(note, "no PMU") != NULL, "note: %s", note);
		}
	} else {
		CHECK(note == NULL, "note although likwid can count: %s", note);
		can_fake_perfctr = 0;
	}
#else
	printf("built without likwid\n");
	CHECK(note == NULL, "note without likwid-perfctr: %s", note);
	CHECK(strstr(sb_markers_status(m), "not built in") != NULL, "status: %s",
	      sb_markers_status(m));
	(void)sysfs_has_core_pmu;
#endif
	sb_markers_close(m);

	/* As if wrapped by likwid-perfctr -m (environment only). With likwid
	 * built in, only where likwid cannot count: elsewhere the made-up
	 * environment would start real counters. */
	fake_likwid_perfctr_env(1);
	m = can_fake_perfctr ? sb_markers_open(arms, 4, batches, 3, err, sizeof(err)) : NULL;
	CHECK(m != NULL || !can_fake_perfctr, "open under likwid-perfctr env: %s", err);
	if (m) {
		note = sb_markers_note(m);
#ifdef LIKWID_PERFMON
		/* regions stay off and the note still explains */
		CHECK(!sb_markers_live(m) && note != NULL, "live %d, note %s", sb_markers_live(m),
		      note ? note : "(none)");
#else
		CHECK(!sb_markers_live(m), "live without likwid");
		CHECK(note && strstr(note, "built without likwid") != NULL, "note: %s",
		      note ? note : "(none)");
		if (note)
			printf("note under likwid-perfctr: %s\n", note);
#endif
		sb_markers_close(m);
	}
	fake_likwid_perfctr_env(0);

	/* A seed name too long for a region name is refused. */
	char longname[80];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	const struct sb_arm bad[1] = {{.name = "x", .seed_name = longname}};
	m = sb_markers_open(bad, 1, batches, 1, err, sizeof(err));
	CHECK(m == NULL && strstr(err, "too long") != NULL, "err: %s", err);
	sb_markers_close(m);

	return check_report("counters_markers");
}

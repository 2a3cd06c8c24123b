/* markers.c: likwid marker regions "<seed name>-<batch>" around samples. */
#include "counters/markers.h"
#include "base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <likwid-marker.h> /* every LIKWID_MARKER_* is empty without LIKWID_PERFMON */

struct sb_markers {
	size_t n_arms, n_batches;
	char (*names)[SB_MARKER_NAME_MAX]; /* n_arms x n_batches, "" = no region */
	uint64_t *counts;                  /* samples started per region */
	int live;
	char note[512];
	char status[384];
};

int sb_markers_region_name(char *buf, size_t len, const char *seed_name, uint64_t batch)
{
	if (!seed_name || !*seed_name)
		return -1;
	int n = snprintf(buf, len, "%s-%llu", seed_name, (unsigned long long)batch);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* likwid-perfctr -m passes its setup to the program in these variables. */
static int under_likwid_perfctr(void)
{
	return getenv("LIKWID_MODE") && getenv("LIKWID_EVENTS") && getenv("LIKWID_THREADS") &&
	       getenv("LIKWID_FILEPATH");
}

#ifdef LIKWID_PERFMON
/* Linux lists the core PMU as "cpu" (or "cpu_core"/"cpu_atom" on hybrid
 * parts); a VM without a virtual PMU has none of them. */
static int kernel_has_core_pmu(void)
{
	static const char *const dirs[] = {
		"/sys/bus/event_source/devices/cpu",
		"/sys/bus/event_source/devices/cpu_core",
		"/sys/bus/event_source/devices/cpu_atom",
	};
	struct stat st;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (stat(dirs[i], &st) == 0)
			return 1;
	return 0;
}

/* Why likwid cannot count here, or "" when it can. */
static void likwid_obstacle(char *why, size_t len)
{
	why[0] = '\0';
	if (topology_init() != 0) {
		snprintf(why, len, "likwid cannot read the CPU topology");
		return;
	}
	CpuInfo_t ci = get_cpuInfo();
	int unknown = !ci || !ci->short_name || strcmp(ci->short_name, "unknown") == 0;
	int pmu = kernel_has_core_pmu();
	if (unknown || !pmu) {
		char cpu[160] = "";
		if (ci)
			snprintf(cpu, sizeof(cpu), "%s, family %u model 0x%x",
				 ci->osname ? ci->osname : "?", ci->family, ci->model);
		snprintf(why, len, "%s%s%s%s%s",
			 unknown ? "likwid does not know this CPU (" : "", unknown ? cpu : "",
			 unknown ? ": \"Unsupported Processor\")" : "",
			 unknown && !pmu ? " and " : "",
			 pmu ? "" : "the kernel exposes no PMU (no /sys/bus/event_source/devices/cpu)");
	}
	topology_finalize();
}
/* The marker API is started once per process and closed at exit: closing
 * writes the file likwid-perfctr reads, and a second init/close would
 * replace the regions of earlier groups with those of the last. */
static void close_likwid(void)
{
	LIKWID_MARKER_CLOSE;
}

static void start_likwid_once(void)
{
	static int started;
	if (started)
		return;
	started = 1;
	LIKWID_MARKER_INIT;
	LIKWID_MARKER_THREADINIT;
	atexit(close_likwid);
}
#endif

struct sb_markers *sb_markers_open(const struct sb_arm *arms, size_t n_arms,
				   const uint64_t *batches, size_t n_batches, char *err, size_t errlen)
{
	struct sb_markers *m = calloc(1, sizeof(*m));
	size_t n = n_arms * n_batches > 0 ? n_arms * n_batches : 1;
	if (m) {
		m->names = calloc(n, sizeof(*m->names));
		m->counts = calloc(n, sizeof(*m->counts));
	}
	if (!m || !m->names || !m->counts) {
		if (m) {
			free(m->names);
			free(m->counts);
		}
		free(m);
		sb_set_err(err, errlen, "likwid markers: out of memory for %zu regions", n);
		return NULL;
	}
	m->n_arms = n_arms;
	m->n_batches = n_batches;
	size_t n_regions = 0;
	for (size_t a = 0; a < n_arms; a++) {
		if (arms[a].is_overhead || !arms[a].seed_name || !*arms[a].seed_name)
			continue;
		for (size_t b = 0; b < n_batches; b++) {
			if (sb_markers_region_name(m->names[a * n_batches + b], SB_MARKER_NAME_MAX,
						   arms[a].seed_name, batches[b])) {
				sb_set_err(err, errlen, "likwid markers: region name '%s-%llu' is too long",
					arms[a].seed_name, (unsigned long long)batches[b]);
				sb_markers_close(m);
				return NULL;
			}
			n_regions++;
		}
	}

#ifdef LIKWID_PERFMON
	char why[320];
	likwid_obstacle(why, sizeof(why));
	if (why[0]) {
		/* With a PMU, perf_event counts what likwid would have. */
		snprintf(m->note, sizeof(m->note),
			 "hardware counters unavailable: %s; likwid marker regions off, timings unaffected%s",
			 why, kernel_has_core_pmu() ? "; --counters=cycles,instructions counts instead" : "");
		snprintf(m->status, sizeof(m->status), "likwid marker regions: off (%s)", why);
	} else if (!under_likwid_perfctr()) {
		snprintf(m->status, sizeof(m->status),
			 "likwid marker regions: off (not run under likwid-perfctr -m)");
	} else {
		start_likwid_once();
		for (size_t i = 0; i < n_arms * n_batches; i++)
			if (m->names[i][0]) {
				LIKWID_MARKER_REGISTER(m->names[i]);
			}
		m->live = 1;
		snprintf(m->status, sizeof(m->status), "likwid marker regions: live, %zu regions",
			 n_regions);
	}
#else
	if (under_likwid_perfctr())
		snprintf(m->note, sizeof(m->note),
			 "hardware counters unavailable: stubbench was built without likwid "
			 "(STUBBENCH_LIKWID=OFF), so likwid-perfctr -m sees no regions");
	snprintf(m->status, sizeof(m->status),
		 "likwid marker regions: not built in (STUBBENCH_LIKWID=OFF), %zu regions named",
		 n_regions);
#endif
	return m;
}

int sb_markers_live(const struct sb_markers *m)
{
	return m && m->live;
}

const char *sb_markers_note(const struct sb_markers *m)
{
	return m && m->note[0] ? m->note : NULL;
}

const char *sb_markers_status(const struct sb_markers *m)
{
	return m ? m->status : "likwid marker regions: none";
}

const char *sb_markers_name(const struct sb_markers *m, size_t arm, size_t batch_idx)
{
	if (!m || arm >= m->n_arms || batch_idx >= m->n_batches)
		return NULL;
	const char *name = m->names[arm * m->n_batches + batch_idx];
	return name[0] ? name : NULL;
}

void sb_markers_before_sample(void *ctx, size_t arm, size_t batch_idx)
{
	struct sb_markers *m = ctx;
	const char *name = sb_markers_name(m, arm, batch_idx);
	if (!name)
		return;
	m->counts[arm * m->n_batches + batch_idx]++;
	if (m->live) {
		LIKWID_MARKER_START(name);
	}
}

void sb_markers_after_sample(void *ctx, size_t arm, size_t batch_idx)
{
	struct sb_markers *m = ctx;
	const char *name = sb_markers_name(m, arm, batch_idx);
	if (name && m->live) {
		LIKWID_MARKER_STOP(name);
	}
}

uint64_t sb_markers_count(const struct sb_markers *m, size_t arm, size_t batch_idx)
{
	if (!sb_markers_name(m, arm, batch_idx))
		return 0;
	return m->counts[arm * m->n_batches + batch_idx];
}

void sb_markers_close(struct sb_markers *m)
{
	if (!m)
		return;
	free(m->names);
	free(m->counts);
	free(m);
}

/* quiet_record.c: see quiet_record.h. */
#include "records/quiet_record.h"
#include "base/cpu_signature.h"
#include "base/machine_name.h"

#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/record_file.h"
#include "base/run_info.h"

static const char header[] = "# stubbench quiet levels: one line per run: machine, date (UTC), the add canary's "
			     "quiet level (adds per cycle), the window canary's (cycles an iteration)\n";

static const char *record_in_use, *record_missing;

void sb_quiet_record_use(const char *path, const char *why_none)
{
	record_in_use = path;
	record_missing = path ? NULL : why_none;
}

const char *sb_quiet_record_in_use(const char **why_none)
{
	*why_none = record_missing;
	record_missing = NULL;
	return record_in_use;
}

const char *sb_quiet_record_path(void)
{
	return record_in_use;
}

/* The microcode revision of /proc/cpuinfo's first CPU, or "-". */
static void microcode(char *buf, size_t len)
{
	sb_cpu_microcode(buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
}

void sb_quiet_record_machine(char *buf, size_t len)
{
	unsigned a = 0, b = 0, c = 0, d = 0;
	struct sb_cpu_signature sig;
	sb_cpu_signature(&sig);
	char ucode[32];
	microcode(ucode, sizeof(ucode));
	int n = snprintf(buf, len, "%s/%u/%u/%u/%s", sig.vendor, sig.family, sig.model, sig.stepping, ucode);
	/* A hybrid part (CPUID 7 EDX bit 15) has cores of two kinds with
	 * levels of their own: the kind this thread runs on (CPUID 0x1a EAX
	 * bits 31-24: 0x20 Atom, 0x40 Core), as the run is pinned. */
	if (n > 0 && (size_t)n < len && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d & (1u << 15)) &&
	    __get_cpuid_count(0x1a, 0, &a, &b, &c, &d))
		snprintf(buf + n, len - (size_t)n, "/core-type-0x%02x", a >> 24);
}

/* One record line "MACHINE\tDATE\tADDS\tWINDOW" (no newline) into its
 * fields, pointing into line (which it changes). 0, or -1 malformed. */
static int split(char *line, char **machine, char **date, double *adds, double *window)
{
	char *f[4];
	if (sb_record_file_fields(line, f, 4) != 0)
		return -1;
	double v[2];
	for (int i = 0; i < 2; i++) {
		char *end;
		errno = 0;
		v[i] = strtod(f[2 + i], &end);
		/* Physical bounds: a core adds at most a few times a cycle (64
		 * allowed), a window canary takes under 1e6 cycles. */
		if (end == f[2 + i] || *end || errno || !(v[i] >= 0) || v[i] > (i == 0 ? 64 : 1e6))
			return -1;
	}
	if (!*f[0] || !*f[1])
		return -1;
	*machine = f[0];
	*date = f[1];
	*adds = v[0];
	*window = v[1];
	return 0;
}

/* The second largest of n values (v[i] > 0 only), or 0 with fewer than two. */
static double second(const double *v, size_t n, int largest)
{
	double best = 0, next = 0;
	for (size_t i = 0; i < n; i++) {
		double x = largest ? v[i] : -v[i];
		if (!(v[i] > 0))
			continue;
		if (!best || x > best) {
			next = best;
			best = x;
		} else if (!next || x > next)
			next = x;
	}
	return largest ? next : -next;
}

int sb_quiet_record_read(const char *path, const char *machine, struct sb_quiet_reference *ref, size_t *lines,
			 char *err, size_t errlen)
{
	memset(ref, 0, sizeof(*ref));
	ref->path = path;
	if (lines)
		*lines = 0;
	char *text;
	if (sb_record_file_read(path, SB_QUIET_MAX_BYTES, &text, err, errlen) != 0)
		return -1;
	if (!text)
		return 0;
	double adds[SB_QUIET_RECENT], window[SB_QUIET_RECENT];
	char dates[SB_QUIET_RECENT][32];
	size_t n = 0, number = 0;
	for (char *at = text, *line; (line = sb_record_file_line(&at));) {
		number++;
		if (line[0] == '#' || !line[0])
			continue;
		char *m, *date;
		double a, w;
		if (split(line, &m, &date, &a, &w) != 0) {
			snprintf(err, errlen,
				 "'%s' line %zu: not a record line (machine, date, adds per cycle, window cycles, "
				 "tab-separated)", path, number);
			free(text);
			return -1;
		}
		if (strcmp(m, machine))
			continue;
		/* The newest SB_QUIET_RECENT, in a ring. */
		size_t k = n % SB_QUIET_RECENT;
		adds[k] = a;
		window[k] = w;
		snprintf(dates[k], sizeof(dates[k]), "%.31s", date);
		n++;
	}
	free(text);
	if (lines)
		*lines = number;
	size_t kept = n < SB_QUIET_RECENT ? n : SB_QUIET_RECENT;
	ref->runs = kept;
	ref->adds = second(adds, kept, 1);
	ref->newest_adds = n ? adds[(n - 1) % SB_QUIET_RECENT] : 0;
	ref->window = second(window, kept, 0);
	if (kept)
		snprintf(ref->since, sizeof(ref->since), "%.31s", dates[n <= SB_QUIET_RECENT ? 0 : n % SB_QUIET_RECENT]);
	return 0;
}

int sb_quiet_record_add(const char *path, const char *machine, const char *date, double adds, double window,
			char *err, size_t errlen)
{
	char line[256];
	snprintf(line, sizeof(line), "%s\t%s\t%.4f\t%.3f\n", machine, date, adds > 0 ? adds : 0,
		 window > 0 ? window : 0);
	return sb_record_file_append(path, header, line, SB_QUIET_MAX_LINES, SB_QUIET_MAX_BYTES, err, errlen);
}

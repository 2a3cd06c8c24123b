/* quiet_record.c: see quiet_record.h. */
#include "stubbench/quiet_record.h"
#include "stubbench/cpu_signature.h"

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stubbench/read_file.h"
#include "stubbench/run_info.h"

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

/* The microcode revision of /proc/cpuinfo's first CPU, or "-". */
static void microcode(char *buf, size_t len)
{
	snprintf(buf, len, "-");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[256];
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "microcode", 9))
			continue;
		const char *v = strchr(line, ':');
		if (v) {
			v += strspn(v + 1, " \t") + 1;
			snprintf(buf, len, "%.*s", (int)strcspn(v, " \t\n"), v);
		}
		break;
	}
	fclose(f);
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

int sb_quiet_record_default(char *buf, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && *state)
		snprintf(buf, len, "%s/stubbench/quiet-levels", state);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/state/stubbench/quiet-levels", home);
	else
		return -1;
	return 0;
}

/* One record line "MACHINE\tDATE\tADDS\tWINDOW" (no newline) into its
 * fields, pointing into line (which it changes). 0, or -1 malformed. */
static int split(char *line, char **machine, char **date, double *adds, double *window)
{
	char *f[4];
	for (int i = 0; i < 4; i++) {
		f[i] = line;
		line = strchr(line, '\t');
		if ((i < 3) != (line != NULL))
			return -1;
		if (line)
			*line++ = '\0';
	}
	double v[2];
	for (int i = 0; i < 2; i++) {
		char *end;
		errno = 0;
		v[i] = strtod(f[2 + i], &end);
		if (end == f[2 + i] || *end || errno || !(v[i] >= 0) || v[i] > 1e6)
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
	struct stat st;
	if (stat(path, &st) != 0 && errno == ENOENT)
		return 0;
	char why[256];
	char *text = sb_read_file(path, SB_QUIET_MAX_BYTES, NULL, why, sizeof(why));
	if (!text) {
		snprintf(err, errlen, "cannot read '%s': %s", path, why);
		return -1;
	}
	double adds[SB_QUIET_RECENT], window[SB_QUIET_RECENT];
	char dates[SB_QUIET_RECENT][32];
	size_t n = 0, number = 0;
	for (char *line = text, *next; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
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
	ref->window = second(window, kept, 0);
	if (kept)
		snprintf(ref->since, sizeof(ref->since), "%.31s", dates[n <= SB_QUIET_RECENT ? 0 : n % SB_QUIET_RECENT]);
	return 0;
}

/* Creates the directories that hold path, when missing (mkdir -p). */
static int make_dir_of(const char *path, char *err, size_t errlen)
{
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create the directory '%s': %s", dir, strerror(errno));
			return -1;
		}
		*p = c;
		if (!c)
			return 0;
	}
}

/* Rewrites path, whose text holds total lines, with its newest keep lines
 * (comments dropped) and line. */
static int cut(const char *path, const char *text, size_t total, size_t keep, const char *line, char *err,
	       size_t errlen)
{
	const char *from = text;
	for (size_t skip = total > keep ? total - keep : 0; skip && *from; from++)
		skip -= *from == '\n';
	char tmp[1100];
	snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
		return -1;
	}
	fputs(header, f);
	for (const char *p = from; *p;) {
		size_t l = strcspn(p, "\n");
		if (*p != '#')
			fprintf(f, "%.*s\n", (int)l, p);
		p += l + (p[l] == '\n');
	}
	fputs(line, f);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int sb_quiet_record_add(const char *path, const char *machine, const char *date, double adds, double window,
			char *err, size_t errlen)
{
	char line[256];
	snprintf(line, sizeof(line), "%s\t%s\t%.4f\t%.3f\n", machine, date, adds > 0 ? adds : 0,
		 window > 0 ? window : 0);
	struct stat st;
	int exists = stat(path, &st) == 0;
	if (!exists && make_dir_of(path, err, errlen) != 0)
		return -1;
	if (exists) {
		char why[256];
		char *text = sb_read_file(path, SB_QUIET_MAX_BYTES, NULL, why, sizeof(why));
		if (!text) {
			snprintf(err, errlen, "cannot read '%s': %s", path, why);
			return -1;
		}
		size_t lines = 0;
		for (const char *p = text; *p; p++)
			lines += *p == '\n';
		int rc = 0, cutting = lines >= SB_QUIET_MAX_LINES;
		if (cutting)
			rc = cut(path, text, lines, SB_QUIET_MAX_LINES / 2, line, err, errlen);
		free(text);
		if (cutting)
			return rc;
	}
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	if (fd < 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	/* One write each, so that runs finishing together do not mix lines. */
	ssize_t w = exists ? 0 : write(fd, header, sizeof(header) - 1);
	if (w >= 0)
		w = write(fd, line, strlen(line));
	int saved = errno;
	close(fd);
	if (w != (ssize_t)strlen(line)) {
		snprintf(err, errlen, "cannot write '%s': %s", path, w < 0 ? strerror(saved) : "short write");
		return -1;
	}
	return 0;
}

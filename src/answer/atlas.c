/* atlas.c: this run's machine among the atlas's; see atlas.h. */
#include "answer/atlas.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "answer/answer.h"
#include "base/machine_name.h"

#define ATLAS_MAX_RUNS 64

const char *sb_atlas_dir(void)
{
	const char *env = getenv("STUBBENCH_ATLAS");
	if (env && *env)
		return strcmp(env, "none") == 0 ? NULL : env;
	return SB_SOURCE_DIR "/results/atlas";
}

int sb_atlas_holds(const char *dir, const char *path)
{
	char d[PATH_MAX], f[PATH_MAX];
	if (!dir || !realpath(dir, d) || !realpath(path, f))
		return 0;
	size_t n = strlen(d);
	return strncmp(f, d, n) == 0 && f[n] == '/' && !strchr(f + n + 1, '/');
}

/* A machine kind's short name: its microarchitecture, else its model string. */
static void kind_of(const struct sb_run_file *rf, char *buf, size_t len)
{
	const char *uarch = sb_machine_microarchitecture(&rf->id);
	if (uarch)
		snprintf(buf, len, "%s", uarch);
	else if (rf->id.known)
		snprintf(buf, len, "%s %x/0x%02x", sb_cpu_vendor_name(rf->id.sig.vendor), rf->id.sig.family,
			 rf->id.sig.model);
	else
		sb_answer_cpu_name(rf->machine, buf, len);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The atlas's files, sorted; returns how many (at most max). */
static size_t atlas_files(const char *dir, char **names, size_t max)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	if (!d)
		return 0;
	for (struct dirent *e; n < max && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (l > 5 && strcmp(e->d_name + l - 5, ".json") == 0 && (names[n] = strdup(e->d_name)))
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	return n;
}

/* ", Zen 4 +2.82" for the atlas run at path, when it has variant at batch
 * and is another machine kind than here. */
static void entry(const char *path, const char *here, const struct sb_run_row *like, char *out, size_t len)
{
	struct sb_run_file rf;
	char err[512], kind[160], cyc[48];
	out[0] = 0;
	if (sb_run_file_load(path, &rf, err, sizeof(err)) != 0)
		return;
	kind_of(&rf, kind, sizeof(kind));
	const struct sb_run_row *r = sb_run_file_find(&rf, like->variant, like->batch);
	if (r && strcmp(kind, here) != 0 && sb_run_variant_row(r)) {
		struct sb_estimate e = sb_run_added_cycles(&rf, r);
		if (sb_estimate_known(&e) && e.value == e.value) {
			snprintf(cyc, sizeof(cyc), "%+.2f", e.value);
			snprintf(out, len, ", %s %s", kind, cyc);
		}
	}
	sb_run_file_free(&rf);
}

int sb_atlas_line(FILE *f, const struct sb_run_file *rf, const char *dir)
{
	const struct sb_run_row *like = dir ? sb_answer_first_variant(rf) : NULL;
	if (!like)
		return 0;
	char *names[ATLAS_MAX_RUNS], here[160], line[320], path[4096];
	static char ones[ATLAS_MAX_RUNS][256];
	kind_of(rf, here, sizeof(here));
	size_t n = atlas_files(dir, names, ATLAS_MAX_RUNS), k = 0, all = 0;
	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		entry(path, here, like, ones[k], sizeof(ones[k]));
		free(names[i]);
		all += strlen(ones[k]);
		k += ones[k][0] != 0;
	}
	if (!k)
		return 0;
	int len = snprintf(line, sizeof(line), "%s elsewhere (cycles, a run each):", like->variant);
	/* As many as fit, and how many more there are (", 9 more": 8 columns). */
	size_t room = SB_ANSWER_MAX_COLUMNS - (len + all <= SB_ANSWER_MAX_COLUMNS ? 0 : 8), shown = 0;
	int minus = 0; /* a negative entry shown: the line says what its sign means where that fits */
	for (size_t i = 0; i < k; i++)
		if (strlen(line) + strlen(ones[i]) - (shown ? 0 : 1) <= room) {
			strcat(line, shown ? ones[i] : ones[i] + 1);
			minus |= strstr(ones[i], " -") != NULL;
			shown++;
		}
	if (shown < k)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), "%s%zu more", shown ? ", " : " ", k - shown);
	fprintf(f, "%s%s\n", line, minus && strlen(line) + 17 <= SB_ANSWER_MAX_COLUMNS ? "; below 0: faster" : "");
	return 1;
}

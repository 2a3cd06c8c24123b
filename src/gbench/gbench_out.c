/* gbench_out.c: Google Benchmark's argv and its --benchmark_out; see
 * gbench_out.h. */
#include "gbench_out.h"

#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/read_file.h"
#include "base/safe_file.h"

/* --benchmark_out=FILE: the library writes a temporary beside FILE (made
 * by safe_file.c), renamed over FILE once the run ended well and the
 * temporary is whole; out_arg is the flag the library gets instead. */
static struct sb_safe_file out_file;
static int out_active, out_json = 1;
static char out_arg[SB_SAFE_FILE_PATH_MAX + 32];

/* The value of --NAME=VALUE in arg, or NULL. */
static const char *flag_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, "--", 2) == 0 && strncmp(arg + 2, name, n) == 0 && arg[2 + n] == '=' ? arg + 3 + n
												   : NULL;
}

char **sb_gbench_out_argv(int n_flags, char **flags, int *argc, char *err, size_t errlen)
{
	static char interleave[] = "--benchmark_enable_random_interleaving=true";
	char **av = calloc((size_t)n_flags + 2, sizeof(*av));
	if (!av) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	int n = 0, out = -1, last_out = -1;
	for (int i = 1; i < n_flags; i++)
		if (flag_value(flags[i], "benchmark_out"))
			last_out = i;
	av[n++] = flags[0];
	av[n++] = interleave;
	for (int i = 1; i < n_flags; i++) {
		const char *v;
		if (flag_value(flags[i], "benchmark_out")) {
			if (i != last_out)
				continue; /* the library takes the last one only */
			out = n;
		}
		if ((v = flag_value(flags[i], "benchmark_out_format")))
			out_json = strcmp(v, "json") == 0;
		av[n++] = flags[i];
	}
	av[n] = NULL;
	*argc = n;
	const char *path = out >= 0 ? flag_value(av[out], "benchmark_out") : NULL;
	if (path && *path) {
		char why[SB_SAFE_FILE_PATH_MAX + 200];
		if (sb_safe_file_open(&out_file, path, 0, why, sizeof(why)) != 0 ||
		    sb_safe_file_detach(&out_file, why, sizeof(why)) != 0) {
			if (out_file.tmp[0])
				sb_safe_file_abort(&out_file);
			snprintf(err, errlen, "--benchmark_out: %s", why);
			free(av);
			return NULL;
		}
		out_active = 1;
		snprintf(out_arg, sizeof(out_arg), "--benchmark_out=%s", out_file.tmp);
		av[out] = out_arg;
	}
	return av;
}

/* The library's output file whole? JSON: one object and nothing after it;
 * CSV or console: ends with a newline. */
static int out_complete(const char *path, char *why, size_t whylen)
{
	size_t len;
	char *text = sb_read_file(path, (size_t)1 << 30, &len, why, whylen);
	if (!text)
		return 0;
	int ok = len > 0 && text[len - 1] == '\n';
	if (ok && out_json) {
		struct json_tokener *tok = json_tokener_new();
		struct json_object *doc = tok ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
		size_t end = tok ? json_tokener_get_parse_end(tok) : 0;
		while (end < len && isspace((unsigned char)text[end]))
			end++;
		ok = doc && json_object_is_type(doc, json_type_object) && end == len;
		json_object_put(doc);
		if (tok)
			json_tokener_free(tok);
	}
	if (!ok)
		snprintf(why, whylen, "%s", len ? "cut short (a full disk?)" : "empty");
	free(text);
	return ok;
}

int sb_gbench_out_finish(int rc)
{
	if (!out_active)
		return rc;
	out_active = 0;
	char why[SB_SAFE_FILE_PATH_MAX + 200];
	if (rc != 0) {
		sb_safe_file_abort(&out_file);
		return rc;
	}
	if (!out_complete(out_file.tmp, why, sizeof(why))) {
		sb_safe_file_abort(&out_file);
		fprintf(stderr, "stubbench-gbench: --benchmark_out: '%s' not written: Google Benchmark's output was %s\n",
			out_file.path, why);
		return 1;
	}
	if (sb_safe_file_commit(&out_file, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench-gbench: --benchmark_out: %s\n", why);
		return 1;
	}
	return 0;
}

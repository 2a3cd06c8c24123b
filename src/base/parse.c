/* parse.c: option values; see parse.h. */
#include "stubbench/parse.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sb_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t *out, char *err, size_t errlen)
{
	const char *p = s ? s : "";
	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p)) {
		snprintf(err, errlen, "%s: '%s' is not a whole number", opt, s ? s : "");
		return -1;
	}
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno == ERANGE) {
		snprintf(err, errlen, "%s: '%s' is too large", opt, s);
		return -1;
	}
	if (*end) {
		snprintf(err, errlen, "%s: '%s' is not a whole number", opt, s);
		return -1;
	}
	if (v < min) {
		snprintf(err, errlen, "%s: '%s' is below the minimum %llu", opt, s, (unsigned long long)min);
		return -1;
	}
	*out = v;
	return 0;
}

int sb_parse_u64_range(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		       char *err, size_t errlen)
{
	uint64_t v;
	char sub[512];
	if (sb_parse_u64(opt, s, min, &v, sub, sizeof(sub)) != 0) {
		/* A number too large for 64 bits is above the bound too. */
		if (strstr(sub, "is too large"))
			snprintf(err, errlen, "%s: '%s' is above the maximum %llu", opt, s,
				 (unsigned long long)max);
		else
			snprintf(err, errlen, "%s", sub);
		return -1;
	}
	if (v > max) {
		snprintf(err, errlen, "%s: '%s' is above the maximum %llu", opt, s, (unsigned long long)max);
		return -1;
	}
	*out = v;
	return 0;
}

int sb_parse_samples(const char *opt, const char *s, uint64_t min, uint64_t *out, char *err,
		     size_t errlen)
{
	return sb_parse_u64_range(opt, s, min, SB_MAX_SAMPLES, out, err, errlen);
}

int sb_parse_calls(const char *opt, const char *s, uint64_t *out, char *err, size_t errlen)
{
	return sb_parse_u64_range(opt, s, 1, SB_MAX_CALLS, out, err, errlen);
}

int sb_parse_seconds(const char *opt, const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = s && *s ? strtod(s, &end) : NAN;
	if (!s || !*s || *end || (errno && errno != ERANGE) || isnan(v) || v <= 0) {
		snprintf(err, errlen, "%s: '%s' is not a positive number of seconds", opt, s ? s : "");
		return -1;
	}
	if (!isfinite(v) || v > SB_MAX_TIME_S) {
		snprintf(err, errlen, "%s: '%s' is above the maximum %.0f seconds", opt, s, SB_MAX_TIME_S);
		return -1;
	}
	if (errno == ERANGE) { /* underflow: closer to 0 than any double */
		snprintf(err, errlen, "%s: '%s' is too small to be a time", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

int sb_parse_cpu(const char *opt, const char *s, int *out, char *err, size_t errlen)
{
	uint64_t v;
	if (sb_parse_u64(opt, s, 0, &v, err, errlen) != 0)
		return -1;
	if (v > 4095) {
		snprintf(err, errlen, "%s: '%s' is not a CPU number", opt, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int sb_parse_batches(const char *opt, const char *s, uint64_t *out, size_t *n, char *err, size_t errlen)
{
	if (!s) {
		snprintf(err, errlen, "%s: missing", opt);
		return -1;
	}
	size_t k = 0;
	const char *p = s;
	int after_comma = 0;
	for (;;) {
		p += strspn(p, " \t");
		if (*p == ',' || (!*p && after_comma)) {
			snprintf(err, errlen, "%s: '%s' has an empty batch size", opt, s);
			return -1;
		}
		if (!*p)
			break;
		size_t len = strcspn(p, ", \t");
		char tok[64];
		if (len >= sizeof(tok)) {
			snprintf(err, errlen, "%s: '%.*s...' in '%s' is not a whole number in [1, %llu]",
				 opt, 20, p, s, (unsigned long long)SB_MAX_BATCH);
			return -1;
		}
		memcpy(tok, p, len);
		tok[len] = '\0';
		p += len;
		if (k == SB_MAX_BATCHES) {
			snprintf(err, errlen, "%s: more than %d batch sizes", opt, SB_MAX_BATCHES);
			return -1;
		}
		char sub[256];
		uint64_t v;
		if (sb_parse_u64_range(opt, tok, 1, SB_MAX_BATCH, &v, sub, sizeof(sub)) != 0) {
			if (strstr(sub, "maximum"))
				snprintf(err, errlen, "%s: '%s' is above the maximum %llu", opt, tok,
					 (unsigned long long)SB_MAX_BATCH);
			else
				snprintf(err, errlen, "%s: '%s' in '%s' is not a whole number >= 1", opt, tok, s);
			return -1;
		}
		out[k++] = v;
		p += strspn(p, " \t");
		after_comma = *p == ',';
		p += after_comma;
	}
	if (k == 0) {
		snprintf(err, errlen, "%s: '%s' holds no batch size", opt, s);
		return -1;
	}
	*n = k;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sb_parse_names(const char *opt, const char *s, char **buf, char ***items, char *err, size_t errlen)
{
	*buf = NULL;
	*items = NULL;
	const char *list = s ? s : "";
	const char *more = strlen(list) > 60 ? "..." : "";
	size_t n = 0, cap = strlen(list) / 2 + 1;
	char *copy = strdup(list);
	char **v = malloc(cap * sizeof(*v)), **sorted = malloc(cap * sizeof(*v));
	if (!copy || !v || !sorted) {
		snprintf(err, errlen, "%s: out of memory", opt);
		goto fail;
	}
	int after_comma = 0;
	for (char *p = copy;;) {
		p += strspn(p, " \t");
		if (*p == ',' || (!*p && after_comma)) {
			snprintf(err, errlen, "%s: an empty item (two commas, or a comma at an end) in '%.60s%s'", opt,
				 list, more);
			goto fail;
		}
		if (!*p)
			break;
		char *end = p + strcspn(p, ", \t");
		char *next = end + strspn(end, " \t");
		after_comma = *next == ',';
		v[n++] = p;
		p = after_comma ? next + 1 : next;
		*end = '\0';
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: '%.60s%s' names nothing", opt, list, more);
		goto fail;
	}
	memcpy(sorted, v, n * sizeof(*v));
	qsort(sorted, n, sizeof(*sorted), cmp_str);
	for (size_t i = 1; i < n; i++)
		if (strcmp(sorted[i - 1], sorted[i]) == 0) {
			snprintf(err, errlen, "%s: '%.60s' is named twice", opt, sorted[i]);
			goto fail;
		}
	free(sorted);
	*buf = copy;
	*items = v;
	return (int)n;
fail:
	free(copy);
	free(v);
	free(sorted);
	return -1;
}

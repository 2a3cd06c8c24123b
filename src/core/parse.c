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

int sb_parse_seconds(const char *opt, const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = s && *s ? strtod(s, &end) : NAN;
	if (!s || !*s || *end || errno || !isfinite(v) || v <= 0) {
		snprintf(err, errlen, "%s: '%s' is not a positive number of seconds", opt, s ? s : "");
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
	char buf[512];
	if (!s || strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "%s: missing or too long", opt);
		return -1;
	}
	strcpy(buf, s);
	size_t k = 0;
	char *save = NULL;
	for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		if (k == SB_MAX_BATCHES) {
			snprintf(err, errlen, "%s: more than %d batch sizes", opt, SB_MAX_BATCHES);
			return -1;
		}
		char sub[600];
		if (sb_parse_u64(opt, tok, 1, &out[k], sub, sizeof(sub)) != 0) {
			snprintf(err, errlen, "%s: batch size '%s' in '%s' is not a whole number >= 1", opt,
				 tok, s);
			return -1;
		}
		k++;
	}
	if (k == 0) {
		snprintf(err, errlen, "%s: '%s' holds no batch size", opt, s);
		return -1;
	}
	*n = k;
	return 0;
}

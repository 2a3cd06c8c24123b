/* sibling_names.c: the names of the SMT sibling's modes, loads and block
 * states, and the options' parsing (sibling.h); the machinery is in
 * src/harness/sibling.c. */
#include "stubbench/sibling_names.h"

#include <string.h>

#include "base/error.h"

static const char *const mode_names[] = {"quiet", "busy", "both"};
static const char *const load_names[] = {"spin", "same"};
static const char *const state_names[] = {"", "none", "quiet", "busy"};

const char *sb_sibling_mode_name(enum sb_sibling_mode m)
{
	return mode_names[m];
}

const char *sb_sibling_load_name(enum sb_sibling_load l)
{
	return load_names[l];
}

const char *sb_sibling_state_name(enum sb_sibling_state s)
{
	return state_names[s];
}

int sb_sibling_state_from_name(const char *s)
{
	for (int i = 0; i < SB_SIBLING_STATES; i++)
		if (strcmp(s, state_names[i]) == 0)
			return i;
	return -1;
}

static int parse_word(const char *opt, const char *s, const char *const *names, int n, int *out, char *err,
		      size_t errlen)
{
	for (int i = 0; i < n; i++)
		if (s && strcmp(s, names[i]) == 0) {
			*out = i;
			return 0;
		}
	sb_set_err(err, errlen, "%s=%s: not one of %s|%s%s%s", opt, s ? s : "", names[0], names[1], n > 2 ? "|" : "",
		   n > 2 ? names[2] : "");
	return -1;
}

int sb_sibling_parse_mode(const char *opt, const char *s, enum sb_sibling_mode *m, char *err, size_t errlen)
{
	int v;
	if (parse_word(opt, s, mode_names, 3, &v, err, errlen))
		return -1;
	*m = (enum sb_sibling_mode)v;
	return 0;
}

int sb_sibling_parse_load(const char *opt, const char *s, enum sb_sibling_load *l, char *err, size_t errlen)
{
	int v;
	if (parse_word(opt, s, load_names, 2, &v, err, errlen))
		return -1;
	*l = (enum sb_sibling_load)v;
	return 0;
}

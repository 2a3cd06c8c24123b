/* mitigations.c: the CPU bug mitigations sysfs reports and the return
 * thunk they imply; see mitigations.h. */
#include "base/mitigations.h"
#include "base/cpu_signature.h"

#include <stdio.h>
#include <string.h>

static const char *const names[SB_N_THUNKS] = {
	[SB_THUNK_UNKNOWN] = "unknown",
	[SB_THUNK_RET] = "ret",
	[SB_THUNK_ITS] = "its_return_thunk",
	[SB_THUNK_SRSO] = "srso_return_thunk",
	[SB_THUNK_SRSO_ALIAS] = "srso_alias_return_thunk",
	[SB_THUNK_RETBLEED] = "retbleed_return_thunk",
	[SB_THUNK_CALL_DEPTH] = "call_depth_return_thunk",
	[SB_THUNK_X86] = "__x86_return_thunk",
};

const char *sb_thunk_name(enum sb_thunk t)
{
	return t < SB_N_THUNKS ? names[t] : names[SB_THUNK_UNKNOWN];
}

const char *sb_thunk_time_note(enum sb_thunk t)
{
	if (t == SB_THUNK_SRSO) /* measured: results/amd-epyc-zen5-vm.md */
		return "code that returns through srso_return_thunk can change state over seconds to tens "
		       "of seconds, so a whole run can sit in one such stretch and not know it: compare runs "
		       "minutes apart";
	return NULL;
}

const char *sb_thunk_choices(void)
{
	static char buf[256];
	if (!buf[0]) {
		size_t n = 0;
		/* Every thunk with a replica; __x86_return_thunk (ret; int3) has none. */
		for (int t = SB_THUNK_ITS; t < SB_N_THUNKS; t++)
			if (t != SB_THUNK_X86)
				n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s, ", names[t]);
		snprintf(buf + n, sizeof(buf) - n, "ret");
	}
	return buf;
}

enum sb_thunk sb_thunk_from_symbol(const char *name)
{
	for (int t = SB_THUNK_ITS; t < SB_N_THUNKS; t++)
		if (strcmp(name, names[t]) == 0)
			return (enum sb_thunk)t;
	return SB_THUNK_UNKNOWN;
}

static int read_line(const char *dir, const char *file, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

void sb_mitigations_read(const char *dir, struct sb_mitigations *m)
{
	memset(m, 0, sizeof(*m));
	m->n_read += read_line(dir, "spectre_v2", m->spectre_v2, sizeof(m->spectre_v2));
	m->n_read += read_line(dir, "retbleed", m->retbleed, sizeof(m->retbleed));
	m->n_read += read_line(dir, "spec_rstack_overflow", m->spec_rstack_overflow,
			       sizeof(m->spec_rstack_overflow));
	m->n_read += read_line(dir, "indirect_target_selection", m->indirect_target_selection,
			       sizeof(m->indirect_target_selection));
}

enum sb_thunk sb_thunk_infer(const struct sb_mitigations *m, unsigned cpu_family, char *why, size_t whylen)
{
	/* Call depth tracking (retbleed=stuff, or ITS with retpolines) takes
	 * the return thunk; then SRSO's Safe RET, the retbleed untraining
	 * thunk, ITS's aligned thunk (bugs.c, 6.15+). */
	if (strstr(m->retbleed, "Stuffing") || strstr(m->indirect_target_selection, "Stuffing")) {
		snprintf(why, whylen, "sysfs %s: \"%s\"", strstr(m->retbleed, "Stuffing") ? "retbleed"
			 : "indirect_target_selection",
			 strstr(m->retbleed, "Stuffing") ? m->retbleed : m->indirect_target_selection);
		return SB_THUNK_CALL_DEPTH;
	}
	if (strstr(m->spec_rstack_overflow, "Safe RET")) {
		snprintf(why, whylen, "sysfs spec_rstack_overflow: \"%s\", CPU family %#x", m->spec_rstack_overflow,
			 cpu_family);
		/* X86_FEATURE_SRSO_ALIAS on Zen 3/4 (family 0x19), else Zen 1/2. */
		return cpu_family == 0x19 ? SB_THUNK_SRSO_ALIAS : SB_THUNK_SRSO;
	}
	if (strstr(m->retbleed, "untrained return thunk")) {
		snprintf(why, whylen, "sysfs retbleed: \"%s\"", m->retbleed);
		return SB_THUNK_RETBLEED;
	}
	if (strstr(m->indirect_target_selection, "Aligned branch/return thunks")) {
		snprintf(why, whylen, "sysfs indirect_target_selection: \"%s\"", m->indirect_target_selection);
		return SB_THUNK_ITS;
	}
	if (m->n_read == 0) {
		snprintf(why, whylen, "no sysfs vulnerabilities files to infer it from");
		return SB_THUNK_UNKNOWN;
	}
	snprintf(why, whylen, "no sysfs line names a return thunk mitigation");
	return SB_THUNK_RET;
}

void sb_return_thunk_from_sysfs(struct sb_return_thunk *rt)
{
	char why[sizeof(rt->how) - 32];
	sb_mitigations_read(SB_VULN_DIR, &rt->mit);
	struct sb_cpu_signature sig;
	sb_cpu_signature(&sig);
	rt->thunk = sb_thunk_infer(&rt->mit, sig.family, why, sizeof(why));
	snprintf(rt->how, sizeof(rt->how), "inferred from %s", why);
}

enum sb_thunk sb_thunk_from_name(const char *name)
{
	return strcmp(name, "ret") == 0 ? SB_THUNK_RET : sb_thunk_from_symbol(name);
}

int sb_thunk_check_name(const char *opt, const char *name, char *err, size_t errlen)
{
	if (sb_thunk_from_name(name) != SB_THUNK_UNKNOWN)
		return 0;
	snprintf(err, errlen, "%s: unknown return thunk '%s' (%s)", opt, name, sb_thunk_choices());
	return -1;
}

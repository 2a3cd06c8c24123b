/* host_returns.c: the host flavour's returns, and the kernel twins',
 * aimed at the replica of this kernel's return thunk (the twins': or of
 * --thunk's), for every command that runs them; see session.h. */
#include "base/mitigations.h"
#include "jit/return_thunks.h"
#include "session/session.h"

#include <stdio.h>

/* What aiming the returns of families[0..n) at t's replica came to: t has
 * no replica, sb_thunk_apply failed (why), or they reach it (*reaimed: the
 * returns re-aimed in place). */
enum aimed { NO_REPLICA, NOT_APPLIED, AIMED };
static enum aimed aim_at(enum sb_thunk t, const char *const *families, size_t n, int *reaimed, char *why,
			 size_t len)
{
	if (t == SB_THUNK_UNKNOWN || t == SB_THUNK_X86)
		return NO_REPLICA;
	*reaimed = sb_thunk_apply(t, families, n, why, len);
	return *reaimed < 0 ? NOT_APPLIED : AIMED;
}

/* The host flavour's returns aimed at thunk's replica; what: whose. */
static void aim_returns(const struct sb_output_config *cfg, const char *tool, const struct sb_return_thunk *thunk,
			const char *const *families, size_t n, const char *what)
{
	char err[512];
	int reaimed;
	enum aimed a = aim_at(thunk->thunk, families, n, &reaimed, err, sizeof(err));
	if (a == NO_REPLICA)
		fprintf(stderr, "%s: %s: this kernel's return thunk is %s (%s); they keep its_return_thunk's "
			"replica\n", tool, what, sb_thunk_name(thunk->thunk), thunk->how);
	else if (a == NOT_APPLIED)
		fprintf(stderr, "%s: %s keep %s's replica: %s\n", tool, what, sb_thunk_name(sb_thunk_applied()), err);
	else if (cfg->verbose)
		fprintf(stderr, "%s: %s return through the replica of %s (%s)\n", tool, what,
			sb_thunk_name(thunk->thunk), thunk->how);
}

void sb_session_aim_host_returns(const struct sb_config *cfg, const char *tool, const struct sb_return_thunk *thunk)
{
	/* The host replicas and the host baselines padded to their layout. */
	static const char *const host_family[] = {"replica-host", "replica-host-padded"};
	aim_returns(&cfg->out, tool, thunk, host_family, 2, "--flavour=host: the host replicas");
}

void sb_session_aim_twin_returns(const struct sb_config *cfg, const char *tool, const struct sb_return_thunk *thunk,
				 FILE *info)
{
	static const char *const twin_family[] = {"twin"};
	enum sb_thunk t = cfg->measure.thunk ? sb_thunk_from_name(cfg->measure.thunk) : thunk->thunk;
	char line[768], why[512];
	int reaimed;
	enum aimed a = aim_at(t, twin_family, 1, &reaimed, why, sizeof(why));
	if (a == NO_REPLICA)
		snprintf(line, sizeof(line), "twins: returns stay on its_return_thunk's replica (no replica of %s)",
			 sb_thunk_name(t));
	else if (a == NOT_APPLIED)
		snprintf(line, sizeof(line), "twins: returns stay on %s's replica: %s", sb_thunk_name(sb_thunk_applied()),
			 why);
	else
		snprintf(line, sizeof(line), "twins: returns reach the replica of %s, %s%s", sb_thunk_name(t),
			 cfg->measure.thunk ? "chosen with --thunk, not the kernel's" : "as the kernel's",
			 reaimed ? " (re-aimed in place)" : "");
	if (info)
		fprintf(info, "%s\n", line);
	else if (a != AIMED || cfg->out.verbose)
		fprintf(stderr, "%s: %s\n", tool, line);
}

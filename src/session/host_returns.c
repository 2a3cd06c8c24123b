/* host_returns.c: the host flavour's returns aimed at the replica of this
 * kernel's return thunk, for every command that runs it; see session.h. */
#include "stubbench/mitigations.h"
#include "stubbench/return_thunks.h"
#include "stubbench/session.h"

#include <stdio.h>

void sb_session_aim_host_returns(const struct sb_config *cfg, const char *tool, const struct sb_return_thunk *thunk)
{
	/* The host replicas and the host baselines padded to their layout. */
	static const char *const host_family[] = {"replica-host", "replica-host-padded"};
	char err[512];
	if (thunk->thunk == SB_THUNK_UNKNOWN || thunk->thunk == SB_THUNK_X86)
		fprintf(stderr, "%s: --flavour=host: this kernel's return thunk is %s (%s); the host "
			"replicas keep its_return_thunk's replica\n", tool, sb_thunk_name(thunk->thunk), thunk->how);
	else if (sb_thunk_apply(thunk->thunk, host_family, 2, err, sizeof(err)) < 0)
		fprintf(stderr, "%s: --flavour=host: the host replicas keep %s's replica: %s\n", tool,
			sb_thunk_name(sb_thunk_applied()), err);
	else if (cfg->verbose)
		fprintf(stderr, "%s: host flavour: returns through the replica of %s (%s)\n", tool,
			sb_thunk_name(thunk->thunk), thunk->how);
}

/* test_hooks.c: see test_hooks.h. */
#include "test_hooks.h"

#include <stdlib.h>
#include <string.h>

#include "stubbench/registry.h"

static int env_on(const char *name)
{
	const char *e = getenv(name);
	return e && strcmp(e, "1") == 0;
}

const struct sb_run_test_hooks *sb_test_hooks_from_env(void)
{
	static struct sb_run_test_hooks hooks;
	hooks = (struct sb_run_test_hooks){
		.disturb_all = env_on("STUBBENCH_TEST_DISTURB_ALL"),
		.disturb_none = env_on("STUBBENCH_TEST_DISTURB_NONE"),
		.spread_only = env_on("STUBBENCH_TEST_SPREAD_ONLY"),
		.fixed_clock = env_on("STUBBENCH_TEST_FIXED_CLOCK"),
	};
	const char *sib = getenv("STUBBENCH_TEST_SIBLING_CPU");
	char *end = NULL;
	long cpu = sib && *sib ? strtol(sib, &end, 10) : -1;
	if (end && !*end && cpu >= 0 && cpu < 4096) {
		hooks.force_sibling = 1;
		hooks.sibling_cpu = (int)cpu;
	}
	const char *rep = getenv("STUBBENCH_TEST_CHILD_REPORT");
	if (rep && strncmp(rep, "sizing:", 7) == 0)
		hooks.child_report = rep + 7, hooks.child_report_sizing = 1;
	else if (rep && strncmp(rep, "segments:", 9) == 0)
		hooks.child_report = rep + 9;
	if (env_on("STUBBENCH_TEST_VARIANTS"))
		sb_registry_show_test_variants();
	return &hooks;
}

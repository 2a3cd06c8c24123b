/* test_hooks.h: the harness's test switches (sb_run_test_hooks) as the
 * command line's programs take them, from the environment. */
#ifndef STUBBENCH_BENCH_TEST_HOOKS_H
#define STUBBENCH_BENCH_TEST_HOOKS_H

#include "harness/harness.h"

/* STUBBENCH_TEST_DISTURB_ALL, _DISTURB_NONE, _SPREAD_ONLY and _FIXED_CLOCK
 * ("1": on) and STUBBENCH_TEST_SIBLING_CPU (a CPU number), read now; for sb_run_opts.test. STUBBENCH_TEST_VARIANTS=1
 * lists the registry's test variants (family "test") from now on. */
const struct sb_run_test_hooks *sb_test_hooks_from_env(void);

#endif

/* stubbench-gbench: every variant x batch under Google Benchmark's harness
 * (gbench_variants.h says what each benchmark measures and counts).
 *
 * The command line is stubbench's (bench/cli.c): --batch, --cpu (pinned
 * with hwloc, as stubbench is), --counters=LIST (perf_counters.h:
 * "<event>_per_call" counters read around every sample). Every
 * --benchmark_* flag goes to the library.
 *
 * It is no descriptor the session drives (session/command.h), and starts
 * no session: libbenchmark's runner (RunSpecifiedBenchmarks, through
 * gbench_shim.h) decides how many iterations each benchmark runs, times
 * them and writes the report; stubbench's harness, summary, records and
 * blocks log have no part in it. It takes no --time, so no budget is
 * split: each benchmark's seconds are --benchmark_min_time, handed to the
 * library as given (SB_GBENCH_DEFAULT_MIN_TIME without one), never
 * rescaled.
 */
#include "cli.h"
#include "gbench/gbench_variants.h"

static int run_gbench(struct sb_cli *cli)
{
	return sb_gbench_measure_variants(&cli->cfg, cli->n_passthrough, cli->passthrough);
}

static const struct sb_subcommand gbench_command = {
	.summary = "Every variant x batch under Google Benchmark, \"<variant>/batch:<batch>\", with\n"
		   "counters per main-prog call (tsc_cycles_per_call, core_cycles_per_call, ...).",
	.groups = {&sb_cli_batch_group, &sb_cli_cpu_group, &sb_cli_counters_group},
	.epilog = "Without --benchmark_filter it runs baseline, private, hybrid, host-baseline,\n"
		  "host-private and host-hybrid at every batch (under a minute);\n"
		  "--benchmark_filter=. runs every variant, the lab's and the twins' too\n"
		  "(--benchmark_list_tests=true names them). Without --benchmark_min_time each\n"
		  "benchmark measures for " SB_GBENCH_DEFAULT_MIN_TIME " s (the library's default: 0.5).\n"
		  "Every --benchmark_* flag goes to Google Benchmark (--benchmark_filter,\n"
		  "--benchmark_repetitions, --benchmark_format, --benchmark_out, ...). Random\n"
		  "interleaving is on; --benchmark_enable_random_interleaving=false turns it off.\n"
		  "A sample during which the thread was switched out is taken again (counter\n"
		  "disturbed_reruns), at most 8 times (then kept: counter disturbed_kept).\n",
	.passthrough_prefix = "--benchmark_",
	.run = run_gbench,
};

int main(int argc, char **argv)
{
	static const struct sb_program gbench = {"stubbench-gbench", &gbench_command, NULL};
	return sb_cli_main(&gbench, argc, argv);
}

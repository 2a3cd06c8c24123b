/* kernel_standalone_main.c: `stubbench-kernel ARGS` is `stubbench kernel
 * ARGS`, for use before (or besides) the main CLI. */
#include "stubbench/kernel.h"
#include "stubbench/interrupt.h"
#include "stubbench/output.h"
#include "stubbench/run_info.h"

int main(int argc, char **argv)
{
	sb_check_stdout_at_exit("stubbench kernel");
	sb_exit_on_signals("stubbench kernel");
	sb_run_info_set_argv(argc, argv);
	argv[0] = "kernel";
	return sb_kernel_main(argc, argv);
}

/* kernel_obj_command.h: `stubbench kernel --obj=FILE --prog=NAME,...`. */
#ifndef STUBBENCH_BENCH_KERNEL_OBJ_COMMAND_H
#define STUBBENCH_BENCH_KERNEL_OBJ_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/config.h"
#include "stubbench/output.h"
#include "stubbench/user_obj.h"

struct sb_kernel_obj_opts {
	const char *obj;                      /* --obj=FILE */
	char *progs[SB_USER_MAX_PROGS];       /* --prog=NAME,... */
	size_t n_progs;
	const uint64_t *batches;
	size_t n_batches;
	int cpu;
	enum sb_format format;
	const char *dump_dir;
	double time_s;
	uint64_t samples, seed;
	int verbose;
	const struct sb_config *config;       /* for the JSON document */
};

/* Measures the programs; returns the exit status (as stubbench kernel's:
 * 2 for an object that cannot be opened or loaded or an unknown program). */
int sb_kernel_obj_run(const struct sb_kernel_obj_opts *o);

#endif

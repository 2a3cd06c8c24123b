/* gbench_out.h: Google Benchmark's argv for stubbench-gbench, with its
 * --benchmark_out written whole (gbench_variants.h); internal to the
 * gbench run. */
#ifndef STUBBENCH_GBENCH_OUT_H
#define STUBBENCH_GBENCH_OUT_H

#include <stddef.h>

/* The library's argv from flags[0 .. n_flags) (flags[0] the program's
 * name): random interleaving first, so that a flag of the user's (later in
 * argv) can turn it off; the last --benchmark_out (the one the library
 * takes) becomes a temporary beside its file. *argc: its length. Free it
 * with free() (the strings are flags' or static). NULL with err. */
char **sb_gbench_out_argv(int n_flags, char **flags, int *argc, char *err, size_t errlen);

/* Ends --benchmark_out: the file replaced when rc is 0 and the output is
 * whole, else the temporary removed. Returns rc, or 1 after one line when
 * the file could not be replaced. */
int sb_gbench_out_finish(int rc);

#endif

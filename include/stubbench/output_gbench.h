/* output_gbench.h: results in Google Benchmark's JSON schema, for its
 * tools/compare.py (sb_output_write with SB_FORMAT_GBENCH calls it). */
#ifndef STUBBENCH_OUTPUT_GBENCH_H
#define STUBBENCH_OUTPUT_GBENCH_H

#include <stdio.h>

#include "stubbench/harness.h"
#include "stubbench/run_info.h"

void sb_output_write_gbench(FILE *f, const struct sb_results *r, const struct sb_output_meta *m);

#endif

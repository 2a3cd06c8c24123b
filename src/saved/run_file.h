/* run_file.h: a saved run read back: the JSON document of `stubbench`,
 * `stubbench lab` or `stubbench kernel --format=json`, as rows of one arm
 * at one batch size, for comparing and plotting runs after the fact. */
#ifndef STUBBENCH_RUN_FILE_H
#define STUBBENCH_RUN_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "saved/run_match.h"

/* Reads path. Returns 0, or -1 with one line naming the file and what is
 * wrong with it (cannot be read, not JSON, no results). */
int sb_run_file_load(const char *path, struct sb_run_file *out, char *err, size_t errlen);
void sb_run_file_free(struct sb_run_file *f);

struct sb_results;
/* The same rows from results in memory (a run being written), so that one
 * plot writer serves saved and live runs. tool names the mode. Returns 0,
 * or -1 when out of memory. */
int sb_run_file_from_results(const struct sb_results *r, const char *tool, struct sb_run_file *out);

#endif

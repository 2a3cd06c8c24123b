/* config.h: sweep files (INI, parsed with libinih).
 *
 *   [sweep]
 *   variants = baseline, private, hybrid   ; or all
 *   batches  = 1 8 64 512 2048 4096
 *   time     = 8                           ; seconds for the whole sweep
 *   samples  = 0                           ; rounds per batch instead of time
 *   seed     = 1
 *   cpu      = 1                           ; omit for the last allowed core
 *   [output]
 *   format   = table                       ; table, seed, json, csv
 */
#ifndef STUBBENCH_CONFIG_H
#define STUBBENCH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/output.h"
#include "stubbench/parse.h"

struct sb_config {
	char variants[256];
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	double time_s;
	uint64_t samples;
	uint64_t seed;
	int cpu;                 /* -1: the last core of the allowed set */
	enum sb_format format;
};

/* The built-in defaults (the same as configs/default.ini). */
void sb_config_defaults(struct sb_config *c);

/* Reads a file over c. Returns 0, or -1 with a message naming the file and
 * line (unknown section or key, bad value, unreadable file). */
int sb_config_load(const char *path, struct sb_config *c, char *err, size_t errlen);

#endif

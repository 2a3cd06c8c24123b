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

#include "stubbench/format.h"
#include "stubbench/parse.h"

/* The longest line a config file may have, in characters (libinih's line
 * buffer; a longer line is an error naming it, never split). */
#define SB_CONFIG_MAX_LINE 197
/* The largest config file, in bytes (a sweep file is a few hundred). */
#define SB_CONFIG_MAX_BYTES (1u << 20)

struct sb_config {
	const char *variants;    /* "all" or names; not owned (argv, or kept by the loader) */
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	double time_s;
	uint64_t samples;
	uint64_t seed;
	uint64_t processes;      /* fresh processes per batch size (sb_run_opts.processes) */
	int cpu;                 /* -1: the last core of the allowed set */
	enum sb_format format;
};

/* The sweep's: with 128, the rare processes that sit in a slow state a
 * whole batch size long are drawn in a steadier share (measured:
 * results/amd-epyc-zen1-vm.md, results/amd-epyc-zen5-vm.md;
 * docs/fresh-processes.md). The kernel run, the lab and footprint name their own
 * (sb_subcommand.default_processes). */
#define SB_DEFAULT_PROCESSES 128
#define SB_MAX_PROCESSES 256

/* The built-in defaults (the same as configs/default.ini). */
void sb_config_defaults(struct sb_config *c);

/* Reads a file over c. Returns 0, or -1 with a message naming the file,
 * the line and the key: unknown section or key, bad value (an unknown
 * variant too), a key given twice, a line longer than SB_CONFIG_MAX_LINE,
 * a directory or an unreadable file. */
int sb_config_load(const char *path, struct sb_config *c, char *err, size_t errlen);

#endif

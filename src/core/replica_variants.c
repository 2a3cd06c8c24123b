/* variants.c: the seed 001 replicas (family "replica"). */
#include "stubbench/variants.h"

#include <string.h>

#define SEED001_FLAVOUR "bpf-next Jul 2024 (v6.10 era) + private stack v2; IBT, 66 90 pad, gs:0x21a00"

static const struct sb_variant variants[] = {
	{
		.name = "baseline",
		.seed_name = "no-private-stack",
		.description = "rbp frame: main prog bumps a counter and calls a do-nothing subprog 3 times",
		.listing = "seed 001 v2, \"jited code ... without private stack\" (subprog + main prog)",
		.flavour = SEED001_FLAVOUR,
		.shape = "per-run",
		.main = sb_seed001_baseline_main,
		.counter = &sb_seed001_baseline_hits,
		.insns_per_call = 16 + 3 * 9,
		.uses_private_stack = 0,
	},
	{
		.name = "private",
		.seed_name = "private-stack",
		.description = "private stack in main prog and subprog: r9 setup in both, push/pop r9 around calls",
		.listing = "seed 001 v2, \"jited progs with private stack\" (subprog + main prog)",
		.flavour = SEED001_FLAVOUR,
		.shape = "per-run",
		.main = sb_seed001_private_main,
		.counter = &sb_seed001_private_hits,
		.insns_per_call = 24 + 3 * 11,
		.uses_private_stack = 1,
	},
	{
		.name = "hybrid",
		.seed_name = "hybrid",
		.description = "private-stack main prog (r9, push/pop) calling the baseline subprog (no r9 setup)",
		.listing = "seed 000 review request: seed 001 private main prog + baseline subprog",
		.flavour = SEED001_FLAVOUR,
		.shape = "per-run",
		.main = sb_seed001_hybrid_main,
		.counter = &sb_seed001_hybrid_hits,
		.insns_per_call = 24 + 3 * 9,
		.uses_private_stack = 1,
	},
};

const struct sb_variant_table sb_replica_variants = {
	.family = "replica",
	.variants = variants,
	.n = sizeof(variants) / sizeof(variants[0]),
};

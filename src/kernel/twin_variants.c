/* twin_variants.c: family "twin", the replicas of this machine's JITed
 * kernel programs (asm/twins_v6_18.asm), one per kernel measurement of
 * `stubbench kernel`: same shape, same variant, same codegen flavour.
 * Also the table saying which kernel function each twin copies. */
#include "stubbench/twin.h"
#include "stubbench/variants.h"

#include <stdio.h>
#include <string.h>

#define TWIN_FLAVOUR "Linux 6.18 x86-64: no IBT, 0f 1f 00 pad, gs:[kernel address], ITS return thunk"
#define TWIN_LISTING(prog) "tests/data/jit_v6_18_" prog ".*.lst (stubbench kernel --dump-jit, 29 Nov 2026)"

/* Instructions per iteration, counted on the listings (the thunk's ret
 * included: every return is jmp its_return_thunk + ret):
 *   per-run prog: baseline 23, private/hybrid 30; subprog: small 10, big 11
 *   in-loop body: baseline 12, private/hybrid 18 (push/pop r9), + 3 subprogs;
 *   once per run: baseline 23, private/hybrid 24 (not counted here)
 * tests/test_kernel_twin_insns.c checks them under callgrind. */
static const struct sb_variant variants[] = {
	{
		.name = "twin-per-run-baseline",
		.seed_name = "no-private-stack-per-run-twin",
		.description = "twin of run_baseline: prog (8-byte rbp frame) bumps a counter, calls sub_small 3 times",
		.listing = TWIN_LISTING("run_baseline"),
		.flavour = TWIN_FLAVOUR,
		.shape = "per-run",
		.main = sb_twin_run_baseline_prog,
		.counter = &sb_twin_hits_baseline,
		.insns_per_call = 23 + 3 * 10,
		.uses_private_stack = 0,
	},
	{
		.name = "twin-per-run-private",
		.seed_name = "private-stack-per-run-twin",
		.description = "twin of run_private: prog and sub_big with private stacks (r9 setup each, push/pop r9)",
		.listing = TWIN_LISTING("run_private"),
		.flavour = TWIN_FLAVOUR,
		.shape = "per-run",
		.main = sb_twin_run_private_prog,
		.counter = &sb_twin_hits_private,
		.insns_per_call = 30 + 3 * 11,
		.uses_private_stack = 1,
	},
	{
		.name = "twin-per-run-hybrid",
		.seed_name = "hybrid-per-run-twin",
		.description = "twin of run_hybrid: private-stack prog (r9, push/pop) calling sub_small (rbp frame)",
		.listing = TWIN_LISTING("run_hybrid"),
		.flavour = TWIN_FLAVOUR,
		.shape = "per-run",
		.main = sb_twin_run_hybrid_prog,
		.counter = &sb_twin_hits_hybrid,
		.insns_per_call = 30 + 3 * 10,
		.uses_private_stack = 1,
	},
	{
		.name = "twin-in-loop-baseline",
		.seed_name = "no-private-stack-in-loop-twin",
		.description = "twin of loop_baseline: the program loops, bumping a counter and calling sub_small 3 times",
		.listing = TWIN_LISTING("loop_baseline"),
		.flavour = TWIN_FLAVOUR,
		.shape = "in-loop",
		.main = sb_twin_loop_baseline,
		.counter = &sb_twin_loop_hits_baseline,
		.batch_iters = &sb_twin_loop_batch_iters,
		.insns_per_call = 12 + 3 * 10,
		.uses_private_stack = 0,
	},
	{
		.name = "twin-in-loop-private",
		.seed_name = "private-stack-in-loop-twin",
		.description = "twin of loop_private: r9 set up once per run, push/pop r9 around every call, sub_big private",
		.listing = TWIN_LISTING("loop_private"),
		.flavour = TWIN_FLAVOUR,
		.shape = "in-loop",
		.main = sb_twin_loop_private,
		.counter = &sb_twin_loop_hits_private,
		.batch_iters = &sb_twin_loop_batch_iters,
		.insns_per_call = 18 + 3 * 11,
		.uses_private_stack = 1,
	},
	{
		.name = "twin-in-loop-hybrid",
		.seed_name = "hybrid-in-loop-twin",
		.description = "twin of loop_hybrid: r9 once per run, push/pop r9 around calls of sub_small (rbp frame)",
		.listing = TWIN_LISTING("loop_hybrid"),
		.flavour = TWIN_FLAVOUR,
		.shape = "in-loop",
		.main = sb_twin_loop_hybrid,
		.counter = &sb_twin_loop_hits_hybrid,
		.batch_iters = &sb_twin_loop_batch_iters,
		.insns_per_call = 18 + 3 * 10,
		.uses_private_stack = 1,
	},
};

const struct sb_variant_table sb_twin_variants = {
	.family = "twin",
	.variants = variants,
	.n = sizeof(variants) / sizeof(variants[0]),
};

extern const struct sb_twin_record __start_sb_twins[] __attribute__((weak));
extern const struct sb_twin_record __stop_sb_twins[] __attribute__((weak));

size_t sb_twin_records(const struct sb_twin_record **out)
{
	*out = __start_sb_twins;
	if (!__start_sb_twins)
		return 0;
	return (size_t)(__stop_sb_twins - __start_sb_twins);
}

const struct sb_twin_record *sb_twin_find(const char *prog, const char *func)
{
	const struct sb_twin_record *r;
	size_t n = sb_twin_records(&r);
	for (size_t i = 0; i < n; i++)
		if (strcmp(r[i].prog, prog) == 0 && strcmp(r[i].func, func) == 0)
			return &r[i];
	return NULL;
}

const struct sb_variant *sb_twin_variant(const char *shape, const char *variant)
{
	char name[64];
	snprintf(name, sizeof(name), "twin-%s-%s", shape, variant);
	return sb_variant_find(name);
}

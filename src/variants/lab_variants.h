/* lab_variants.h: the codegen lab, alternative private-stack sequences.
 *
 * Family "lab" of the registry: five codegen alternatives and a placement
 * control (the baseline's bytes at other addresses) x three kinds of
 * function return x two shapes, every one a struct sb_variant the harness
 * runs like any other. asm/lab_alternatives.asm declares each with its
 * struct sb_lab_info (the variant's family_info), what the registry has no
 * field for: which alternative, flavour and shape a lab variant is, what it
 * costs in code bytes, and where its frame pointer lives (for the behaviour
 * tests). The enums' values are the asm's LAB_ENUM_* and LAB_RET_ENUM_*.
 */
#ifndef STUBBENCH_LAB_VARIANTS_H
#define STUBBENCH_LAB_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/registry.h"

enum sb_lab_alt {
	SB_LAB_BASELINE = 0, /* no private stack */
	SB_LAB_MAINLINE,     /* v6.13+: r9 set up once, push/pop r9 around calls */
	SB_LAB_RELOAD,       /* movabs r9 + add r9, gs:[..] again after every call */
	SB_LAB_CALLEE_SAVED, /* frame pointer in r12, saved in prologue, bare calls */
	SB_LAB_SPILL_ONCE,   /* r9 stored once to [rbp-8], mov r9, [rbp-8] after calls */
	SB_LAB_PLACEMENT_CONTROL, /* the baseline's bytes at other addresses: what
				   * placement alone changes (the noise floor) */
	SB_LAB_N_ALTS
};

enum sb_lab_return {
	SB_LAB_RET = 0,          /* ret */
	SB_LAB_RETHUNK,      /* jmp x86_return_thunk (its_return_thunk) */
	SB_LAB_CALLDEPTH,    /* call depth accounting + call_depth_return_thunk */
	SB_LAB_SRSO,         /* jmp srso_return_thunk (AMD Zen 1/2 Safe RET) */
	SB_LAB_SRSO_ALIAS,   /* jmp srso_alias_return_thunk (AMD Zen 3/4 Safe RET) */
	SB_LAB_N_RETURNS
};

struct sb_lab_info {
	const struct sb_variant *variant;
	enum sb_lab_alt alt;
	enum sb_lab_return ret;
	int in_loop;                 /* 0: per-run shape, 1: in-loop shape */
	/* Code size the alternative adds to a function compared with the
	 * baseline (same flavour): prologue + epilogue bytes once per
	 * function, and bytes per call site besides the 5-byte call. */
	unsigned prologue_bytes;
	unsigned call_site_bytes;
	/* Bytes the return flavour adds: per return, per call site. */
	unsigned flavour_return_bytes;
	unsigned flavour_call_bytes;
	/* Instructions per run outside the iterations (in-loop: prologue,
	 * setup, exit; per-run: 0, all of it is per iteration). */
	unsigned insns_fixed;
	/* The program as JITed (v->main is an accounting entry that jumps to
	 * it in the call-depth flavour). */
	sb_stub_fn program;
	const void *area;            /* private stack area template; NULL for baseline */
	int fp_reg;                  /* 9 (r9) or 12 (r12); 0 for baseline */
};

/* The lab variants, in registry order. */
size_t sb_lab_count(void);
const struct sb_lab_info *sb_lab_at(size_t i);
/* The lab information of a registry variant; NULL when not in the lab. */
const struct sb_lab_info *sb_lab_info_of(const struct sb_variant *v);

/* The lab variant of that alternative, return and shape; NULL: none. */
const struct sb_variant *sb_lab_find(enum sb_lab_alt alt, enum sb_lab_return ret, int in_loop);

/* "baseline", "mainline", "reload", "callee-saved", "spill-once",
 * "placement-control". */
const char *sb_lab_alt_name(enum sb_lab_alt alt);
/* "ret", "rethunk", "calldepth", "srso", "srso-alias". */
const char *sb_lab_return_name(enum sb_lab_return ret);

/* The per-CPU call depth word the call-depth flavour shifts
 * (gs:[__x86_call_depth]); valid after sb_percpu_thread_init(). */
uint64_t sb_lab_call_depth(void);

#endif

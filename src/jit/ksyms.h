/* ksyms.h: the kernel's text symbols (/proc/kallsyms) and what JITed code
 * calls and jumps into. Every "call rel32" and "jmp rel32" of a JITed
 * function is resolved to a name: a function of the same program (its
 * jited_ksyms), else the nearest kallsyms text symbol at or below the
 * target ("its_return_thunk", "bpf_prog_6deef7357e7b4530_sub_big+0x0").
 * Without kernel-pointer access kallsyms reads as zeros and nothing can be
 * resolved: sb_ksyms_load() says so. */
#ifndef STUBBENCH_KSYMS_H
#define STUBBENCH_KSYMS_H

#include <stddef.h>
#include <stdint.h>

#include "jit/decode.h"
#include "base/mitigations.h"

struct sb_ksym {
	uint64_t addr;
	char name[80];
};

struct sb_ksyms {
	struct sb_ksym *v;   /* text symbols, sorted by address */
	size_t n;
};

/* Loads the text symbols (types t, T) of a kallsyms file. Returns 0, or -1
 * with one line in err (file unreadable, or every address zero: no
 * permission to see kernel pointers). */
int sb_ksyms_load(const char *path, struct sb_ksyms *out, char *err, size_t errlen);
void sb_ksyms_free(struct sb_ksyms *ks);
/* The symbol at or below addr (its offset in *off), or NULL. */
const struct sb_ksym *sb_ksyms_lookup(const struct sb_ksyms *ks, uint64_t addr, uint64_t *off);
/* The symbol called name, or NULL. */
const struct sb_ksym *sb_ksyms_find(const struct sb_ksyms *ks, const char *name);

/* One rel32 branch of a JITed function and where it goes. */
struct sb_jit_target {
	size_t off;          /* of the instruction in the function */
	int is_call;         /* 1: call, 0: jmp */
	uint64_t addr;       /* absolute target */
	char name[112];      /* "sub_big" (same program), "its_return_thunk", "?" */
};

/* Resolves every call/jmp rel32 of img's function fn (running at fn->ksym)
 * leaving the function: up to max targets in out, their count in *n.
 * ks may be NULL (only the program's own functions are named). Returns 0,
 * or -1 with one line in err (undecodable code). */
int sb_jit_resolve_targets(const struct sb_jit_image *img, const struct sb_jit_func *fn,
			   const struct sb_ksyms *ks, struct sb_jit_target *out, size_t max, size_t *n,
			   char *err, size_t errlen);
/* Where a function's returns go: the thunk a jmp target names, ret when
 * the function ends in c3 (ret or ret; int3), else unknown. */
enum sb_thunk sb_jit_return_thunk(const struct sb_jit_func *fn, const struct sb_jit_target *t, size_t n);

#endif

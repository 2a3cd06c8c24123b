/* registry.h: the registry every front end draws from (CLI, harness, tests,
 * likwid regions, Google Benchmark, the twins).
 *
 * Each variant is declared once, in the .asm file beside its code: the
 * SB_VARIANT macro (asm/records.inc) emits a struct sb_variant into section
 * sb_variants, and SB_FUNCTION_RECORD a struct sb_function into section
 * sb_functions; the registry walks both. The layouts below are those
 * records': change them together (the asm checks the sizes). */
#ifndef STUBBENCH_REGISTRY_H
#define STUBBENCH_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

/*
 * The stub ABI every replica main prog follows: takes nothing, returns 0 in
 * eax like "return 0" in BPF, clobbers only SysV caller-saved registers, and
 * needs the calling thread's GS base set up by sb_percpu_thread_init() when
 * it uses a private stack. The replicas' own symbols are declared beside
 * their families (seed001.h, twin_variants.h, lab_variants.h); front ends
 * reach them through this registry.
 */
typedef int (*sb_stub_fn)(void);

struct sb_variant {
	const char *name;         /* "private": what --variant= takes */
	const char *seed_name;    /* "private-stack": the seeds' bench name */
	const char *family;       /* "replica", "twin", "lab", ... */
	const char *shape;        /* "per-run" or "in-loop" */
	const char *description;  /* one line */
	const char *listing;      /* which listing it reproduces */
	const char *listing_file; /* that listing under tests/data, or NULL */
	const char *flavour;      /* kernel version and codegen flavour, one line */
	const char *flavour_name; /* the flavour file's short name ("v6.18-noibt") */
	const char *symbol;       /* ELF symbol of the program */
	sb_stub_fn main;          /* the stub the harness calls */
	sb_stub_fn program;       /* the program as JITed: main, or what main leads to */
	volatile uint64_t *counter; /* incremented once per iteration */
	/* in-loop stubs: the iteration count the stub reads (like the BPF
	 * program's batch_iters); the harness sets it to the batch and calls
	 * the stub once. NULL for per-run stubs, which the harness calls
	 * batch times. */
	volatile uint64_t *batch_iters;
	const void *callee;       /* the function the program's calls go to, or NULL */
	const void *area;         /* the program's private stack template, or NULL */
	const void *return_thunk; /* where its returns jump (rethunk flavours), or NULL */
	const void *family_info;  /* the family's own record (lab: struct sb_lab_info) */
	unsigned insns_per_call;  /* instructions per iteration, from the listing */
	unsigned insns_fixed;     /* in-loop: instructions once per run; per-run: 0 */
	unsigned code_bytes;      /* bytes of the program */
	int uses_private_stack;   /* needs sb_percpu_thread_init() */
};

/* A function that is not a variant's program (a subprog, a thunk, a
 * driver), for the golden tests, and for a twin the kernel function it
 * copies. */
struct sb_function {
	const char *name;         /* ELF symbol */
	const void *addr;
	uint64_t size;            /* its bytes */
	const char *listing_file; /* under tests/data, or NULL */
	const void *area;         /* its private stack template, or NULL */
	const void *callee;       /* where its calls go, or NULL */
	const void *jmp_target;   /* where its rel32 jumps go, or NULL */
	const char *prog;         /* twins: the BPF program ("run_private"), or NULL */
	const char *func;         /* twins: its JITed function ("sub_big") */
};

/* All variants of all families, in display order: family by family, those
 * the listing of variant_families.h names first in its order, then any
 * other; each family in declaration order. */
size_t sb_variant_count(void);
const struct sb_variant *sb_variant_at(size_t i);
/* The family a variant belongs to. */
const char *sb_variant_family(const struct sb_variant *v);
/* Non-zero when v (may be NULL) is of family. */
int sb_variant_in_family(const struct sb_variant *v, const char *family);
/* Looks up by name or seed name; NULL when unknown. */
const struct sb_variant *sb_variant_find(const char *name);

/* The variants a --variant list names: "all" (every variant of family
 * all_family, at most max) or a comma- or space-separated list of names of
 * any family (a name given again counts once), at most max. Returns 0, or
 * -1 with err naming the unknown name, more than max, or an empty list. */
int sb_variants_select(const char *list, const char *all_family, const struct sb_variant **out, size_t max,
		       size_t *n, char *err, size_t errlen);


/* From now on the variants of the hidden families (variant_families.h:
 * the tests' planted instructions) are listed too; before, no lookup finds
 * them. */
void sb_registry_show_test_variants(void);

/* The function records. */
size_t sb_function_count(void);
const struct sb_function *sb_function_at(size_t i);

#endif

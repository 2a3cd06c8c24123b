/* variants.h: the registry every front end draws from (CLI, tests, later the
 * timing harness, likwid regions and Google Benchmark). */
#ifndef STUBBENCH_VARIANTS_H
#define STUBBENCH_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "stubbench/stub.h"

struct sb_variant {
	const char *name;        /* "private": what --variant= takes */
	const char *seed_name;   /* "private-stack": the seeds' bench name */
	const char *description; /* one line */
	const char *listing;     /* which listing it reproduces */
	const char *flavour;     /* kernel version and codegen flavour */
	const char *shape;       /* "per-run" or "in-loop" */
	sb_stub_fn main;         /* the stub the harness calls */
	volatile uint64_t *counter; /* incremented once per iteration */
	/* in-loop stubs: the iteration count the stub reads (like the BPF
	 * program's batch_iters); the harness sets it to the batch and calls
	 * the stub once. NULL for per-run stubs, which the harness calls
	 * batch times. */
	volatile uint64_t *batch_iters;
	unsigned insns_per_call; /* instructions per iteration, from the listing */
	int uses_private_stack;  /* needs sb_percpu_thread_init() */
};

/* A family of variants, defined beside its stubs (one table per file). */
struct sb_variant_table {
	const char *family;      /* "replica", "lab", "twin", ... */
	const struct sb_variant *variants;
	size_t n;
};

/* All variants of all families, in display order. */
size_t sb_variant_count(void);
const struct sb_variant *sb_variant_at(size_t i);
/* The family a variant belongs to. */
const char *sb_variant_family(const struct sb_variant *v);
/* Looks up by name or seed name; NULL when unknown. */
const struct sb_variant *sb_variant_find(const char *name);

#endif

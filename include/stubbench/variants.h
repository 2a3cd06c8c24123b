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
	volatile uint64_t *counter; /* incremented once per main-prog call */
	unsigned insns_per_call; /* instructions per main-prog call, from the listing */
	int uses_private_stack;  /* needs sb_percpu_thread_init() */
};

/* All variants, in display order. */
size_t sb_variant_count(void);
const struct sb_variant *sb_variant_at(size_t i);
/* Looks up by name or seed name; NULL when unknown. */
const struct sb_variant *sb_variant_find(const char *name);

#endif

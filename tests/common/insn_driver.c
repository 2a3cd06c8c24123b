/* insn_driver: runs one variant inside sb_count_loop() so that callgrind
 * (--toggle-collect=sb_count_loop) counts exactly its instructions, and
 * prints what the variant's record says, so tests/common/count_insns.sh can
 * compare the two.
 * usage: insn_driver VARIANT BATCH CALLS
 *   per-run variants: CALLS x BATCH calls of the main prog
 *   in-loop variants: CALLS runs with *batch_iters = BATCH
 *        insn_driver --list
 *   the variants, one name a line (the tests are made from this list) */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variants/percpu.h"
#include "stubbench/registry.h"

void sb_count_loop(sb_stub_fn fn, uint64_t n);

static int parse(const char *what, const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || v == 0) {
		fprintf(stderr, "insn_driver: %s: '%s' is not a positive whole number\n", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t batch, calls;
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t i = 0; i < sb_variant_count(); i++)
			printf("%s\n", sb_variant_at(i)->name);
		return 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: insn_driver VARIANT BATCH CALLS | insn_driver --list\n");
		return 2;
	}
	const struct sb_variant *v = sb_variant_find(argv[1]);
	if (!v) {
		fprintf(stderr, "insn_driver: '%s' is not a variant\n", argv[1]);
		return 2;
	}
	if (parse("BATCH", argv[2], &batch) || parse("CALLS", argv[3], &calls))
		return 2;
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "insn_driver: %s\n", err);
		return 1;
	}
	uint64_t before = *v->counter;
	if (v->batch_iters) {
		*v->batch_iters = batch;
		sb_count_loop(v->main, calls);
	} else {
		sb_count_loop(v->main, calls * batch);
	}
	uint64_t done = *v->counter - before;
	printf("registry: %u per iteration, %u fixed per run, %s\n", v->insns_per_call, v->insns_fixed,
	       v->shape);
	printf("iterations: %" PRIu64 "\n", done);
	sb_percpu_thread_fini();
	return done == calls * batch ? 0 : 1;
}

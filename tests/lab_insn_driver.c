/* lab_insn_driver: runs one lab variant inside sb_lab_count_loop() so that
 * callgrind (--toggle-collect=sb_lab_count_loop) counts exactly its
 * instructions; also prints what the registry says, so the script can
 * compare the three: hand count, registry, valgrind.
 * usage: lab_insn_driver VARIANT BATCH CALLS
 *   per-run variants: CALLS x BATCH calls of the main prog
 *   in-loop variants: CALLS runs with *batch_iters = BATCH */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "stubbench/lab.h"
#include "stubbench/percpu.h"

void sb_lab_count_loop(sb_stub_fn fn, uint64_t n);

static int parse(const char *what, const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || !*s || *s == '-' || v == 0) {
		fprintf(stderr, "lab_insn_driver: %s: '%s' is not a positive whole number\n", what, s);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t batch, calls;
	if (argc != 4) {
		fprintf(stderr, "usage: lab_insn_driver VARIANT BATCH CALLS\n");
		return 2;
	}
	const struct sb_variant *v = sb_variant_find(argv[1]);
	const struct sb_lab_info *li = v ? sb_lab_info_of(v) : NULL;
	if (!li) {
		fprintf(stderr, "lab_insn_driver: '%s' is not a lab variant\n", argv[1]);
		return 2;
	}
	if (parse("BATCH", argv[2], &batch) || parse("CALLS", argv[3], &calls))
		return 2;
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "lab_insn_driver: %s\n", err);
		return 1;
	}
	uint64_t before = *v->counter;
	if (v->batch_iters) {
		*v->batch_iters = batch;
		sb_lab_count_loop(v->main, calls);
	} else {
		sb_lab_count_loop(v->main, calls * batch);
	}
	uint64_t done = *v->counter - before;
	printf("registry: %u per iteration, %u fixed per run\n", v->insns_per_call, li->insns_fixed);
	printf("iterations: %" PRIu64 "\n", done);
	sb_percpu_thread_fini();
	return done == calls * batch ? 0 : 1;
}

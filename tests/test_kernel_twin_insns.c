/* Exact instructions of the twins under valgrind's callgrind: for each twin
 * variant, total(N) == per_run + N x insns_per_call for two N, where
 * insns_per_call is the registry's count from the listings and per_run the
 * in-loop programs' prologue and epilogue (0 for per-run stubs, whose
 * driver loop is the harness's). The test runs itself under callgrind as
 * the driver ("--drive VARIANT N"), collecting only inside the stub.
 * Exits 77 (SKIP) without valgrind. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "stubbench/percpu.h"
#include "stubbench/twin.h"
#include "stubbench/variants.h"

static const struct {
	const char *variant;
	const char *symbol;  /* callgrind --toggle-collect */
	unsigned per_run;    /* instructions once per stub call besides the iterations */
} twins[] = {
	{"twin-per-run-baseline", "sb_twin_run_baseline_prog", 0},
	{"twin-per-run-private", "sb_twin_run_private_prog", 0},
	{"twin-per-run-hybrid", "sb_twin_run_hybrid_prog", 0},
	/* nop5 nop3 push mov sub push x3 movabs mov mov mov test je xor movabs
	 * | xor pop x3 leave jmp ret */
	{"twin-in-loop-baseline", "sb_twin_loop_baseline", 16 + 7},
	/* as baseline without sub rsp, with movabs r9 + add r9 */
	{"twin-in-loop-private", "sb_twin_loop_private", 17 + 7},
	{"twin-in-loop-hybrid", "sb_twin_loop_hybrid", 17 + 7},
};

static int drive(const char *name, uint64_t n)
{
	const struct sb_variant *v = sb_variant_find(name);
	char err[256];
	if (!v || sb_percpu_thread_init(err, sizeof(err)) != 0)
		return 2;
	uint64_t before = *v->counter;
	if (v->batch_iters) {
		*v->batch_iters = n;
		v->main();
	} else {
		for (uint64_t i = 0; i < n; i++)
			v->main();
	}
	return *v->counter - before == n ? 0 : 1;
}

/* Runs this program under callgrind; returns the collected total or -1. */
static long long count(const char *self, const char *variant, const char *symbol, uint64_t n)
{
	char out[] = "/tmp/sb_twin_insns_XXXXXX";
	int fd = mkstemp(out);
	if (fd < 0)
		return -1;
	close(fd);
	char cmd[2048];
	snprintf(cmd, sizeof(cmd),
		 "valgrind --tool=callgrind --toggle-collect=%s --callgrind-out-file=%s %s --drive %s %" PRIu64
		 " >/dev/null 2>&1", symbol, out, self, variant, n);
	int st = system(cmd);
	long long total = -1;
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		FILE *f = fopen(out, "r");
		char line[512];
		while (f && fgets(line, sizeof(line), f))
			if (strncmp(line, "totals:", 7) == 0 || (total < 0 && strncmp(line, "summary:", 8) == 0))
				total = strtoll(line + (line[0] == 't' ? 7 : 8), NULL, 10);
		if (f)
			fclose(f);
	}
	unlink(out);
	return total;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--drive") == 0)
		return drive(argv[2], strtoull(argv[3], NULL, 10));
	if (system("valgrind --version >/dev/null 2>&1") != 0) {
		printf("SKIP: valgrind is not installed (apt-get install valgrind)\n");
		return 77;
	}
	for (size_t i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		const struct sb_variant *v = sb_variant_find(twins[i].variant);
		CHECK(v != NULL, "%s not in the registry", twins[i].variant);
		if (!v)
			continue;
		for (uint64_t n = 1000; n <= 3000; n += 2000) {
			long long got = count(argv[0], twins[i].variant, twins[i].symbol, n);
			long long want = (long long)twins[i].per_run + (long long)n * v->insns_per_call;
			CHECK(got == want, "%s: %lld instructions for %" PRIu64 " iterations, expected %u + %" PRIu64
			      " x %u = %lld", twins[i].variant, got, n, twins[i].per_run, n, v->insns_per_call, want);
			printf("%s: %lld instructions for %" PRIu64 " iterations (%u per iteration + %u)\n",
			       twins[i].variant, got, n, v->insns_per_call, twins[i].per_run);
		}
	}
	return check_report("kernel_twin_insns");
}

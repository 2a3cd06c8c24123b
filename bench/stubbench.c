/* stubbench: runs the replicas of the BPF JIT's private-stack codegen. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/percpu.h"
#include "stubbench/variants.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"usage: stubbench [--list] [--variant=NAME|all] [--calls=N]\n"
		"  --list          print the variants and the listings they reproduce\n"
		"  --variant=NAME  run NAME's main prog (baseline, private, hybrid, all;\n"
		"                  the seeds' no-private-stack and private-stack work too)\n"
		"  --calls=N       main-prog calls per variant (default 1000)\n"
		"  --help          this text\n");
}

static void list_variants(void)
{
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		printf("%-10s %-18s %s\n", v->name, v->seed_name, v->description);
		printf("%-10s %-18s listing: %s\n", "", "", v->listing);
		printf("%-10s %-18s kernel:  %s; %s shape, %u instructions per call\n", "", "",
		       v->flavour, v->shape, v->insns_per_call);
	}
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
	char *end;
	if (!s || !*s || *s == '-') {
		fprintf(stderr, "stubbench: %s: '%s' is not a positive whole number\n", opt, s ? s : "");
		return -1;
	}
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v == 0) {
		fprintf(stderr, "stubbench: %s: '%s' is not a positive whole number\n", opt, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int run_variant(const struct sb_variant *v, uint64_t calls)
{
	uint64_t before = *v->counter;
	for (uint64_t i = 0; i < calls; i++)
		v->main();
	uint64_t after = *v->counter;
	printf("%-10s calls=%" PRIu64 " counter+=%" PRIu64 "\n", v->name, calls, after - before);
	return after - before == calls ? 0 : 1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"list", no_argument, NULL, 'l'},
		{"variant", required_argument, NULL, 'v'},
		{"calls", required_argument, NULL, 'n'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *variant = "all";
	uint64_t calls = 1000;
	int do_list = 0, c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l': do_list = 1; break;
		case 'v': variant = optarg; break;
		case 'n':
			if (parse_u64("--calls", optarg, &calls))
				return EXIT_USAGE;
			break;
		case 'h': usage(stdout); return 0;
		default:
			fprintf(stderr, "stubbench: unknown or incomplete option '%s'\n", argv[optind - 1]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "stubbench: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (do_list) {
		list_variants();
		return 0;
	}
	if (strcmp(variant, "all") != 0 && !sb_variant_find(variant)) {
		fprintf(stderr, "stubbench: unknown variant '%s' (see --list)\n", variant);
		return EXIT_USAGE;
	}
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench: %s\n", err);
		return 1;
	}
	int rc = 0;
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		if (strcmp(variant, "all") == 0 || v == sb_variant_find(variant))
			rc |= run_variant(v, calls);
	}
	if (sb_percpu_check_guards() != 0) {
		fprintf(stderr, "stubbench: private stack guard words were overwritten\n");
		rc = 1;
	}
	sb_percpu_thread_fini();
	return rc;
}

/* paired_driver: sb_paired_over_placements on blocks read from stdin, one
 * "placement,process,a,b" line each; prints one JSON object (mean, its CI,
 * median, placements, processes, modes). For tests on recorded block logs
 * (paired_fixture.py). With "apart", a and b are taken as blocks of two
 * groups of their own (sb_paired_between_placements), the pairing within
 * a block dropped. usage: paired_driver [N_BOOT [apart]] < blocks */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired_placements.h"

int main(int argc, char **argv)
{
	unsigned n_boot = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
	size_t cap = 1024, n = 0;
	double *a = malloc(cap * sizeof(*a)), *b = malloc(cap * sizeof(*b));
	size_t *pl = malloc(cap * sizeof(*pl)), *pr = malloc(cap * sizeof(*pr));
	unsigned long long place, proc;
	double x, y;
	while (a && b && pl && pr && scanf("%llu,%llu,%lf,%lf", &place, &proc, &x, &y) == 4) {
		if (n == cap) {
			cap *= 2;
			a = realloc(a, cap * sizeof(*a)), b = realloc(b, cap * sizeof(*b));
			pl = realloc(pl, cap * sizeof(*pl)), pr = realloc(pr, cap * sizeof(*pr));
			if (!a || !b || !pl || !pr)
				break;
		}
		a[n] = x, b[n] = y, pl[n] = (size_t)place, pr[n] = (size_t)proc;
		n++;
	}
	struct sb_paired p;
	int apart = argc > 2 && strcmp(argv[2], "apart") == 0;
	struct sb_arm_blocks ga = {.value = a, .placement = pl, .process = pr, .n = n},
			     gb = {.value = b, .placement = pl, .process = pr, .n = n};
	if (!a || !b || !pl || !pr ||
	    (apart ? sb_paired_between_placements(&ga, &gb, n_boot, 1, &p)
		   : sb_paired_over_placements(a, b, pl, pr, n, n_boot, 1, &p)) != 0) {
		fprintf(stderr, "paired_driver: no estimate from %zu blocks\n", n);
		return 1;
	}
	printf("{\"mean\": %.9g, \"lo\": %.9g, \"hi\": %.9g, \"median\": %.9g, \"placements\": %zu, "
	       "\"processes\": %zu, \"modes\": [",
	       p.mean.value, p.mean.lo, p.mean.hi, p.median.value, p.n_placements, p.n_processes);
	for (size_t m = 0; m < p.n_modes; m++)
		printf("%s[%.9g, %.9g]", m ? ", " : "", p.modes[m].cycles, p.modes[m].share);
	printf("]}\n");
	free(a), free(b), free(pl), free(pr);
	return 0;
}

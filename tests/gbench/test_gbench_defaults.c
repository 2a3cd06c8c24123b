/* test_gbench_defaults: stubbench-gbench adds the default filter and
 * --benchmark_min_time only where the user gave none, and keeps every
 * flag the user gave, in order. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gbench/gbench_variants.h"

static int count(char **av, int n, const char *prefix)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += strncmp(av[i], prefix, strlen(prefix)) == 0;
	return k;
}

int main(void)
{
	char *none[] = {"stubbench-gbench"};
	int n;
	char **av = sb_gbench_default_flags(1, none, &n);
	CHECK(av && n == 3 && av[n] == NULL, "no flags: %d", n);
	CHECK(av && strcmp(av[0], "stubbench-gbench") == 0, "argv[0] kept");
	CHECK(av && count(av, n, "--benchmark_filter=" SB_GBENCH_DEFAULT_FILTER) == 1, "the default filter");
	CHECK(av && count(av, n, "--benchmark_min_time=0.05") == 1, "the default min time");
	free(av);
	char *given[] = {"stubbench-gbench", "--benchmark_min_time=2", "--benchmark_filter=.", "--benchmark_repetitions=3"};
	av = sb_gbench_default_flags(4, given, &n);
	CHECK(av && n == 4, "given both: %d flags", n);
	for (int i = 0; av && i < 4; i++)
		CHECK(av[i] == given[i], "flag %d kept in place", i);
	free(av);
	char *filter_only[] = {"stubbench-gbench", "--benchmark_filter=^private/"};
	av = sb_gbench_default_flags(2, filter_only, &n);
	CHECK(av && n == 3 && count(av, n, "--benchmark_filter=") == 1 && count(av, n, "--benchmark_min_time=") == 1,
	      "a filter alone: the min time added, no second filter");
	free(av);
	char *time_only[] = {"stubbench-gbench", "--benchmark_min_time=1"};
	av = sb_gbench_default_flags(2, time_only, &n);
	CHECK(av && n == 3 && count(av, n, "--benchmark_min_time=") == 1 && count(av, n, "--benchmark_filter=") == 1,
	      "a min time alone: the filter added, no second min time");
	free(av);
	return check_report("test_gbench_defaults");
}

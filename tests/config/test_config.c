/* Sweep files and option values: the shipped files, broken files, bad values. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "stubbench/config.h"
#include "stubbench/format.h"
#include "stubbench/parse.h"

static const char *dir;

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

/* Loads text as a config; returns the load status, message in err. */
static int load_text(const char *text, struct sb_config *c, char *err, size_t errlen)
{
	char path[] = "/tmp/stubbench-config-XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	write_file(path, text);
	sb_config_defaults(c);
	int rc = sb_config_load(path, c, err, errlen);
	unlink(path);
	return rc;
}

static void shipped_files(void)
{
	char path[1024], err[512];
	struct sb_config d, c;
	sb_config_defaults(&d);
	snprintf(path, sizeof(path), "%s/default.ini", dir);
	memset(&c, 0xff, sizeof(c));
	sb_config_defaults(&c);
	c.measure.time_s = 1;
	c.measure.n_batches = 1;
	CHECK(sb_config_load(path, &c, err, sizeof(err)) == 0, "%s", err);
	/* configs/default.ini says what the built-in defaults are. */
	CHECK(strcmp(c.measure.variants, d.measure.variants) == 0, "variants '%s'", c.measure.variants);
	CHECK(c.measure.n_batches == d.measure.n_batches && memcmp(c.measure.batches, d.measure.batches, d.measure.n_batches * 8) == 0,
	      "batches differ from the built-in defaults");
	CHECK(c.measure.time_s == d.measure.time_s && c.measure.seed == d.measure.seed && sb_format_find(c.out.format) == sb_format_find(d.out.format),
	      "time/seed/format");
	CHECK(c.measure.processes == d.measure.processes, "processes %llu, built in %llu", (unsigned long long)c.measure.processes,
	      (unsigned long long)d.measure.processes);

	snprintf(path, sizeof(path), "%s/seed-run-bench-private-stack.ini", dir);
	CHECK(sb_config_load(path, &c, err, sizeof(err)) == 0, "%s", err);
	CHECK(strcmp(c.measure.variants, "no-private-stack, private-stack") == 0, "seed variants '%s'", c.measure.variants);
	CHECK(c.measure.n_batches == 6 && c.measure.batches[0] == 1 && c.measure.batches[5] == 4096, "seed batches");
	CHECK(c.out.format && strcmp(c.out.format, "seed") == 0 && c.measure.time_s == 156, "seed format/time");
}

static void broken_files(void)
{
	struct sb_config c;
	char err[512];
	CHECK(load_text("[sweep]\nbatches = 1 8\nbogus = 3\n", &c, err, sizeof(err)) == -1, "unknown key");
	CHECK(strstr(err, ":3:") && strstr(err, "bogus"), "err: %s", err);
	CHECK(load_text("[nope]\nx = 1\n", &c, err, sizeof(err)) == -1 && strstr(err, "[nope]"), "err: %s", err);
	CHECK(load_text("[sweep]\nbatches = 1 0 8\n", &c, err, sizeof(err)) == -1 && strstr(err, "'0'"),
	      "err: %s", err);
	CHECK(load_text("[sweep]\ntime = -3\n", &c, err, sizeof(err)) == -1 && strstr(err, "-3"), "err: %s", err);
	CHECK(load_text("[sweep]\ncpu = x\n", &c, err, sizeof(err)) == -1 && strstr(err, "'x'"), "err: %s", err);
	/* A format is kept by name: the command line checks it against the output's. */
	CHECK(load_text("[output]\nformat = xml\n", &c, err, sizeof(err)) == 0 && strcmp(c.out.format, "xml") == 0,
	      "format kept: %s", err);
	CHECK(load_text("[output]\nformat =\n", &c, err, sizeof(err)) == -1 && strstr(err, "[output] format"),
	      "err: %s", err);
	CHECK(load_text("[sweep\nbatches = 1\n", &c, err, sizeof(err)) == -1 && strstr(err, ":1:"), "err: %s", err);
	CHECK(load_text("; only a comment\n", &c, err, sizeof(err)) == 0, "an empty file is valid");
	CHECK(load_text("[sweep]\nsamples = 500\nseed = 9\ncpu = 0\nprocesses = 8\n", &c, err, sizeof(err)) == 0 &&
	      c.measure.samples == 500 && c.measure.seed == 9 && c.measure.cpu == 0 && c.measure.processes == 8, "values not read");
	CHECK(load_text("[sweep]\nprocesses = 0\n", &c, err, sizeof(err)) == -1 && strstr(err, "processes") &&
	      strstr(err, "'0'"), "err: %s", err);
	sb_config_defaults(&c);
	CHECK(sb_config_load("/nonexistent/sweep.ini", &c, err, sizeof(err)) == -1 &&
	      strstr(err, "/nonexistent/sweep.ini"), "err: %s", err);
}

static void values(void)
{
	char err[512];
	uint64_t v, b[SB_MAX_BATCHES];
	size_t n;
	double s;
	int cpu;
	CHECK(sb_parse_u64("--x", "42", 1, &v, err, sizeof(err)) == 0 && v == 42, "42");
	CHECK(sb_parse_u64("--x", "0", 1, &v, err, sizeof(err)) == -1 && strstr(err, "minimum"), "%s", err);
	CHECK(sb_parse_u64("--x", "-1", 0, &v, err, sizeof(err)) == -1, "-1 accepted");
	CHECK(sb_parse_u64("--x", "12abc", 0, &v, err, sizeof(err)) == -1 && strstr(err, "12abc"), "%s", err);
	CHECK(sb_parse_u64("--x", "99999999999999999999999", 0, &v, err, sizeof(err)) == -1 &&
	      strstr(err, "too large"), "%s", err);
	CHECK(sb_parse_u64("--x", "", 0, &v, err, sizeof(err)) == -1, "empty accepted");
	CHECK(sb_parse_seconds("--time", "2.5", &s, err, sizeof(err)) == 0 && s == 2.5, "2.5");
	CHECK(sb_parse_seconds("--time", "0", &s, err, sizeof(err)) == -1, "0 s accepted");
	CHECK(sb_parse_seconds("--time", "nan", &s, err, sizeof(err)) == -1, "nan accepted");
	CHECK(sb_parse_seconds("--time", "inf", &s, err, sizeof(err)) == -1, "inf accepted");
	CHECK(sb_parse_cpu("--cpu", "5000", &cpu, err, sizeof(err)) == -1, "cpu 5000 accepted");
	CHECK(sb_parse_batches("--batch", "1,8, 64 512", b, &n, err, sizeof(err)) == 0 && n == 4 &&
	      b[0] == 1 && b[3] == 512, "batch list");
	CHECK(sb_parse_batches("--batch", "1,x", b, &n, err, sizeof(err)) == -1 && strstr(err, "'x'"), "%s", err);
	CHECK(sb_parse_batches("--batch", " , ", b, &n, err, sizeof(err)) == -1, "empty list accepted");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_config CONFIG_DIR\n");
		return 2;
	}
	dir = argv[1];
	shipped_files();
	broken_files();
	values();
	return check_report("test_config");
}

/* test_ksyms.c: naming what JITed code calls and jumps into, on a recorded
 * image (tests/data/jit_targets_v6_18: run_private's three functions, their
 * jited_ksyms addresses, and /proc/kallsyms lines of the same moment), the
 * refusal of a kallsyms without kernel pointers, and which return thunk
 * the sysfs mitigation lines imply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "jit/ksyms.h"
#include "base/mitigations.h"

static char dir[1024];

static int load_image(struct sb_jit_image *img)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/image.txt", dir);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	snprintf(img->prog_name, sizeof(img->prog_name), "run_private");
	img->funcs = calloc(8, sizeof(*img->funcs));
	char line[256];
	while (img->funcs && img->n < 8 && fgets(line, sizeof(line), f)) {
		struct sb_jit_func *fn = &img->funcs[img->n];
		unsigned long long a;
		if (line[0] == '#' || sscanf(line, "%63s %llx", fn->name, &a) != 2)
			continue;
		fn->ksym = a;
		snprintf(path, sizeof(path), "%s/run_private.%s.bin", dir, fn->name);
		FILE *b = fopen(path, "rb");
		if (!b)
			break;
		fn->bytes = malloc(4096);
		fn->len = fread(fn->bytes, 1, 4096, b);
		fclose(b);
		img->n++;
	}
	fclose(f);
	return img->n == 3 ? 0 : -1;
}

static void write_file(const char *d, const char *name, const char *line)
{
	char path[1200];
	snprintf(path, sizeof(path), "%s/%s", d, name);
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", line);
		fclose(f);
	}
}

static enum sb_thunk infer(const char *v2, const char *rb, const char *srso, const char *its, unsigned family,
			   char *why, size_t whylen)
{
	char d[] = "/tmp/sb_vuln_XXXXXX";
	if (!mkdtemp(d))
		return SB_THUNK_UNKNOWN;
	const char *names[4] = {"spectre_v2", "retbleed", "spec_rstack_overflow", "indirect_target_selection"};
	const char *lines[4] = {v2, rb, srso, its};
	for (int i = 0; i < 4; i++)
		if (lines[i])
			write_file(d, names[i], lines[i]);
	struct sb_mitigations m;
	sb_mitigations_read(d, &m);
	for (int i = 0; i < 4; i++) {
		char path[1200];
		snprintf(path, sizeof(path), "%s/%s", d, names[i]);
		unlink(path);
	}
	rmdir(d);
	return sb_thunk_infer(&m, family, why, whylen);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_ksyms DATA_DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/jit_targets_v6_18", argv[1]);
	char err[512], path[1200];

	struct sb_ksyms ks;
	snprintf(path, sizeof(path), "%s/kallsyms.txt", dir);
	CHECK(sb_ksyms_load(path, &ks, err, sizeof(err)) == 0, "%s", err);
	uint64_t off = 1;
	const struct sb_ksym *s = sb_ksyms_lookup(&ks, 0xffffffff82203661ull, &off);
	CHECK(s && strcmp(s->name, "its_return_thunk") == 0 && off == 1, "lookup inside its_return_thunk: %s+%llu",
	      s ? s->name : "NULL", (unsigned long long)off);
	CHECK(sb_ksyms_lookup(&ks, 0x1000, &off) == NULL, "an address below every symbol resolved");
	CHECK(sb_ksyms_find(&ks, "srso_alias_safe_ret") && sb_ksyms_find(&ks, "srso_alias_safe_ret")->addr ==
	      0xffffffff81104104ull, "srso_alias_safe_ret");

	struct sb_jit_image img = {0};
	CHECK(load_image(&img) == 0, "cannot read the recorded image in %s", dir);
	struct sb_jit_target t[16];
	size_t n = 0;
	if (img.n == 3) {
		/* run_private: call prog_private (same program), jmp thunk. */
		CHECK(sb_jit_resolve_targets(&img, &img.funcs[0], &ks, t, 16, &n, err, sizeof(err)) == 0, "%s", err);
		CHECK(n == 2, "run_private: %zu targets, want 2", n);
		if (n == 2) {
			CHECK(t[0].is_call && strcmp(t[0].name, "prog_private") == 0, "run_private calls '%s'", t[0].name);
			CHECK(!t[1].is_call && strcmp(t[1].name, "its_return_thunk") == 0, "run_private jumps to '%s'",
			      t[1].name);
		}
		CHECK(sb_jit_return_thunk(&img.funcs[0], t, n) == SB_THUNK_ITS, "run_private returns via its");
		/* prog_private: 3 calls of sub_big, one return. */
		CHECK(sb_jit_resolve_targets(&img, &img.funcs[1], &ks, t, 16, &n, err, sizeof(err)) == 0, "%s", err);
		CHECK(n == 4, "prog_private: %zu targets, want 4", n);
		for (size_t i = 0; i < n && i < 3; i++)
			CHECK(t[i].is_call && strcmp(t[i].name, "sub_big") == 0 && t[i].addr == 0xffffffffc00266a0ull,
			      "prog_private call %zu to '%s'", i, t[i].name);
		/* Without the image, kallsyms names the subprog by its bpf_prog symbol. */
		CHECK(sb_jit_resolve_targets(NULL, &img.funcs[1], &ks, t, 16, &n, err, sizeof(err)) == 0, "%s", err);
		CHECK(n == 4 && strcmp(t[0].name, "bpf_prog_763e984d81d06c64_sub_big") == 0, "kallsyms name '%s'",
		      n ? t[0].name : "");
		/* Without kallsyms, the thunk is only an address. */
		CHECK(sb_jit_resolve_targets(&img, &img.funcs[2], NULL, t, 16, &n, err, sizeof(err)) == 0, "%s", err);
		CHECK(n == 1 && strcmp(t[0].name, "?") == 0 && t[0].addr == 0xffffffff82203660ull, "unresolved '%s'",
		      n ? t[0].name : "");
		CHECK(sb_jit_return_thunk(&img.funcs[2], t, n) == SB_THUNK_UNKNOWN, "an unnamed jmp is no known thunk");
		/* A function ending in ret returns through no thunk. */
		struct sb_jit_func plain = {.name = "plain", .bytes = (uint8_t[]){0x31, 0xc0, 0xc9, 0xc3}, .len = 4};
		CHECK(sb_jit_return_thunk(&plain, NULL, 0) == SB_THUNK_RET, "ret");
	}
	for (size_t i = 0; i < img.n; i++)
		free(img.funcs[i].bytes);
	free(img.funcs);
	sb_ksyms_free(&ks);

	/* kallsyms without kernel pointers: one line saying so. */
	snprintf(path, sizeof(path), "%s/kallsyms_zeroed.txt", argv[1]);
	err[0] = '\0';
	CHECK(sb_ksyms_load(path, &ks, err, sizeof(err)) == -1 && strstr(err, "zero") && !strchr(err, '\n'),
	      "zeroed kallsyms: '%s'", err);
	CHECK(sb_ksyms_load("/nonexistent/kallsyms", &ks, err, sizeof(err)) == -1 && strstr(err, "/nonexistent"),
	      "missing file: '%s'", err);

	/* Names. */
	for (int th = SB_THUNK_ITS; th < SB_N_THUNKS; th++)
		CHECK((int)sb_thunk_from_symbol(sb_thunk_name(th)) == th, "name round trip of %d", th);
	CHECK(sb_thunk_from_symbol("its_return_thunk+0x1") == SB_THUNK_UNKNOWN, "an offset is not the thunk");

	/* Inference from the sysfs lines, as seen on the project's machines. */
	char why[256];
	CHECK(infer("Mitigation: Retpolines; STIBP: disabled; RSB filling", "Vulnerable", "Not affected",
		    "Mitigation: Aligned branch/return thunks", 6, why, sizeof(why)) == SB_THUNK_ITS,
	      "Intel ITS: %s", why);
	CHECK(strstr(why, "indirect_target_selection"), "why names the line: %s", why);
	CHECK(infer("Mitigation: Retpolines", "Mitigation: untrained return thunk", "Vulnerable: Safe RET, no microcode",
		    "Not affected", 0x19, why, sizeof(why)) == SB_THUNK_SRSO_ALIAS, "Zen 4: %s", why);
	CHECK(infer("Mitigation: Retpolines", "Mitigation: untrained return thunk", "Mitigation: Safe RET",
		    "Not affected", 0x17, why, sizeof(why)) == SB_THUNK_SRSO, "Zen 2: %s", why);
	CHECK(infer("Mitigation: Retpolines", "Mitigation: untrained return thunk", "Not affected", "Not affected", 0x17,
		    why, sizeof(why)) == SB_THUNK_RETBLEED, "retbleed unret: %s", why);
	CHECK(infer("Mitigation: Retpolines", "Mitigation: Stuffing", "Not affected",
		    "Mitigation: Aligned branch/return thunks", 6, why, sizeof(why)) == SB_THUNK_CALL_DEPTH,
	      "stuffing: %s", why);
	CHECK(infer("Mitigation: Enhanced / Automatic IBRS", "Not affected", "Not affected", "Not affected", 0x1a, why,
		    sizeof(why)) == SB_THUNK_RET, "Zen 5: %s", why);
	CHECK(infer(NULL, NULL, NULL, NULL, 6, why, sizeof(why)) == SB_THUNK_UNKNOWN && strstr(why, "no sysfs"),
	      "no files: %s", why);
	return check_report("test_ksyms");
}

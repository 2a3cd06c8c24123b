/* test_code_check.c: the check of code from files (code_check.h) takes
 * every JIT output the project has recorded (the .bin dumps and the .lst
 * listings of tests/data: v6.18 with and without a private stack, the
 * seeds' July 2024 listings, the pair and htab programs) and refuses
 * crafted code: a syscall, int 0x80, ud2, hlt, in, a stray int3, a jump to
 * itself, into an instruction or out of the function, an indirect call or
 * jump, bytes that do not decode; an int3 after a jmp is padding.
 * usage: test_code_check DATA_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jit/code_check.h"
#include "jit/listing.h"
#include "base/read_file.h"

static size_t taken;

static void take_file(const char *dir, const char *name)
{
	char path[1024], err[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	size_t n = strlen(name), len = 0;
	uint8_t *code = NULL;
	if (n > 4 && strcmp(name + n - 4, ".bin") == 0) {
		code = (uint8_t *)sb_read_file(path, 1 << 20, &len, err, sizeof(err));
	} else if (n > 4 && strcmp(name + n - 4, ".lst") == 0 && strncmp(name, "jit_", 4) == 0) {
		struct sb_listing l;
		if (sb_listing_parse_file(path, &l, err, sizeof(err)))
			return; /* not a listing of code (a test's own format) */
		len = l.size;
		code = malloc(len ? len : 1);
		for (size_t i = 0; i < l.n; i++)
			memcpy(code + l.insns[i].off, l.insns[i].bytes, l.insns[i].len);
		sb_listing_free(&l);
	} else {
		return;
	}
	if (!code) {
		CHECK(0, "%s: %s", path, err);
		return;
	}
	CHECK(sb_code_check(code, len, name, err, sizeof(err)) == 0, "recorded JIT output refused: %s", err);
	taken++;
	free(code);
}

static void recorded(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		CHECK(0, "%s: cannot open", dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)))
		take_file(dir, e->d_name);
	closedir(d);
}

static void refused(const char *what, const uint8_t *code, size_t len, const char *want)
{
	char err[512] = "";
	int rc = sb_code_check(code, len, "f", err, sizeof(err));
	CHECK(rc == -1 && strstr(err, want), "%s: rc %d, '%s', want '%s'", what, rc, err, want);
}

static void crafted(void)
{
	/* push rbp; mov rbp, rsp; X; leave; ret */
#define CODE(...) ((const uint8_t[]){0x55, 0x48, 0x89, 0xe5, __VA_ARGS__, 0xc9, 0xc3})
#define LEN(...) (sizeof((const uint8_t[]){__VA_ARGS__}) + 6)
	refused("syscall", CODE(0xb8, 0x3c, 0, 0, 0, 0x0f, 0x05), LEN(0xb8, 0x3c, 0, 0, 0, 0x0f, 0x05), "f+0x9: 'syscall");
	refused("int 0x80", CODE(0xcd, 0x80), LEN(0xcd, 0x80), "'int 0x80'");
	refused("ud2", CODE(0x0f, 0x0b), LEN(0x0f, 0x0b), "'ud2");
	refused("hlt", CODE(0xf4), LEN(0xf4), "'hlt");
	refused("in", CODE(0xe4, 0x80), LEN(0xe4, 0x80), "no JIT emits it");
	refused("int3", CODE(0xcc), LEN(0xcc), "only after a jmp or ret");
	refused("self", CODE(0xeb, 0xfe), LEN(0xeb, 0xfe), "a jump to itself");
	refused("into", CODE(0xeb, 0x01, 0x48, 0x31, 0xc0), LEN(0xeb, 0x01, 0x48, 0x31, 0xc0), "middle of an instruction");
	refused("out", CODE(0x74, 0x7f), LEN(0x74, 0x7f), "a jump out of the function");
	refused("call rax", CODE(0xff, 0xd0), LEN(0xff, 0xd0), "an indirect call");
	refused("jmp rax", CODE(0xff, 0xe0), LEN(0xff, 0xe0), "an indirect jump");
	refused("undecodable", CODE(0x06), LEN(0x06), "do not decode");
	/* Taken: a rel32 call and jmp leaving (helper, return thunk), int3 padding. */
	static const uint8_t ok[] = {0x55, 0x48, 0x89, 0xe5, 0xe8, 0, 1, 0, 0, 0xc9, 0xe9, 0, 2, 0, 0, 0xcc};
	char err[512];
	CHECK(sb_code_check(ok, sizeof(ok), "ok", err, sizeof(err)) == 0, "call, jmp to the thunk, int3: %s", err);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_code_check DATA_DIR\n");
		return 2;
	}
	char sub[1024];
	recorded(argv[1]);
	snprintf(sub, sizeof(sub), "%s/jit_v6_18_no_private_stack", argv[1]);
	recorded(sub);
	CHECK(taken >= 30, "only %zu recorded functions found", taken);
	crafted();
	printf("test_code_check: %zu recorded functions taken\n", taken);
	return check_report("test_code_check");
}

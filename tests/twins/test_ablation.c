/* test_ablation: the parts of seed 001's replicas against their baselines
 * (seed flavour, host flavour, the planted lfence), exactly: which
 * instructions, at which offsets; and the ablations' bytes (NOP forms of
 * the same length, the part removed with its jumps laid out again, the
 * lfence removed giving private's own bytes), made runnable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "twins/ablation.h"
#include "twins/annotate_baseline.h"
#include "variants/percpu.h"
#include "stubbench/registry.h"
#include "variants/variant_baseline.h"

/* The baselines of parts_of: their bytes outlive each a, and are freed
 * at the end (so that the sanitizer build's leak check holds). */
static struct sb_annotate_baseline baselines[8];
static size_t n_baselines;

static void free_baselines(void)
{
	for (size_t i = 0; i < n_baselines; i++)
		sb_annotate_baseline_free(&baselines[i]);
	n_baselines = 0;
}

static void parts_of(const char *name, struct sb_ablation *a)
{
	const struct sb_variant *v = sb_variant_find(name);
	if (n_baselines == sizeof(baselines) / sizeof(baselines[0])) {
		CHECK(0, "more than %zu baselines", n_baselines);
		exit(1);
	}
	struct sb_annotate_baseline *bp = &baselines[n_baselines++];
#define b (*bp)
	struct sb_code_func vf[SB_CODE_VARIANT_MAX_FUNCS];
	char err[512] = "";
	long nv = v ? sb_code_variant_funcs_of(v, vf, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err)) : -1;
	int nb = nv > 0 ? sb_annotate_baseline(v, &b, err, sizeof(err)) : -1;
	int rc = nb == 0 ? sb_ablation_parts(vf, (size_t)nv, b.funcs, b.n_funcs, a, err, sizeof(err)) : -1;
	CHECK(rc == 0, "%s: %s", name, err);
	if (rc)
		exit(1);
	if (getenv("VERBOSE"))
		for (size_t k = 0; k < a->n_parts; k++) {
			printf("%s part %zu: %s:", name, k + 1, a->parts[k].name);
			for (size_t r = 0; r < a->parts[k].n_rows; r++)
				printf(" +%#zx/%zu", a->rows[a->parts[k].rows[r]].off, a->rows[a->parts[k].rows[r]].len);
			printf("\n");
		}
#undef b
}

/* Part k: kind, function, and its instructions' offsets and lengths. */
static void expect(const struct sb_ablation *a, size_t k, enum sb_part_kind kind, size_t func, size_t n,
		   const size_t *off, const size_t *len)
{
	CHECK(k < a->n_parts, "part %zu of %zu", k + 1, a->n_parts);
	if (k >= a->n_parts)
		return;
	const struct sb_ablation_part *p = &a->parts[k];
	CHECK(p->kind == kind && p->func == func && p->n_rows == n, "part %zu: %s (%s, func %zu, %zu insns)",
		  k + 1, p->name, sb_part_kind_name(p->kind), p->func, p->n_rows);
	for (size_t r = 0; r < n && r < p->n_rows; r++)
		CHECK(a->rows[p->rows[r]].off == off[r] && a->rows[p->rows[r]].len == len[r],
			  "part %zu insn %zu: +%#zx/%zu, expected +%#zx/%zu", k + 1, r, a->rows[p->rows[r]].off,
			  a->rows[p->rows[r]].len, off[r], len[r]);
}

static void seed_private(void)
{
	struct sb_ablation a;
	parts_of("private", &a);
	CHECK(a.n_parts == 7, "%s", "");
	CHECK(a.n_funcs == 2, "%s", "");
	CHECK(a.baseline_only == 0, "%s", "");
	expect(&a, 0, SB_PART_R9_LOAD, 0, 1, (size_t[]){0x13}, (size_t[]){10});
	expect(&a, 1, SB_PART_R9_GS_ADD, 0, 1, (size_t[]){0x1d}, (size_t[]){9});
	expect(&a, 2, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x3c, 0x43}, (size_t[]){2, 2});
	expect(&a, 3, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x45, 0x4c}, (size_t[]){2, 2});
	expect(&a, 4, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x4e, 0x55}, (size_t[]){2, 2});
	expect(&a, 5, SB_PART_R9_LOAD, 1, 1, (size_t[]){0x13}, (size_t[]){10});
	expect(&a, 6, SB_PART_R9_GS_ADD, 1, 1, (size_t[]){0x1d}, (size_t[]){9});
	CHECK(strcmp(a.parts[2].name, "push/pop r9 main+0x3c") == 0, "%s", "");

	/* NOPs: same length, the part's bytes the kernel's NOP forms, the rest
	 * unchanged. */
	uint8_t *code;
	size_t len, removed;
	char err[256];
	CHECK(sb_ablation_code(&a, 2, SB_ABLATE_NOP, &code, &len, &removed, err, sizeof(err)) == 0, "%s", "");
	CHECK(len == a.funcs[0].len && removed == 0, "%s", "");
	CHECK(memcmp(code + 0x3c, "\x66\x90", 2) == 0 && memcmp(code + 0x43, "\x66\x90", 2) == 0, "%s", "");
	CHECK(memcmp(code, a.funcs[0].code, 0x3c) == 0 && memcmp(code + 0x3e, a.funcs[0].code + 0x3e, 5) == 0, "%s", "");
	free(code);
	CHECK(sb_ablation_code(&a, 0, SB_ABLATE_NOP, &code, &len, &removed, err, sizeof(err)) == 0, "%s", "");
	CHECK(memcmp(code + 0x13, "\x0f\x1f\x84\x00\x00\x00\x00\x00\x66\x90", 10) == 0, "%s", "");
	free(code);
	/* Removed: 4 bytes shorter, the call after the pair still aimed at the
	 * subprog (rel32 from the same origin: 4 more). */
	CHECK(sb_ablation_code(&a, 2, SB_ABLATE_REMOVE, &code, &len, &removed, err, sizeof(err)) == 0, "%s", "");
	CHECK(len == a.funcs[0].len - 4 && removed == 2, "%s", "");
	CHECK(code[0x3c] == 0xe8 && code[0x41] == 0x41 && code[0x42] == 0x51, "%s", "");
	int32_t before, after;
	memcpy(&before, a.funcs[0].code + 0x3f, 4);
	memcpy(&after, code + 0x3d, 4);
	CHECK(after == before + 2, "rel32 %d -> %d", before, after);
	free(code);
	sb_ablation_free(&a);
}

static void host_private(void)
{
	struct sb_ablation a;
	parts_of("host-private", &a);
	CHECK(a.n_parts == 7, "%zu parts", a.n_parts);
	CHECK(a.baseline_only == 0, "%zu", a.baseline_only);
	expect(&a, 0, SB_PART_R9_LOAD, 0, 1, (size_t[]){0xc}, (size_t[]){10});
	expect(&a, 1, SB_PART_R9_GS_ADD, 0, 1, (size_t[]){0x16}, (size_t[]){9});
	expect(&a, 2, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x35, 0x3c}, (size_t[]){2, 2});
	expect(&a, 3, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x3e, 0x45}, (size_t[]){2, 2});
	expect(&a, 4, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x47, 0x4e}, (size_t[]){2, 2});
	expect(&a, 5, SB_PART_R9_LOAD, 1, 1, (size_t[]){0xc}, (size_t[]){10});
	expect(&a, 6, SB_PART_R9_GS_ADD, 1, 1, (size_t[]){0x16}, (size_t[]){9});
	sb_ablation_free(&a);
}

/* The planted lfence: a part of its own; removed, private's main prog byte
 * for byte (apart from the movabs of its counter and frame, and the call's
 * rel32, aimed from another place). */
static void planted_lfence(void)
{
	sb_registry_show_test_variants();
	struct sb_ablation a;
	parts_of("test-lfence", &a);
	CHECK(a.n_parts == 8, "%zu parts", a.n_parts);
	expect(&a, 3, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x45, 0x4f}, (size_t[]){2, 2});
	expect(&a, 4, SB_PART_ADDED, 0, 1, (size_t[]){0x47}, (size_t[]){3});
	CHECK(strcmp(a.parts[4].name, "lfence main+0x47") == 0, "%s", a.parts[4].name);
	uint8_t *code;
	size_t len, removed;
	char err[256];
	CHECK(sb_ablation_code(&a, 4, SB_ABLATE_REMOVE, &code, &len, &removed, err, sizeof(err)) == 0, "%s", "");
	struct sb_code_func pf[SB_CODE_VARIANT_MAX_FUNCS];
	CHECK(sb_code_variant_funcs_of(sb_variant_find("private"), pf, SB_CODE_VARIANT_MAX_FUNCS, err, sizeof(err)) == 2, "%s", "");
	CHECK(len == pf[0].len, "%zu vs %zu bytes", len, pf[0].len);
	/* Masked: the movabs immediates (frame, counter) and the calls' rel32. */
	static const size_t mask[][2] = {{0x15, 0x1d}, {0x28, 0x30}, {0x3f, 0x43}, {0x48, 0x4c}, {0x51, 0x55}};
	uint8_t x[0x5b], y[0x5b];
	if (len == sizeof(x)) {
		memcpy(x, code, len), memcpy(y, pf[0].code, len);
		for (size_t m = 0; m < sizeof(mask) / sizeof(mask[0]); m++)
			memset(x + mask[m][0], 0, mask[m][1] - mask[m][0]), memset(y + mask[m][0], 0, mask[m][1] - mask[m][0]);
		CHECK(memcmp(x, y, len) == 0, "%s", "lfence removed differs from private");
	}
	/* It runs: made a variant, called, it counts. */
	struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS];
	memcpy(funcs, a.funcs, sizeof(funcs));
	funcs[0].code = code, funcs[0].len = len, funcs[0].name = NULL;
	struct sb_code_variant cv;
	const struct sb_variant *t = sb_variant_find("test-lfence");
	int made = sb_code_variant_make(t, "test-lfence:del:5", NULL, funcs, a.n_funcs, &cv, err, sizeof(err));
	CHECK(made == 0, "%s", err);
	if (made == 0)
		sb_code_variant_free(&cv);
	free(code);
	sb_ablation_free(&a);
}

/* Calls cv's main once: its counter must advance by one (per-run). */
static void runs_once(const struct sb_variant *v)
{
	uint64_t before = *v->counter;
	CHECK(v->main() == 0, "%s returned non-zero", v->name);
	CHECK(*v->counter == before + 1, "%s: counter %llu -> %llu", v->name, (unsigned long long)before,
	      (unsigned long long)*v->counter);
}

/* A frame part removed takes the frame back to rsp: sub_big (no calls) is
 * then its de-privatized self, byte for byte; main gets the same sub rsp
 * as its de-privatized self, where the JIT's prologue puts it (+0xc, after
 * push rbp; mov rbp, rsp). */
static void frame_removed(const struct sb_ablation *a, const struct sb_annotate_baseline *b)
{
	char err[512] = "";
	for (size_t k = 0; k < a->n_parts; k++) {
		if (a->parts[k].kind != SB_PART_FRAME)
			continue;
		size_t f = a->parts[k].func, len = 0, removed = 0;
		uint8_t *code = NULL;
		int rc = sb_ablation_code(a, k, SB_ABLATE_REMOVE, &code, &len, &removed, err, sizeof(err));
		CHECK(rc == 0, "frame part of func %zu: %s", f, err);
		const uint8_t *sub = b->funcs[f].code + 0xc;
		CHECK(b->funcs[f].len > 0x13 && sub[0] == 0x48 && sub[1] == 0x81 && sub[2] == 0xec,
		      "func %zu's de-privatized self has no sub rsp, imm32 at +0xc", f);
		CHECK(rc == 0 && len > 0x13 && memcmp(code + 0xc, sub, 7) == 0,
		      "func %zu, frame part removed: no sub rsp of the de-privatized depth at +0xc", f);
		CHECK(removed == 2, "func %zu, frame part removed: %zu instructions dropped, expected the r9 setup's 2",
		      f, removed);
		if (f == 1)
			CHECK(rc == 0 && len == b->funcs[f].len && memcmp(code, b->funcs[f].code, len) == 0,
			      "sub_big, frame part removed: %zu bytes, not its de-privatized self's %zu", len,
			      b->funcs[f].len);
		free(code);
	}
}

/* A kernel twin against its de-privatized self: the parts are exactly the
 * private stack's; in a function with r9 frame accesses (both of them:
 * main's [r9-0x40] and sub_big's) the r9 load and gs add join the frame
 * part, so that no ablation leaves an access on an undefined r9. Every
 * ablation runs. */
static void twin_parts(void)
{
	struct sb_ablation a;
	parts_of("twin-per-run-private", &a);
	CHECK(a.n_parts == 5 && a.n_funcs == 2, "%zu parts, %zu funcs", a.n_parts, a.n_funcs);
	expect(&a, 0, SB_PART_FRAME, 0, 4, (size_t[]){0xd, 0x17, 0x20, 0x24}, (size_t[]){10, 9, 4, 4});
	expect(&a, 1, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x41, 0x48}, (size_t[]){2, 2});
	expect(&a, 2, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x4d, 0x54}, (size_t[]){2, 2});
	expect(&a, 3, SB_PART_CALL_WRAP, 0, 2, (size_t[]){0x59, 0x60}, (size_t[]){2, 2});
	expect(&a, 4, SB_PART_FRAME, 1, 4, (size_t[]){0xc, 0x16, 0x1f, 0x23}, (size_t[]){10, 9, 4, 4});
	char err[512] = "";
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		printf("ablation: no per-CPU area (%s): the twin's ablations not run\n", err);
		return;
	}
	struct sb_annotate_baseline b;
	CHECK(sb_annotate_baseline(sb_variant_find("twin-per-run-private"), &b, err, sizeof(err)) == 0, "%s", err);
	CHECK(strcmp(b.v->name, "twin-per-run-private:deprivatized") == 0, "%s", b.v->name);
	runs_once(b.v);
	frame_removed(&a, &b);
	for (size_t k = 0; k <= a.n_parts; k++)
		for (int how = 0; how < 2; how++) {
			struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS];
			uint8_t *code[SB_CODE_VARIANT_MAX_FUNCS] = {0};
			size_t removed;
			memcpy(funcs, a.funcs, sizeof(funcs));
			for (size_t f = 0; f < a.n_funcs; f++) {
				funcs[f].name = NULL;
				int rc = k == a.n_parts ? sb_ablation_all_nops(&a, f, &code[f], &funcs[f].len, err, sizeof(err))
				       : f != a.parts[k].func ? 0
				       : sb_ablation_code(&a, k, how ? SB_ABLATE_REMOVE : SB_ABLATE_NOP, &code[f],
							  &funcs[f].len, &removed, err, sizeof(err));
				CHECK(rc == 0, "part %zu: %s", k + 1, err);
				if (code[f])
					funcs[f].code = code[f];
			}
			struct sb_code_variant cv;
			char name[64];
			snprintf(name, sizeof(name), "twin-test:%zu:%d", k + 1, how);
			int made = sb_code_variant_make(sb_variant_find("twin-per-run-private"), name, NULL, funcs,
							a.n_funcs, &cv, err, sizeof(err));
			CHECK(made == 0, "%s: %s", name, err);
			if (made == 0) {
				runs_once(&cv.v);
				sb_code_variant_free(&cv);
			}
			for (size_t f = 0; f < a.n_funcs; f++)
				free(code[f]);
		}
	sb_annotate_baseline_free(&b);
	sb_ablation_free(&a);
}

/* A lab alternative against the lab's mainline of its shape and return:
 * reload's parts are the r9 load and gs add it repeats after each call
 * (mainline's push/pop r9 are baseline instructions it lacks). */
static void lab_parts(void)
{
	const struct sb_variant *v = sb_variant_find("lab-reload-perrun");
	const struct sb_variant *b = v ? sb_variant_baseline_of(v) : NULL;
	CHECK(b && strcmp(b->name, "lab-mainline-perrun") == 0, "reload's baseline: %s", b ? b->name : "none");
	const struct sb_variant *m = b ? sb_variant_baseline_of(b) : NULL;
	CHECK(m && strcmp(m->name, "lab-baseline-perrun") == 0, "mainline's baseline: %s", m ? m->name : "none");
	CHECK(m && sb_variant_baseline_of(m) == NULL, "the lab's baseline has a baseline");
	struct sb_ablation a;
	parts_of("lab-reload-perrun", &a);
	CHECK(a.n_parts == 6, "%zu parts", a.n_parts);
	CHECK(a.baseline_only == 6, "%zu baseline-only", a.baseline_only);
	for (size_t k = 0; k < 6; k++)
		expect(&a, k, k % 2 ? SB_PART_R9_GS_ADD : SB_PART_R9_LOAD, 0, 1,
		       (size_t[]){(size_t[]){0x3a, 0x44, 0x52, 0x5c, 0x6a, 0x74}[k]}, (size_t[]){k % 2 ? 9u : 10u});
	sb_ablation_free(&a);
}

int main(void)
{
	seed_private();
	host_private();
	planted_lfence();
	twin_parts();
	lab_parts();
	free_baselines();
	return check_report("ablation");
}

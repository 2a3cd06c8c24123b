/* Behaviour of the codegen lab: every lab variant counts its iterations,
 * keeps the callee-saved registers, leaves the right frame pointer behind,
 * keeps the call depth balanced; the probes show the frame pointer each
 * alternative holds after its setup and after calls, also when the callee
 * clobbers r9; one private stack per thread; guards intact. */
#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include "check.h"
#include "percpu_threads.h"
#include "variants/lab_variants.h"
#include "variants/percpu.h"

extern volatile uint64_t sb_lab_probe_fp[8];
extern char sb_lab_probe_mainline_area[], sb_lab_probe_reload_area[], sb_lab_probe_callee_area[],
	sb_lab_probe_spill_area[], sb_lab_probe_sub_area[];
int sb_lab_probe_mainline(void), sb_lab_probe_reload(void), sb_lab_probe_callee(void),
	sb_lab_probe_spill(void);
int sb_lab_abi_call(sb_stub_fn fn, uint64_t r9_in, uint64_t out[7]);
extern const int64_t sb_lab_call_depth_disp;

#define R9_SENTINEL 0x0909090909090909ULL
static const uint64_t saved_want[6] = {
	0x0b0b0b0b0b0b0b0bULL, 0x0bbbbbbbbbbbbbbbULL, 0x1212121212121212ULL,
	0x1313131313131313ULL, 0x1414141414141414ULL, 0x1515151515151515ULL,
};
static const char *const saved_name[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};

static void set_call_depth(uint64_t v)
{
	int64_t d = sb_lab_call_depth_disp;
	__asm__ volatile("movq %0, %%gs:(%1)" : : "r"(v), "r"(d) : "memory");
}

/* One run of `batch` iterations through the ABI check; returns r9 after. */
static uint64_t run(const struct sb_lab_info *li, uint64_t batch)
{
	const struct sb_variant *v = li->variant;
	uint64_t out[7] = {0};
	uint64_t calls = v->batch_iters ? 1 : batch;
	if (v->batch_iters)
		*v->batch_iters = batch;
	for (uint64_t i = 0; i < calls; i++) {
		int rc = sb_lab_abi_call(v->main, R9_SENTINEL, out);
		CHECK(rc == 0, "%s returned %d", v->name, rc);
		for (int r = 0; r < 6; r++)
			CHECK(out[1 + r] == saved_want[r], "%s clobbered %s (%#" PRIx64 ")", v->name,
			      saved_name[r], out[1 + r]);
	}
	if (v->batch_iters)
		*v->batch_iters = 1;
	return out[0];
}

static void variants(void)
{
	CHECK(sb_lab_count() == 6 * SB_LAB_N_RETURNS * 2 && SB_LAB_N_RETURNS == 5,
	      "%zu lab variants, want (5 alternatives + control) x 5 returns x 2 shapes", sb_lab_count());
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		const struct sb_variant *v = li->variant;
		CHECK(sb_variant_find(v->name) == v, "%s not found in the registry", v->name);
		CHECK(strcmp(sb_variant_family(v), "lab") == 0, "%s: family %s", v->name,
		      sb_variant_family(v));
		CHECK(sb_lab_info_of(v) == li, "%s: sb_lab_info_of", v->name);
		/* the asm's alternative and return numbers are lab_variants.h's enums */
		char name[96];
		snprintf(name, sizeof(name), "lab-%s%s%s-%s", sb_lab_alt_name(li->alt),
			 li->ret == SB_LAB_RET ? "" : "-", li->ret == SB_LAB_RET ? "" : sb_lab_return_name(li->ret),
			 li->in_loop ? "inloop" : "perrun");
		CHECK(strcmp(v->name, name) == 0, "%s: the enums say %s", v->name, name);
		CHECK(li->insns_fixed == v->insns_fixed, "%s: fixed instructions %u, variant %u", v->name,
		      li->insns_fixed, v->insns_fixed);
		CHECK(li->program == v->program, "%s: program", v->name);
		CHECK(strcmp(v->shape, li->in_loop ? "in-loop" : "per-run") == 0, "%s: shape %s",
		      v->name, v->shape);
		CHECK((v->batch_iters != NULL) == li->in_loop, "%s: batch_iters", v->name);
		CHECK((li->area != NULL) ==
			      (li->alt != SB_LAB_BASELINE && li->alt != SB_LAB_PLACEMENT_CONTROL),
		      "%s: area", v->name);

		uint64_t depth = sb_lab_call_depth();
		uint64_t before = *v->counter;
		uint64_t r9 = run(li, 7);
		CHECK(*v->counter - before == 7, "%s: counter advanced by %" PRIu64 ", want 7", v->name,
		      *v->counter - before);
		CHECK(sb_lab_call_depth() == depth, "%s: call depth %#" PRIx64 " -> %#" PRIx64
		      " (unbalanced accounting)", v->name, depth, sb_lab_call_depth());
		/* r9 after the run: r9-based alternatives end with their own frame
		 * pointer in r9 (pop r9, reload, fill after the last call); the
		 * baseline and callee-saved never touch r9 (the subprog neither). */
		uint64_t want = li->fp_reg == 9 ? sb_percpu_frame_pointer(li->area) : R9_SENTINEL;
		CHECK(want != 0, "%s: no frame pointer for its area", v->name);
		CHECK(r9 == want, "%s: r9 after the run %#" PRIx64 ", want %#" PRIx64, v->name, r9, want);
		if (li->in_loop) {
			before = *v->counter;
			run(li, 0);
			CHECK(*v->counter == before, "%s: batch 0 ran the loop", v->name);
		}
	}
}

static void probes(void)
{
	static const struct {
		const char *name;
		int (*fn)(void);
		const char *area;
	} p[] = {
		{"mainline", sb_lab_probe_mainline, sb_lab_probe_mainline_area},
		{"reload", sb_lab_probe_reload, sb_lab_probe_reload_area},
		{"callee-saved", sb_lab_probe_callee, sb_lab_probe_callee_area},
		{"spill-once", sb_lab_probe_spill, sb_lab_probe_spill_area},
	};
	uintptr_t sub_fp = sb_percpu_frame_pointer(sb_lab_probe_sub_area);
	CHECK(sub_fp == (uintptr_t)sb_percpu_ptr(sb_lab_probe_sub_area) + 8 + 128, "sub fp layout");
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++) {
		uint64_t out[7];
		memset((void *)sb_lab_probe_fp, 0, 64);
		CHECK(sb_lab_abi_call(p[i].fn, R9_SENTINEL, out) == 0, "%s probe failed", p[i].name);
		for (int r = 0; r < 6; r++)
			CHECK(out[1 + r] == saved_want[r], "%s probe clobbered %s", p[i].name, saved_name[r]);
		uintptr_t fp = sb_percpu_frame_pointer(p[i].area);
		CHECK(fp == (uintptr_t)sb_percpu_ptr(p[i].area) + 8 + 64, "%s: fp layout", p[i].name);
		CHECK(fp != sub_fp, "%s: areas overlap", p[i].name);
		CHECK(sb_lab_probe_fp[0] == fp, "%s: fp after setup %#" PRIx64 ", want %#lx", p[i].name,
		      sb_lab_probe_fp[0], (unsigned long)fp);
		CHECK(sb_lab_probe_fp[1] == fp, "%s: fp after a callee clobbered r9: %#" PRIx64,
		      p[i].name, sb_lab_probe_fp[1]);
		CHECK(sb_lab_probe_fp[3] == sub_fp, "%s: r9 inside the private subprog %#" PRIx64
		      ", want %#lx", p[i].name, sb_lab_probe_fp[3], (unsigned long)sub_fp);
		CHECK(sb_lab_probe_fp[2] == fp, "%s: fp after the private subprog: %#" PRIx64, p[i].name,
		      sb_lab_probe_fp[2]);
	}
}

/* With the depth word at 0 the thunk must stuff the RSB (16 calls, add rsp)
 * and credit the depth, and the program must still return normally:
 * entry sar 0 = 0; 1st subprog shl -> 0: stuff, depth = -1; 2nd: sar -1,
 * shl -> -32; 3rd: sar -32 = -1, shl -> -32; main's exit shl -> -1024. */
static void call_depth_stuffing(void)
{
	const struct sb_lab_info *li = NULL;
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *x = sb_lab_at(i);
		if (x->alt == SB_LAB_MAINLINE && x->ret == SB_LAB_CALLDEPTH && !x->in_loop)
			li = x;
	}
	CHECK(li != NULL, "no mainline call-depth per-run variant");
	if (!li)
		return;
	uint64_t saved = sb_lab_call_depth();
	set_call_depth(0);
	uint64_t before = *li->variant->counter;
	uint64_t r9 = run(li, 1);
	CHECK(*li->variant->counter - before == 1, "stuffing run: counter");
	CHECK(sb_lab_call_depth() == (uint64_t)-1024, "stuffing run: depth %#" PRIx64
	      ", want -1024", sb_lab_call_depth());
	CHECK(r9 == sb_percpu_frame_pointer(li->area), "stuffing run: r9");
	set_call_depth(saved);
}

/* Each thread has its own copy: the probe sees another frame pointer there,
 * the r12 the lab's probe recorded against its area's frame. */
static void callee_probe(uintptr_t out[2])
{
	uint64_t regs[7];
	sb_lab_abi_call(sb_lab_probe_callee, R9_SENTINEL, regs);
	out[0] = sb_lab_probe_fp[1];
	out[1] = sb_percpu_frame_pointer(sb_lab_probe_callee_area);
}

static void threads(void)
{
	check_private_stack_per_thread(callee_probe, sb_lab_probe_callee_area, "r12");
}

int main(void)
{
	char err[256];
	int rc = sb_percpu_thread_init(err, sizeof(err));
	CHECK(rc == 0, "init: %s", err);
	if (rc)
		return check_report("test_lab_behaviour");
	CHECK(sb_lab_call_depth() != 0, "the call depth word starts at 0");
	/* RESET_CALL_DEPTH of kernel entry: 1 << 63 (RET_DEPTH_INIT); from
	 * there, balanced sar/shl pairs give back exactly the same word. */
	set_call_depth(0x8000000000000000ULL);
	variants();
	probes();
	call_depth_stuffing();
	threads();
	CHECK(sb_percpu_check_guards() == 0, "guard words damaged by the lab stubs");
	sb_percpu_thread_fini();
	return check_report("test_lab_behaviour");
}

/* test_placed_stack.c: the placed twins' rbp frame at a chosen page offset
 * (sb_run_opts.fixed_stack, twin_placement.h). A stub with the twins'
 * prologue stands in a placed twin, run through the sampler's call of a
 * placed arm (sb_sample_arm), and stores its rbp: for every requested page
 * offset the frame sits there, in both shapes; an offset rsp's 16-byte
 * alignment cannot give lands 8 bytes below. The twins' own prologue is
 * checked to be the stub's (nothing moves rsp before push rbp). */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "harness/set_run.h"
#include "harness/stack_at_offset.h"
#include "kernel/twin_placement.h"
#include "variants/twin_variants.h"

/* Bytes before push rbp; mov rbp, rsp in JIT_PROLOGUE: endbr64 (optional),
 * the 5-byte fentry nop, a 2- or 3-byte pad. None moves rsp. */
static void twin_prologues(void)
{
	static const char *const shapes[] = {"per-run", "in-loop"};
	static const char *const vars[] = {"baseline", "private", "hybrid"};
	for (int s = 0; s < 2; s++)
		for (int v = 0; v < 3; v++) {
			const struct sb_variant *t = sb_twin_variant(shapes[s], vars[v]);
			CHECK(t != NULL, "no twin %s %s", shapes[s], vars[v]);
			if (!t)
				continue;
			const uint8_t *b = (const uint8_t *)(uintptr_t)t->main;
			size_t at = 0;
			if (b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa)
				at = 4;
			int nop5 = memcmp(b + at, "\x0f\x1f\x44\x00\x00", 5) == 0;
			at += 5;
			size_t pad = b[at] == 0x66 && b[at + 1] == 0x90 ? 2 : memcmp(b + at, "\x0f\x1f\x00", 3) == 0 ? 3 : 0;
			at += pad;
			CHECK(nop5 && pad && memcmp(b + at, "\x55\x48\x89\xe5", 4) == 0,
			      "twin %s %s: push rbp; mov rbp, rsp not after the nops", shapes[s], vars[v]);
		}
}

static void frames_at(void)
{
	static struct sb_twin_placement placed[1][SB_MAX_BATCHES];
	static volatile uint64_t iters;
	static const uint64_t batches[] = {4};
	static struct sb_placed_arms arms;
	const int want[SB_N_KVARIANTS] = {1, 0, 0};
	placed[0][0].variants[SB_KV_BASELINE].main = sb_frame_probe_stub;
	placed[0][0].variants[SB_KV_BASELINE].batch_iters = &iters;
	static const unsigned wanted[] = {0xcc0, 0x000, 0x010, 0x7a0, 0xff0};
	for (int shape = 0; shape < SB_N_SHAPES; shape++) {
		sb_placed_arms_build(&arms, placed, 1, batches, 1, (enum sb_kernel_shape)shape, want);
		CHECK(arms.n == 2 && !arms.ctx[1].empty, "%zu arms", arms.n);
		for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
			unsigned got = 0;
			unsigned rsp = sb_placed_stack_target(wanted[i], &got);
			CHECK(got == wanted[i] && rsp % 16 == 0, "shape %d: %#x gave %#x (rsp %#x)", shape, wanted[i],
			      got, rsp);
			struct sb_run_opts o;
			memset(&o, 0, sizeof(o));
			o.fixed_stack = 1;
			o.stack_rsp_offset = rsp;
			sb_frame_probe_rbp = 0;
			uint64_t t = sb_sample_arm(&arms.arms[1], 4, 0, &o);
			CHECK(t != UINT64_MAX && (sb_frame_probe_rbp & 4095) == wanted[i],
			      "shape %d: the sampler put the frame at %#llx for %#x", shape,
			      (unsigned long long)(sb_frame_probe_rbp & 4095), wanted[i]);
			/* The same call without the knob: the random pad's path. */
			o.fixed_stack = 0;
			sb_frame_probe_rbp = 0;
			t = sb_sample_arm(&arms.arms[1], 4, 16 * i, &o);
			CHECK(t != UINT64_MAX && sb_frame_probe_rbp != 0, "the pad's path did not run the stub");
		}
		unsigned got = 0;
		sb_placed_stack_target(0xcb8, &got);
		CHECK(got == 0xcb0, "0xcb8 (not 16-byte aligned) gave %#x", got);
	}
}

int main(void)
{
	twin_prologues();
	frames_at();
	return check_report("placed_stack");
}

/* twin_placement.c: the twins of one shape copied (by sb_place(), with
 * offsets like a kernel load) so that each function starts at the same
 * page offset (so also the same offset in its 64-byte cache line) as the
 * kernel put the same function in one load. The kernel starts every JITed
 * image at a random offset of its first 64-byte chunk
 * (bpf_jit_binary_pack_alloc()), and that offset alone moves the cost of a
 * program by cycles per iteration; the twins in asm/twins_v6_18.asm are
 * 64-byte aligned. A placed per-run twin is the whole program the kernel
 * runs: the driver twin (run_<v>, which calls prog_<v> batch_iters times)
 * with prog_<v> and its subprog, each at its kernel function's page
 * offset, called once per sample; the in-loop twin is loop_<v> and its
 * subprog. */
#include "harness/harness.h"
#include "harness/stack_at_offset.h"
#include "jit/decode.h"
#include "kernel/jit_read.h"
#include "kernel/twin_placement.h"
#include "kernel/arms.h"
#include "kernel/loader.h"
#include "kernel/signals.h"
#include "stubbench/timer.h"
#include "variants/percpu.h"
#include "variants/twin_variants.h"
#include "harness/variant_arms.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define PLACE_MOD 4096  /* functions start at the kernel's address mod this (page offset) */
#define MAX_FUNCS SB_TWIN_PLACED_FUNCS

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* The placed twins' frames: a page and a frame each (asm/twins_v6_18.asm). */
extern char sb_twin_placed_entry_area[], sb_twin_placed_sub_area[];
/* The iterations the per-run driver twins run (asm/twins_v6_18.asm). */
extern volatile uint64_t sb_twin_batch_iters;

/* The frame pointer of placed function f, its setup re-aimed into the
 * placed frames' area (the nth function with a private frame: the first
 * takes the entry's area, the next the subprog's) so that the frame sits
 * at page offset want in every thread's copy of the private stacks. 0, or
 * -1 with err. */
static int place_frame(struct sb_placed_variant *p, int f, int nth, unsigned want, char *err, size_t errlen)
{
	uint64_t imm;
	long at = sb_jit_r9_setup((const uint8_t *)p->new_addr[f], p->len[f], &imm);
	if (at < 0) {
		set_err(err, errlen, "%s: function %d sets up no private frame, as the kernel's does", p->name, f);
		return -1;
	}
	const char *area = nth ? sb_twin_placed_sub_area : sb_twin_placed_entry_area;
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas);
	uintptr_t top = 0;
	for (size_t i = 0; i < n; i++)
		if (areas[i].area == (uintptr_t)area)
			top = areas[i].fp;
	if (!top) {
		set_err(err, errlen, "no area for the placed twins' private frames");
		return -1;
	}
	/* The highest frame pointer at or below the area's top with that page
	 * offset: a page and the frame fit below the top. */
	uintptr_t fp = top - ((sb_percpu_page_offset((const void *)top) - want) & (PLACE_MOD - 1));
	uint64_t new_imm = (uint64_t)fp;
	return sb_place_write(p, p->new_addr[f] + (uintptr_t)at + 2, &new_imm, sizeof(new_imm), err, errlen);
}

/* The kernel functions the placed twin of (s, v) copies, in the order
 * sb_place() numbers the twin's functions (the entry, then what it calls):
 * per-run run_<v>, prog_<v>, its subprog; in-loop loop_<v>, its subprog.
 * Returns how many. */
static size_t kernel_funcs(enum sb_kernel_shape s, int v, const char *funcs[MAX_FUNCS])
{
	static const char *const progs[SB_N_KVARIANTS] = {"prog_baseline", "prog_private", "prog_hybrid"};
	const char *sub = v == SB_KV_PRIVATE ? "sub_big" : "sub_small";
	size_t n = 0;
	funcs[n++] = sb_kernel_prog_name(s, (enum sb_kernel_variant)v);
	if (s == SB_SHAPE_PER_RUN)
		funcs[n++] = progs[v];
	funcs[n++] = sub;
	return n;
}

/* What the placed twin of (s, v) copies and the harness calls once per
 * sample: per-run, the registry's twin with the driver twin as its main
 * and the driver's batch_iters (in *slot, which the copy refers to); in-loop
 * the registry's twin itself. NULL with err. */
static const struct sb_variant *placed_entry(enum sb_kernel_shape s, int v, const struct sb_variant *reg,
					     struct sb_variant *slot, char *err, size_t errlen)
{
	if (s != SB_SHAPE_PER_RUN)
		return reg;
	const char *prog = sb_kernel_prog_name(s, (enum sb_kernel_variant)v);
	const struct sb_function *driver = sb_twin_find(prog, prog);
	if (!driver) {
		set_err(err, errlen, "no twin of the driver %s", prog);
		return NULL;
	}
	*slot = *reg;
	slot->main = (sb_stub_fn)(uintptr_t)driver->addr;
	slot->batch_iters = &sb_twin_batch_iters;
	return slot;
}

/* The page offsets of the kernel's functions funcs[0..n) in its load of
 * (s, v), and of their private frames (-1: none), into out. 0, or -1 with
 * err. */
static int kernel_offsets(const struct sb_kernel_obj *o, enum sb_kernel_shape s, int v, const char *const *funcs,
			  size_t n, struct sb_twin_placement *out, char *err, size_t errlen)
{
	struct sb_jit_image img;
	char jerr[256];
	if (sb_jit_read(sb_kernel_prog_fd(o, s, (enum sb_kernel_variant)v), &img, jerr, sizeof(jerr))) {
		set_err(err, errlen, "%s", jerr);
		return -1;
	}
	for (size_t f = 0; f < n; f++) {
		const struct sb_jit_func *kf = sb_jit_find(&img, funcs[f]);
		if (!kf) {
			set_err(err, errlen, "%s.%s: no kernel function to place the twin like",
				sb_kernel_prog_name(s, (enum sb_kernel_variant)v), funcs[f]);
			sb_jit_image_free(&img);
			return -1;
		}
		out->offsets[v][f] = (unsigned)(kf->ksym % PLACE_MOD);
		/* r9 = imm64 + this_cpu_off, a multiple of the page: its page
		 * offset is imm64's. */
		uint64_t imm;
		out->frame_offsets[v][f] = sb_jit_r9_setup(kf->bytes, kf->len, &imm) >= 0 ? (int)(imm % PLACE_MOD) : -1;
	}
	sb_jit_image_free(&img);
	return 0;
}

int sb_twin_place_like(const struct sb_kernel_obj *o, enum sb_kernel_shape s, const int want[SB_N_KVARIANTS],
		       int load, struct sb_twin_placement *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	for (int v = 0; v < SB_N_KVARIANTS; v++) {
		if (v != SB_KV_BASELINE && !want[v])
			continue;
		const char *prog = sb_kernel_prog_name(s, v);
		const struct sb_variant *reg = sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v));
		if (!reg) {
			set_err(err, errlen, "twin variant of %s missing", prog);
			goto fail;
		}
		const char *funcs[MAX_FUNCS];
		size_t n = kernel_funcs(s, v, funcs);
		out->n_funcs[v] = n;
		const struct sb_variant *entry = placed_entry(s, v, reg, &out->entries[v], err, errlen);
		if (!entry || kernel_offsets(o, s, v, funcs, n, out, err, errlen) != 0)
			goto fail;
		/* perf names each copy "<twin symbol>@load<N>". */
		struct sb_place_policy like_load = {.page_offsets = out->offsets[v], .n_offsets = n, .tag = "load"};
		if (sb_place(entry, &like_load, (unsigned)load, &out->copies[v], err, errlen) != 0)
			goto fail;
		if (out->copies[v].n_funcs != n) {
			set_err(err, errlen, "%s: the twin has %zu functions, the kernel %zu", prog, out->copies[v].n_funcs,
				n);
			goto fail;
		}
		for (size_t f = 0, nth = 0; f < n; f++)
			if (out->frame_offsets[v][f] >= 0 &&
			    place_frame(&out->copies[v], (int)f, (int)nth++, (unsigned)out->frame_offsets[v][f], err,
					errlen) != 0)
				goto fail;
		out->variants[v] = out->copies[v].v;
		snprintf(out->names[v], sizeof(out->names[v]), "%s@load%d", reg->name, load);
		out->variants[v].name = out->names[v];
		out->variants[v].seed_name = out->names[v];
		out->have[v] = 1;
	}
	return 0;
fail:
	sb_twin_placement_free(out);
	return -1;
}

void sb_twin_placement_free(struct sb_twin_placement *p)
{
	for (int v = 0; v < SB_N_KVARIANTS; v++)
		sb_place_free(&p->copies[v]);
	memset(p, 0, sizeof(*p));
}

static uint64_t sample_placed(void *p, uint64_t batch)
{
	struct sb_placed_arm_ctx *c = p;
	long bi = sb_batch_index(c->batches, c->n_batches, batch);
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	/* Every placed twin runs its own loop (the kernel program's): one
	 * call per sample, its iterations set first. */
	if (c->empty)
		return sb_time_calls(sb_empty_stub, 1);
	const struct sb_variant *v = &c->placed[c->load][bi].variants[c->variant];
	c->iterations += batch;
	*v->batch_iters = batch;
	return sb_time_calls(v->main, 1);
}

unsigned sb_placed_frame_offset_at(unsigned rsp_off)
{
	static struct sb_twin_placement probe[1][SB_MAX_BATCHES];
	static volatile uint64_t iters;
	static const uint64_t one = 1;
	struct sb_variant *v = &probe[0][0].variants[SB_KV_BASELINE];
	v->main = sb_frame_probe_stub;
	v->batch_iters = &iters;
	struct sb_placed_arm_ctx c = {.placed = probe, .n_loads = 1, .batches = &one, .n_batches = 1,
				      .variant = SB_KV_BASELINE};
	sb_frame_probe_rbp = 0;
	sb_call_at_stack_offset(sample_placed, &c, 1, rsp_off);
	return (unsigned)(sb_frame_probe_rbp & 4095);
}

unsigned sb_placed_stack_target(unsigned frame_off, unsigned *got)
{
	unsigned at0 = sb_placed_frame_offset_at(0);
	unsigned rsp_off = (frame_off - at0) & 0xff0;
	*got = sb_placed_frame_offset_at(rsp_off);
	return rsp_off;
}

static void select_load(void *p, size_t state)
{
	struct sb_placed_arm_ctx *c = p;
	c->load = state;
}

void sb_placed_arms_build(struct sb_placed_arms *a, struct sb_twin_placement (*placed)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS])
{
	memset(a, 0, sizeof(*a));
	for (int v = -1; v < SB_N_KVARIANTS; v++) {
		if (v > SB_KV_BASELINE && !want[v])
			continue;
		struct sb_placed_arm_ctx *c = &a->ctx[a->n];
		struct sb_arm *arm = &a->arms[a->n];
		c->placed = placed;
		c->n_loads = n_loads;
		c->batches = batches;
		c->n_batches = n_batches;
		c->empty = v < 0;
		c->variant = v < 0 ? SB_KV_BASELINE : (enum sb_kernel_variant)v;
		arm->ctx = c;
		arm->sample = sample_placed;
		arm->n_states = n_loads;
		arm->set_state = select_load;
		if (v < 0) {
			arm->name = arm->seed_name = "overhead";
			arm->is_overhead = 1;
		} else {
			sb_kernel_arm_name(v, shape, "twin@loads", 0, a->names[v][0], sizeof(a->names[v][0]));
			sb_kernel_arm_name(v, shape, "twin@loads", 1, a->names[v][1], sizeof(a->names[v][1]));
			arm->name = a->names[v][0];
			arm->seed_name = a->names[v][1];
			arm->is_baseline = v == SB_KV_BASELINE;
			/* The twin's key, on the placed side. */
			const struct sb_variant *twin = sb_twin_variant(sb_kernel_shape_name(shape), sb_kernel_variant_name(v));
			if (twin)
				sb_variant_key(twin, &arm->key);
			arm->key.side = SB_SIDE_PLACED_TWIN;
			snprintf(arm->key.origin, sizeof(arm->key.origin), "%s", arm->name);
		}
		a->n++;
	}
}

uint64_t sb_placed_arms_iterations_on(const void *arms, const volatile uint64_t *counter)
{
	const struct sb_placed_arms *a = arms;
	uint64_t n = 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_placed_arm_ctx *c = &a->ctx[i];
		if (!c->empty && c->placed[0][0].variants[c->variant].counter == counter)
			n += c->iterations;
	}
	return n;
}


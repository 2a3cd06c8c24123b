/* kernel_twin_placement.c: the twins of one shape copied so that each
 * function starts at the same page offset (so also the same offset in its
 * 64-byte cache line) as the kernel put the same function in one load. The kernel starts every JITed image at
 * a random offset of its first 64-byte chunk (bpf_jit_binary_pack_alloc()),
 * and that offset alone moves the cost of a program by cycles per
 * iteration; the twins in asm/twins_v6_18.asm are 64-byte aligned. */
#include "stubbench/code_symbols.h"
#include "stubbench/jit.h"
#include "stubbench/kernel.h"
#include "stubbench/perf_map.h"
#include "stubbench/timer.h"
#include "stubbench/twin.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define PLACE_MOD 4096  /* functions start at the kernel's address mod this (page offset) */
#define SLOT (2 * PLACE_MOD) /* bytes per placed function: a page offset plus the function */
#define FUNCS 2         /* entry (prog_<v> or loop_<v>) and its subprog */

static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *sub_of(enum sb_kernel_variant v)
{
	return v == SB_KV_PRIVATE ? "sub_big" : "sub_small";
}

/* Executable memory within rel32 reach of the twins' return thunk: the
 * first free range from 256 MiB above it, taken with MAP_FIXED_NOREPLACE. */
#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif
static void *map_near(size_t size, const void *near)
{
	uintptr_t start = (((uintptr_t)near & ~(uintptr_t)0xfffff) + (256u << 20));
	for (uintptr_t at = start; at < start + (512u << 20); at += size) {
		void *p = mmap((void *)at, size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED)
			continue;
		if ((uintptr_t)p == at)
			return p;
		munmap(p, size); /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
	}
	return NULL;
}

int sb_twin_place_like(const struct sb_kernel_obj *o, enum sb_kernel_shape s, const int want[SB_N_KVARIANTS],
		       int load, struct sb_twin_placement *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	const struct sb_function *thunk_ref = sb_twin_find("run_baseline", "sub_small");
	if (!thunk_ref) {
		set_err(err, errlen, "no twin records");
		return -1;
	}
	out->mem_size = (size_t)SB_N_KVARIANTS * FUNCS * SLOT; /* a multiple of the page size */
	out->mem = map_near(out->mem_size, thunk_ref->addr);
	if (!out->mem) {
		set_err(err, errlen, "no executable memory near the twins");
		return -1;
	}
	uint8_t *mem = out->mem;
	for (int v = 0; v < SB_N_KVARIANTS; v++) {
		if (v != SB_KV_BASELINE && !want[v])
			continue;
		const char *prog = sb_kernel_prog_name(s, v);
		const char *funcs[FUNCS] = {s == SB_SHAPE_PER_RUN ? (v == SB_KV_BASELINE ? "prog_baseline"
								 : v == SB_KV_PRIVATE ? "prog_private"
										      : "prog_hybrid")
							    : prog,
					    sub_of(v)};
		struct sb_jit_image img;
		char jerr[256];
		if (sb_jit_read(sb_kernel_prog_fd(o, s, v), &img, jerr, sizeof(jerr))) {
			set_err(err, errlen, "%s", jerr);
			goto fail;
		}
		struct sb_code_map map[FUNCS];
		const struct sb_function *rec[FUNCS];
		for (int f = 0; f < FUNCS; f++) {
			const struct sb_jit_func *kf = sb_jit_find(&img, funcs[f]);
			rec[f] = sb_twin_find(prog, funcs[f]);
			if (!kf || !rec[f] || rec[f]->size > PLACE_MOD) {
				set_err(err, errlen, "%s.%s: no kernel function or twin to place", prog, funcs[f]);
				sb_jit_image_free(&img);
				goto fail;
			}
			unsigned off = (unsigned)(kf->ksym % PLACE_MOD);
			out->offsets[v][f] = off;
			map[f].old_addr = (uintptr_t)rec[f]->addr;
			map[f].len = rec[f]->size;
			map[f].new_addr = (uintptr_t)(mem + ((size_t)v * FUNCS + f) * SLOT + off);
		}
		sb_jit_image_free(&img);
		/* Filler as the JIT's: int3 around the images. */
		memset(mem + (size_t)v * FUNCS * SLOT, 0xcc, FUNCS * SLOT);
		for (int f = 0; f < FUNCS; f++)
			if (sb_jit_relocate(rec[f]->addr, rec[f]->size, map[f].old_addr, (uint8_t *)map[f].new_addr,
					    map[f].new_addr, map, FUNCS, err, errlen))
				goto fail;
		const struct sb_variant *reg = sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v));
		if (!reg) {
			set_err(err, errlen, "twin variant of %s missing", prog);
			goto fail;
		}
		out->variants[v] = *reg;
		snprintf(out->names[v], sizeof(out->names[v]), "%s@load%d", reg->name, load);
		out->variants[v].name = out->names[v];
		out->variants[v].seed_name = out->names[v];
		out->variants[v].main = (sb_stub_fn)map[0].new_addr;
		/* perf names each copy "<twin symbol>@load<N>". */
		for (int f = 0; f < FUNCS; f++) {
			const char *sym = NULL;
			char name[160], sub[256];
			sb_code_function_size((uintptr_t)rec[f]->addr, &sym);
			snprintf(name, sizeof(name), "%s@load%d", sym ? sym : prog, load);
			if (sb_perf_map_add(map[f].new_addr, map[f].len, name, sub, sizeof(sub)) != 0)
				fprintf(stderr, "stubbench kernel: %s\n", sub);
		}
		out->have[v] = 1;
	}
	if (mprotect(out->mem, out->mem_size, PROT_READ | PROT_EXEC) != 0) {
		set_err(err, errlen, "mprotect of the placed twins failed");
		goto fail;
	}
	return 0;
fail:
	sb_twin_placement_free(out);
	return -1;
}

void sb_twin_placement_free(struct sb_twin_placement *p)
{
	if (p->mem)
		munmap(p->mem, p->mem_size);
	memset(p, 0, sizeof(*p));
}

static long batch_index(const struct sb_placed_arm_ctx *c, uint64_t batch)
{
	for (size_t i = 0; i < c->n_batches; i++)
		if (c->batches[i] == batch)
			return (long)i;
	return -1;
}

static uint64_t sample_placed(void *p, uint64_t batch)
{
	struct sb_placed_arm_ctx *c = p;
	long bi = batch_index(c, batch);
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	if (c->empty)
		return sb_time_calls(sb_empty_stub, c->in_loop ? 1 : batch);
	const struct sb_variant *v = &c->placed[c->load][bi].variants[c->variant];
	c->iterations += batch;
	if (c->in_loop) {
		*v->batch_iters = batch;
		return sb_time_calls(v->main, 1);
	}
	return sb_time_calls(v->main, batch);
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
		c->in_loop = shape == SB_SHAPE_IN_LOOP;
		c->variant = v < 0 ? SB_KV_BASELINE : (enum sb_kernel_variant)v;
		arm->ctx = c;
		arm->sample = sample_placed;
		arm->n_states = n_loads;
		arm->set_state = select_load;
		if (v < 0) {
			arm->name = arm->seed_name = "overhead";
			arm->is_overhead = 1;
		} else {
			const struct sb_variant *pv = &placed[0][0].variants[v];
			size_t base = strcspn(pv->name, "@");
			snprintf(a->names[v], sizeof(a->names[v]), "%.*s@loads", (int)base, pv->name);
			arm->name = arm->seed_name = a->names[v];
			arm->is_baseline = v == SB_KV_BASELINE;
			c->counter_start = *pv->counter;
		}
		a->n++;
	}
}

int sb_placed_arms_check_counters(const struct sb_placed_arms *a, char *err, size_t errlen)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_placed_arm_ctx *c = &a->ctx[i];
		if (c->empty)
			continue;
		const struct sb_variant *v = &c->placed[0][0].variants[c->variant];
		uint64_t got = *v->counter - c->counter_start;
		if (got != c->iterations) {
			set_err(err, errlen, "%s: counter advanced by %llu, expected %llu", v->name,
				(unsigned long long)got, (unsigned long long)c->iterations);
			return -1;
		}
	}
	return 0;
}

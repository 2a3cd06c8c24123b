/* auto_twin.c: a runnable twin from a kernel JIT image; see auto_twin.h.
 * The functions' bytes are copied and only immediates and rel32 fields
 * rewritten (no instruction changes length), aimed as if each function ran
 * at an origin near the stubs; sb_code_variant_make() then writes them to
 * their pages and names them, so that sb_place() and the harness take the
 * twin like any replica. */
#define _GNU_SOURCE
#include "jit/code_check.h"
#include "twins/auto_twin.h"
#include "base/code_symbols.h"
#include "base/error.h"
#include "variants/insn_trace.h"
#include "variants/percpu.h"
#include "jit/placement.h"
#include "jit/return_thunks.h"
#include "code_layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096UL
#define ORIGIN_STEP 0x100000UL          /* origins of the functions, 1 MiB apart above the stubs */
#define KERNEL_HALF 0xffff800000000000ULL /* kernel addresses start here */
#define MAX_VALUES (1UL << 20)          /* bytes of a map's values kept (the rest is not modelled) */

/* asm/auto_twin_areas.asm */
extern const uintptr_t sb_auto_twin_area_fps[];
extern const uint64_t sb_auto_twin_n_areas;
static size_t next_area;

/* What rewriting one function needs. */
struct rewrite {
	const struct sb_auto_twin_spec *s;
	struct sb_auto_twin *t;
	const size_t *fn;       /* image index of each twin function */
	size_t n_fn;
	const uintptr_t *origin; /* of each twin function */
	uintptr_t thunk;         /* the return thunk replica's entry, 0: plain ret */
	uint64_t scratch_kaddr[64];
	size_t n_scratch_kaddr;
};

static long func_at(const struct sb_jit_image *img, uint64_t kaddr)
{
	for (size_t i = 0; i < img->n; i++)
		if (img->funcs[i].ksym && img->funcs[i].ksym == kaddr)
			return (long)i;
	return -1;
}

static int encode(ZydisEncoderRequest *r, uint8_t *out, size_t *len, uintptr_t at)
{
	ZyanUSize n = 16;
	if (ZYAN_FAILED(ZydisEncoderEncodeInstructionAbsolute(r, out, &n, at)))
		return -1;
	*len = n;
	return 0;
}

/* "jmp rel32" to the thunk, or "ret; int3 x4" (apply_returns()'s form). */
static int encode_return(uint8_t *out, uintptr_t at, uintptr_t thunk, size_t *len)
{
	ZydisEncoderRequest r;
	memset(&r, 0, sizeof(r));
	r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
	if (!thunk) {
		r.mnemonic = ZYDIS_MNEMONIC_RET;
		if (encode(&r, out, len, at))
			return -1;
		memset(out + *len, 0xcc, 4);
		*len += 4;
		return 0;
	}
	r.mnemonic = ZYDIS_MNEMONIC_JMP;
	r.branch_type = ZYDIS_BRANCH_TYPE_NEAR;
	r.branch_width = ZYDIS_BRANCH_WIDTH_32;
	r.operand_count = 1;
	r.operands[0].type = ZYDIS_OPERAND_TYPE_IMMEDIATE;
	r.operands[0].imm.u = thunk;
	return encode(&r, out, len, at);
}

/* The stubs: lookup "lea rax, [rdi + HEADER]", any other "xor eax, eax",
 * each followed by the return. */
static int make_stubs(struct sb_auto_twin *t, uintptr_t near, uintptr_t thunk, char *err, size_t errlen)
{
	uint8_t *rw;
	char sub[200];
	uint8_t *m = sb_place_pages(near, PAGE, &rw, sub, sizeof(sub));
	if (!m) {
		sb_set_err(err, errlen, "helper stubs: %s", sub);
		return -1;
	}
	memset(rw, 0xcc, PAGE);
	t->stubs = m;
	size_t at = 0;
	for (int k = 0; k < 2; k++) {
		ZydisEncoderRequest r;
		memset(&r, 0, sizeof(r));
		r.machine_mode = ZYDIS_MACHINE_MODE_LONG_64;
		r.operand_count = 2;
		r.operands[0].type = ZYDIS_OPERAND_TYPE_REGISTER;
		if (k == 0) {
			r.mnemonic = ZYDIS_MNEMONIC_LEA;
			r.operands[0].reg.value = ZYDIS_REGISTER_RAX;
			r.operands[1].type = ZYDIS_OPERAND_TYPE_MEMORY;
			r.operands[1].mem.base = ZYDIS_REGISTER_RDI;
			r.operands[1].mem.displacement = SB_AUTO_TWIN_MAP_HEADER;
			r.operands[1].mem.size = 8;
		} else {
			r.mnemonic = ZYDIS_MNEMONIC_XOR;
			r.operands[0].reg.value = ZYDIS_REGISTER_EAX;
			r.operands[1].type = ZYDIS_OPERAND_TYPE_REGISTER;
			r.operands[1].reg.value = ZYDIS_REGISTER_EAX;
		}
		size_t len, rlen;
		uintptr_t start = (uintptr_t)m + at;
		if (encode(&r, rw + at, &len, start) ||
		    encode_return(rw + at + len, start + len, thunk, &rlen)) {
			sb_set_err(err, errlen, "helper stubs: Zydis cannot encode them");
			return -1;
		}
		if (k == 0)
			t->stub_lookup = start;
		else
			t->stub_zero = start;
		sb_code_symbols_add(start, len + rlen, k == 0 ? "auto_twin_stub_lookup" : "auto_twin_stub_zero");
		at += 64;
	}
	return sb_place_pages_seal(m, PAGE, err, errlen);
}

static void put64(uint8_t *code, const struct sb_code_insn *in, uint64_t v)
{
	memcpy(code + in->off + in->dec.raw.imm[0].offset, &v, 8);
}

/* The user address a kernel immediate stands for. */
static int data_address(struct rewrite *w, uint64_t kaddr, uint64_t *user, char *err, size_t errlen)
{
	const struct sb_auto_twin_spec *s = w->s;
	for (size_t k = 0; k < s->n_refs; k++) {
		const struct sb_auto_twin_ref *r = &s->refs[k];
		if (r->kaddr != kaddr || r->map >= w->t->n_maps)
			continue;
		uint8_t *b = w->t->buf[r->map];
		*user = (uint64_t)(uintptr_t)(r->is_value ? b + SB_AUTO_TWIN_MAP_HEADER + r->off : b);
		return 0;
	}
	for (size_t k = 0; k < w->n_scratch_kaddr; k++)
		if (w->scratch_kaddr[k] == kaddr) {
			*user = (uint64_t)(uintptr_t)(w->t->scratch + k * 2 * PAGE + PAGE);
			return 0;
		}
	if (w->n_scratch_kaddr == sizeof(w->scratch_kaddr) / sizeof(w->scratch_kaddr[0])) {
		sb_set_err(err, errlen, "more than %zu kernel addresses no map explains", w->n_scratch_kaddr);
		return -1;
	}
	w->scratch_kaddr[w->n_scratch_kaddr] = kaddr;
	*user = (uint64_t)(uintptr_t)(w->t->scratch + w->n_scratch_kaddr * 2 * PAGE + PAGE);
	w->n_scratch_kaddr++;
	return 0;
}

static int gs_operand(const struct sb_code_insn *in)
{
	for (size_t k = 0; k < in->dec.operand_count_visible; k++)
		if (in->ops[k].type == ZYDIS_OPERAND_TYPE_MEMORY && in->ops[k].mem.segment == ZYDIS_REGISTER_GS)
			return (int)k;
	return -1;
}

static int is_movabs(const struct sb_code_insn *in)
{
	return in->dec.mnemonic == ZYDIS_MNEMONIC_MOV && in->dec.operand_count_visible == 2 &&
	       in->ops[1].type == ZYDIS_OPERAND_TYPE_IMMEDIATE && in->dec.raw.imm[0].size == 64;
}

/* "add reg, gs:[disp32]" (this_cpu_off): its displacement one the user GS base maps. */
static int rewrite_gs(const struct sb_code_insn *in, int k, uint8_t *code, char *err, size_t errlen)
{
	const ZydisDecodedOperand *m = &in->ops[k];
	if (in->dec.mnemonic != ZYDIS_MNEMONIC_ADD || k != 1 || m->mem.base != ZYDIS_REGISTER_NONE ||
	    m->mem.index != ZYDIS_REGISTER_NONE || in->dec.raw.disp.size != 32) {
		sb_set_err(err, errlen, "+%#zx: a gs access other than add reg, gs:[this_cpu_off] (not modelled)",
			   in->off);
		return -1;
	}
	const int64_t *disps;
	if (sb_percpu_gs_disps(&disps) == 0) {
		sb_set_err(err, errlen, "+%#zx: no gs displacement is mapped in user space", in->off);
		return -1;
	}
	int32_t d = (int32_t)disps[0];
	memcpy(code + in->off + in->dec.raw.disp.offset, &d, 4);
	return 0;
}

static int call_stub(struct rewrite *w, uint64_t target, uintptr_t *stub, char *err, size_t errlen)
{
	struct sb_auto_twin *t = w->t;
	uint64_t off = 0;
	const struct sb_ksym *sym = w->s->ks ? sb_ksyms_lookup(w->s->ks, target, &off) : NULL;
	char name[112];
	snprintf(name, sizeof(name), "%s", sym ? sym->name : "?");
	if (strstr(name, "indirect_thunk") || strncmp(name, "bpf_prog_", 9) == 0) {
		sb_set_err(err, errlen, "a call to %s (an indirect call or another program: not modelled)", name);
		return -1;
	}
	int lookup = strstr(name, "lookup_elem") != NULL;
	*stub = lookup ? t->stub_lookup : t->stub_zero;
	for (size_t k = 0; k < t->n_calls; k++)
		if (strcmp(t->calls[k].name, name) == 0)
			return 0;
	if (t->n_calls < SB_AUTO_TWIN_MAX_CALLS) {
		snprintf(t->calls[t->n_calls].name, sizeof(t->calls[0].name), "%s", name);
		t->calls[t->n_calls++].lookup = lookup;
	}
	return 0;
}

/* A rel32 call or jmp leaving the function: to its twin, a stub or the thunk. */
static int rewrite_branch(struct rewrite *w, size_t i, const struct sb_code_insn *in, uint8_t *code, char *err,
			  size_t errlen)
{
	const struct sb_jit_func *f = &w->s->img->funcs[w->fn[i]];
	if (in->dec.raw.imm[0].size != 32) {
		sb_set_err(err, errlen, "+%#zx: a short jump out of the function", in->off);
		return -1;
	}
	uint64_t target = f->ksym + in->target;
	uintptr_t at = w->origin[i] + in->off, to = 0;
	int is_call = in->dec.mnemonic == ZYDIS_MNEMONIC_CALL;
	long j = func_at(w->s->img, target);
	if (j >= 0) {
		for (size_t k = 0; k < w->n_fn; k++)
			if (w->fn[k] == (size_t)j)
				to = w->origin[k];
	} else if (is_call) {
		if (call_stub(w, target, &to, err, errlen))
			return -1;
	} else {
		/* The JIT's only jump out of a function is emit_return()'s. */
		size_t len;
		return encode_return(code + in->off, at, w->thunk, &len);
	}
	int32_t rel = (int32_t)(to - (at + in->len));
	memcpy(code + in->off + in->dec.raw.imm[0].offset, &rel, 4);
	return 0;
}

static int rewrite_insn(struct rewrite *w, size_t i, const struct sb_code *c, size_t k, uint8_t *code, char *err,
			size_t errlen)
{
	const struct sb_code_insn *in = &c->insns[k];
	ZydisMnemonic mn = in->dec.mnemonic;
	if ((mn == ZYDIS_MNEMONIC_CALL || mn == ZYDIS_MNEMONIC_JMP) && !in->relative) {
		sb_set_err(err, errlen, "+%#zx: an indirect %s (a tail call?): not modelled", in->off,
			   mn == ZYDIS_MNEMONIC_CALL ? "call" : "jump");
		return -1;
	}
	if (in->relative && !in->internal)
		return rewrite_branch(w, i, in, code, err, errlen);
	int g = gs_operand(in);
	if (g >= 0)
		return rewrite_gs(in, g, code, err, errlen);
	if (!is_movabs(in))
		return 0;
	uint64_t imm = in->ops[1].imm.value.u;
	const struct sb_code_insn *next = k + 1 < c->n ? &c->insns[k + 1] : NULL;
	if (next && gs_operand(next) == 1 && next->ops[0].reg.value == in->ops[0].reg.value) {
		/* The private stack's frame: an area of this thread's per-CPU copy. */
		put64(code, in, sb_auto_twin_area_fps[next_area++ % sb_auto_twin_n_areas]);
		w->t->n_private++;
		return 0;
	}
	if (imm < KERNEL_HALF)
		return 0; /* a constant */
	uint64_t user;
	if (data_address(w, imm, &user, err, errlen))
		return -1;
	put64(code, in, user);
	return 0;
}

/* The twin function's bytes: the kernel's, with every address re-aimed. */
static int rewrite_func(struct rewrite *w, size_t i, uint8_t **out, char *err, size_t errlen)
{
	const struct sb_jit_func *f = &w->s->img->funcs[w->fn[i]];
	char sub[200];
	struct sb_code c;
	if (sb_code_decode(f->bytes, f->len, &c, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "%s: %s", f->name, sub);
		return -1;
	}
	uint8_t *code = malloc(f->len);
	if (!code) {
		sb_code_free(&c);
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	memcpy(code, f->bytes, f->len);
	for (size_t k = 0; k < c.n; k++)
		if (rewrite_insn(w, i, &c, k, code, sub, sizeof(sub))) {
			sb_set_err(err, errlen, "%s.%s: %s", w->s->img->prog_name, f->name, sub);
			free(code);
			sb_code_free(&c);
			return -1;
		}
	sb_code_free(&c);
	*out = code;
	return 0;
}

/* The main function and, transitively, the program's functions it calls. */
static int twin_funcs(const struct sb_auto_twin_spec *s, size_t *fn, size_t *n, char *err, size_t errlen)
{
	const struct sb_jit_image *img = s->img;
	long m = 0;
	if (s->main) {
		const struct sb_jit_func *f = sb_jit_find(img, s->main);
		m = f ? f - img->funcs : -1;
	}
	if (m < 0 || img->n == 0) {
		sb_set_err(err, errlen, "%s: no function %s", img->prog_name, s->main ? s->main : "at all");
		return -1;
	}
	fn[0] = (size_t)m;
	*n = 1;
	for (size_t i = 0; i < *n; i++) {
		const struct sb_jit_func *f = &img->funcs[fn[i]];
		if (!f->ksym) {
			sb_set_err(err, errlen, "%s.%s: its kernel address is unknown (no permission?)", img->prog_name,
				   f->name);
			return -1;
		}
		struct sb_code c;
		char sub[200];
		if (sb_code_decode(f->bytes, f->len, &c, sub, sizeof(sub))) {
			sb_set_err(err, errlen, "%s.%s: %s", img->prog_name, f->name, sub);
			return -1;
		}
		for (size_t k = 0; k < c.n; k++) {
			const struct sb_code_insn *in = &c.insns[k];
			long j = in->relative && !in->internal ? func_at(img, f->ksym + in->target) : -1;
			int have = j < 0;
			for (size_t q = 0; q < *n && !have; q++)
				have = fn[q] == (size_t)j;
			if (have)
				continue;
			if (*n == SB_CODE_VARIANT_MAX_FUNCS) {
				sb_code_free(&c);
				sb_set_err(err, errlen, "%s: more than %d functions", img->prog_name,
					   SB_CODE_VARIANT_MAX_FUNCS);
				return -1;
			}
			fn[(*n)++] = (size_t)j;
		}
		sb_code_free(&c);
	}
	return 0;
}

static void *map_rw(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* A map's values kept: every entry of an array, one value of anything else. */
static size_t values_len(const struct sb_auto_twin_map *m)
{
	size_t entries = m->type == 2 /* BPF_MAP_TYPE_ARRAY */ || m->type == 6 /* PERCPU_ARRAY */ ? m->max_entries : 1;
	size_t len = (size_t)m->value_size * (entries ? entries : 1);
	return len > MAX_VALUES ? MAX_VALUES : len;
}

static int make_buffers(const struct sb_auto_twin_spec *s, struct sb_auto_twin *t, char *err, size_t errlen)
{
	if (s->n_maps > SB_AUTO_TWIN_MAX_MAPS) {
		sb_set_err(err, errlen, "%s: %zu maps (at most %d)", s->img->prog_name, s->n_maps, SB_AUTO_TWIN_MAX_MAPS);
		return -1;
	}
	t->maps = s->maps;
	t->n_maps = s->n_maps;
	for (size_t i = 0; i < s->n_maps; i++) {
		t->buf_len[i] = (SB_AUTO_TWIN_MAP_HEADER + values_len(&s->maps[i]) + 2 * PAGE - 1) & ~(PAGE - 1);
		t->buf[i] = map_rw(t->buf_len[i]);
		if (!t->buf[i]) {
			sb_set_err(err, errlen, "out of memory for map %s", s->maps[i].name);
			return -1;
		}
	}
	t->scratch = map_rw(64 * 2 * PAGE);
	if (!t->scratch) {
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int sb_auto_twin_make(const struct sb_auto_twin_spec *s, struct sb_auto_twin *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	char sub[300];
	size_t fn[SB_CODE_VARIANT_MAX_FUNCS], n;
	struct rewrite w = {.s = s, .t = t, .fn = fn};
	if (twin_funcs(s, fn, &n, err, errlen))
		goto fail;
	/* Code from a file runs as root: nothing a JIT would not emit. */
	for (size_t i = 0; i < n; i++) {
		const struct sb_jit_func *f = &s->img->funcs[fn[i]];
		if (sb_code_check(f->bytes, f->len, f->name, err, errlen))
			goto fail;
	}
	if (make_buffers(s, t, err, errlen))
		goto fail;
	w.n_fn = n;
	if (s->thunk != SB_THUNK_RET) {
		const void *e = sb_thunk_entry(s->thunk, sub, sizeof(sub));
		if (!e) {
			sb_set_err(err, errlen, "%s: %s", s->name, sub);
			goto fail;
		}
		w.thunk = (uintptr_t)e;
	}
	if (make_stubs(t, (uintptr_t)s->tmpl->main, w.thunk, err, errlen))
		goto fail;
	uintptr_t origin[SB_CODE_VARIANT_MAX_FUNCS];
	for (size_t i = 0; i < n; i++)
		origin[i] = (uintptr_t)t->stubs + (i + 1) * ORIGIN_STEP;
	w.origin = origin;
	uint8_t *code[SB_CODE_VARIANT_MAX_FUNCS] = {0};
	char names[SB_CODE_VARIANT_MAX_FUNCS][160];
	struct sb_code_func funcs[SB_CODE_VARIANT_MAX_FUNCS];
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct sb_jit_func *f = &s->img->funcs[fn[i]];
		rc = rewrite_func(&w, i, &code[i], err, errlen);
		snprintf(names[i], sizeof(names[i]), i ? "%s.%s" : "%s", s->name, f->name);
		snprintf(t->func_name[i], sizeof(t->func_name[i]), "%s", f->name);
		funcs[i] = (struct sb_code_func){code[i], f->len, origin[i], names[i]};
	}
	t->n_scratch = w.n_scratch_kaddr;
	if (rc == 0)
		rc = sb_code_variant_make(s->tmpl, s->name, NULL, funcs, n, &t->cv, err, errlen);
	for (size_t i = 0; i < n; i++)
		free(code[i]);
	if (rc)
		goto fail;
	struct sb_variant *v = &t->cv.v;
	t->batch_iters = s->batch_iters;
	t->batch_size = 4;
	v->batch_iters = sb_auto_twin_slot_addr(t, s->batch_iters);
	v->counter = sb_auto_twin_slot_addr(t, s->counter);
	v->area = NULL; /* the areas are the twin's own, not a registry area */
	v->uses_private_stack = t->n_private > 0;
	v->return_thunk = (const void *)w.thunk;
	v->insns_per_call = 0;
	v->insns_fixed = 0;
	v->callee = n > 1 ? (const void *)t->cv.addr[1] : NULL;
	return 0;
fail:
	sb_auto_twin_free(t);
	return -1;
}

void sb_auto_twin_free(struct sb_auto_twin *t)
{
	sb_code_variant_free(&t->cv);
	for (size_t i = 0; i < SB_AUTO_TWIN_MAX_MAPS; i++)
		if (t->buf[i])
			munmap(t->buf[i], t->buf_len[i]);
	if (t->scratch)
		munmap(t->scratch, 64 * 2 * PAGE);
	if (t->stubs) {
		sb_code_symbols_remove(t->stub_lookup);
		sb_code_symbols_remove(t->stub_zero);
		sb_place_pages_free(t->stubs, PAGE);
	}
	memset(t, 0, sizeof(*t));
}

void sb_auto_twin_fill(struct sb_auto_twin *t, int real)
{
	for (size_t i = 0; i < t->n_maps; i++) {
		memset(t->buf[i], 0, t->buf_len[i]);
		const struct sb_auto_twin_map *m = &t->maps[i];
		size_t room = t->buf_len[i] - SB_AUTO_TWIN_MAP_HEADER;
		if (real && m->contents)
			memcpy(t->buf[i] + SB_AUTO_TWIN_MAP_HEADER, m->contents,
			       m->contents_len < room ? m->contents_len : room);
	}
	memset(t->scratch, 0, 64 * 2 * PAGE);
}

void *sb_auto_twin_slot_addr(const struct sb_auto_twin *t, struct sb_auto_twin_slot s)
{
	if (s.map < 0 || (size_t)s.map >= t->n_maps || SB_AUTO_TWIN_MAP_HEADER + s.off + 8 > t->buf_len[s.map])
		return NULL;
	return t->buf[s.map] + SB_AUTO_TWIN_MAP_HEADER + s.off;
}

size_t sb_auto_twin_ranges(const struct sb_auto_twin *t, uintptr_t *lo, uintptr_t *hi, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < t->cv.n_funcs && n < max; i++, n++) {
		lo[n] = t->cv.addr[i];
		hi[n] = t->cv.addr[i] + t->cv.len[i];
	}
	if (n < max && t->stubs) {
		lo[n] = (uintptr_t)t->stubs;
		hi[n++] = (uintptr_t)t->stubs + PAGE;
	}
	return n;
}

void sb_auto_twin_describe(const struct sb_auto_twin *t, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%zu functions (%zu with a private stack), helpers:", t->cv.n_funcs,
				     t->n_private);
	for (size_t i = 0; i < t->n_calls && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, " %s -> %s", t->calls[i].name,
				       t->calls[i].lookup ? "value buffer" : "0");
	if (at < len && !t->n_calls)
		at += (size_t)snprintf(buf + at, len - at, " none");
	if (at < len && t->n_scratch)
		snprintf(buf + at, len - at, "; %zu kernel addresses no map explains (zeroed scratch)", t->n_scratch);
}

/* Single steps of the path check: a twin runs some 2,000 instructions at
 * 50 iterations; a single step took some 30 us on an Intel Xeon VM, so
 * 100,000 stop within about 3 s a twin that runs far longer (one bpf_loop
 * of 8M iterations took 2M steps and a minute before: LONG_RUN of
 * tests/data/hostile_progs.bpf.c). */
#define MAX_STEPS 100000ULL

static int count_run(struct sb_auto_twin *t, uint64_t *n, char *err, size_t errlen)
{
	uintptr_t lo[SB_CODE_VARIANT_MAX_FUNCS + 1], hi[SB_CODE_VARIANT_MAX_FUNCS + 1];
	size_t nr = sb_auto_twin_ranges(t, lo, hi, SB_CODE_VARIANT_MAX_FUNCS + 1);
	return sb_insn_trace_count(t->cv.v.main, lo, hi, nr, MAX_STEPS, n, err, errlen);
}

int sb_auto_twin_check_path(struct sb_auto_twin *t, uint64_t batch, struct sb_auto_twin_path *out, char *err,
			    size_t errlen)
{
	memset(out, 0, sizeof(*out));
	char sub[160];
	sb_auto_twin_fill(t, 0);
	uint8_t *bound = sb_auto_twin_slot_addr(t, t->batch_iters);
	if (bound)
		memcpy(bound, &batch, t->batch_size); /* little endian: the low bytes */
	if (count_run(t, &out->stubbed, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "%s with the stubs' values: %s", t->cv.name, sub);
		sb_auto_twin_fill(t, 0);
		return -1;
	}
	sb_auto_twin_fill(t, 1);
	int rc = count_run(t, &out->real, sub, sizeof(sub));
	sb_auto_twin_fill(t, 0);
	if (rc) {
		snprintf(out->why, sizeof(out->why), "with the maps' contents the twin fails: %s", sub);
		return 0;
	}
	out->comparable = out->stubbed == out->real;
	if (!out->comparable)
		snprintf(out->why, sizeof(out->why), "%llu instructions per run with the stubs' values, %llu with the "
			 "maps' contents: its path depends on map data",
			 (unsigned long long)out->stubbed, (unsigned long long)out->real);
	return 0;
}

/* code_variant.c: variants made at run time from bytes; see code_variant.h. */
#define _GNU_SOURCE
#include "jit/code_variant.h"

#include <stdio.h>
#include <string.h>
#include <stddef.h>

#include "base/code_symbols.h"
#include "base/error.h"
#include "base/perf_map.h"
#include "jit/placement.h"
#include "jit/relocate.h"

#define PAGE 4096UL

int sb_code_variant_make(const struct sb_variant *tmpl, const char *name, const char *description,
			 const struct sb_code_func *funcs, size_t n, struct sb_code_variant *out, char *err,
			 size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (n == 0 || n > SB_CODE_VARIANT_MAX_FUNCS) {
		sb_set_err(err, errlen, "%s: %zu functions (1 to %d can be made)", name, n, SB_CODE_VARIANT_MAX_FUNCS);
		return -1;
	}
	/* A page per function, at offset 0: placement moves the copies the
	 * harness runs, so where these lie only needs to be in reach. */
	size_t slot[SB_CODE_VARIANT_MAX_FUNCS], total = 0;
	for (size_t i = 0; i < n; i++) {
		if (funcs[i].len == 0) {
			sb_set_err(err, errlen, "%s: function %zu has no bytes", name, i);
			return -1;
		}
		slot[i] = total;
		total += (funcs[i].len + 64 + PAGE - 1) & ~(PAGE - 1);
	}
	uint8_t *rw;
	char sub[256];
	uint8_t *m = sb_place_pages((uintptr_t)tmpl->main, total, &rw, sub, sizeof(sub));
	if (!m) {
		sb_set_err(err, errlen, "%s: %s", name, sub);
		return -1;
	}
	ptrdiff_t to_rw = rw - m;
	memset(rw, 0xcc, total); /* int3 around the code, as the JIT pads */
	out->map = m;
	out->map_len = total;
	out->n_funcs = n;
	struct sb_code_map map[SB_CODE_VARIANT_MAX_FUNCS];
	for (size_t i = 0; i < n; i++) {
		out->addr[i] = (uintptr_t)m + slot[i];
		out->len[i] = funcs[i].len;
		map[i] = (struct sb_code_map){funcs[i].origin, funcs[i].len, out->addr[i]};
	}
	for (size_t i = 0; i < n; i++)
		if (sb_jit_relocate(funcs[i].code, funcs[i].len, funcs[i].origin, (uint8_t *)out->addr[i] + to_rw,
				    out->addr[i], map, n, sub, sizeof(sub)) != 0) {
			sb_set_err(err, errlen, "%s: %s", name, sub);
			sb_place_pages_free(m, total);
			out->map = NULL;
			return -1;
		}
	if (sb_place_pages_seal(m, total, sub, sizeof(sub)) != 0) {
		sb_set_err(err, errlen, "%s: %s", name, sub);
		sb_place_pages_free(m, total);
		out->map = NULL;
		return -1;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	snprintf(out->seed_name, sizeof(out->seed_name), "%s", name);
	snprintf(out->description, sizeof(out->description), "%s", description ? description : tmpl->description);
	for (size_t i = 0; i < n; i++) {
		char sym[160];
		if (funcs[i].name)
			snprintf(sym, sizeof(sym), "%s", funcs[i].name);
		else if (i == 0)
			snprintf(sym, sizeof(sym), "%s", name);
		else
			snprintf(sym, sizeof(sym), "%s.f%zu", name, i);
		if (sb_code_symbols_add(out->addr[i], out->len[i], sym) != 0) {
			for (size_t k = 0; k < i; k++)
				sb_code_symbols_remove(out->addr[k]);
			sb_set_err(err, errlen, "%s: cannot name function %zu", name, i);
			sb_place_pages_free(m, total);
			out->map = NULL;
			return -1;
		}
		if (sb_perf_map_add(out->addr[i], out->len[i], sym, sub, sizeof(sub)) != 0)
			fprintf(stderr, "stubbench: %s\n", sub);
	}
	out->v = *tmpl;
	out->v.name = out->name;
	out->v.seed_name = out->seed_name;
	out->v.description = out->description;
	out->v.main = (sb_stub_fn)out->addr[0];
	out->v.program = out->v.main;
	out->v.code_bytes = (unsigned)out->len[0];
	out->v.symbol = out->name;
	return 0;
}

long sb_code_variant_funcs_of(const struct sb_variant *v, struct sb_code_func *out, size_t max, char *err,
			      size_t errlen)
{
	struct sb_placed_variant p;
	if (sb_place_collect(v, &p, err, errlen) != 0)
		return -1;
	if (p.n_funcs > max) {
		sb_set_err(err, errlen, "%s: %zu functions, room for %zu", v->name, p.n_funcs, max);
		return -1;
	}
	for (size_t i = 0; i < p.n_funcs; i++) {
		const char *sym = NULL;
		sb_code_function_size(p.old_addr[i], &sym);
		out[i] = (struct sb_code_func){(const uint8_t *)p.old_addr[i], p.len[i], p.old_addr[i], sym};
	}
	return (long)p.n_funcs;
}

size_t sb_code_variant_funcs(const struct sb_code_variant *cv, struct sb_code_func *out)
{
	for (size_t i = 0; i < cv->n_funcs; i++)
		out[i] = (struct sb_code_func){(const uint8_t *)cv->addr[i], cv->len[i], cv->addr[i], NULL};
	return cv->n_funcs;
}

void sb_code_variant_free(struct sb_code_variant *cv)
{
	for (size_t i = 0; i < cv->n_funcs; i++)
		sb_code_symbols_remove(cv->addr[i]);
	if (cv->map)
		sb_place_pages_free(cv->map, cv->map_len);
	cv->map = NULL;
	cv->n_funcs = 0;
}

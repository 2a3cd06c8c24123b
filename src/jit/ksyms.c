/* ksyms.c: kallsyms text symbols and the names of JITed code's call and
 * jmp targets; see ksyms.h. */
#include "jit/ksyms.h"
#include "base/error.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_addr(const void *a, const void *b)
{
	const struct sb_ksym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int sb_ksyms_load(const char *path, struct sb_ksyms *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	FILE *f = fopen(path, "r");
	if (!f) {
		sb_set_err(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t cap = 0, lines = 0;
	char line[512];
	int nonzero = 0;
	while (fgets(line, sizeof(line), f)) {
		uint64_t addr;
		char type, name[256];
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, name) != 3)
			continue;
		lines++;
		nonzero |= addr != 0;
		if (type != 't' && type != 'T')
			continue;
		if (out->n == cap) {
			cap = cap ? 2 * cap : 4096;
			struct sb_ksym *nv = realloc(out->v, cap * sizeof(*nv));
			if (!nv) {
				fclose(f);
				sb_ksyms_free(out);
				sb_set_err(err, errlen, "out of memory");
				return -1;
			}
			out->v = nv;
		}
		out->v[out->n].addr = addr;
		snprintf(out->v[out->n].name, sizeof(out->v[out->n].name), "%.79s", name);
		out->n++;
	}
	fclose(f);
	if (lines == 0) {
		sb_ksyms_free(out);
		sb_set_err(err, errlen, "%s: no symbols", path);
		return -1;
	}
	if (!nonzero) {
		sb_ksyms_free(out);
		sb_set_err(err, errlen, "%s: every address reads as zero (no permission to see kernel pointers: "
			   "kernel.kptr_restrict, CAP_SYSLOG): JIT targets cannot be named", path);
		return -1;
	}
	qsort(out->v, out->n, sizeof(*out->v), by_addr);
	return 0;
}

void sb_ksyms_free(struct sb_ksyms *ks)
{
	free(ks->v);
	ks->v = NULL;
	ks->n = 0;
}

const struct sb_ksym *sb_ksyms_lookup(const struct sb_ksyms *ks, uint64_t addr, uint64_t *off)
{
	size_t lo = 0, hi = ks->n; /* first symbol above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ks->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	*off = addr - ks->v[lo - 1].addr;
	return &ks->v[lo - 1];
}

const struct sb_ksym *sb_ksyms_find(const struct sb_ksyms *ks, const char *name)
{
	for (size_t i = 0; i < ks->n; i++)
		if (strcmp(ks->v[i].name, name) == 0)
			return &ks->v[i];
	return NULL;
}

static void name_target(const struct sb_jit_image *img, const struct sb_ksyms *ks, struct sb_jit_target *t)
{
	for (size_t i = 0; img && i < img->n; i++)
		if (img->funcs[i].ksym && t->addr >= img->funcs[i].ksym &&
		    t->addr < img->funcs[i].ksym + img->funcs[i].len) {
			uint64_t o = t->addr - img->funcs[i].ksym;
			if (o)
				snprintf(t->name, sizeof(t->name), "%s+%#" PRIx64, img->funcs[i].name, o);
			else
				snprintf(t->name, sizeof(t->name), "%s", img->funcs[i].name);
			return;
		}
	uint64_t o = 0;
	const struct sb_ksym *s = ks ? sb_ksyms_lookup(ks, t->addr, &o) : NULL;
	if (!s)
		snprintf(t->name, sizeof(t->name), "?");
	else if (o)
		snprintf(t->name, sizeof(t->name), "%.80s+%#" PRIx64, s->name, o);
	else
		snprintf(t->name, sizeof(t->name), "%s", s->name);
}

int sb_jit_resolve_targets(const struct sb_jit_image *img, const struct sb_jit_func *fn,
			   const struct sb_ksyms *ks, struct sb_jit_target *out, size_t max, size_t *n,
			   char *err, size_t errlen)
{
	*n = 0;
	struct sb_listing l;
	if (sb_jit_decode(fn->bytes, fn->len, fn->name, &l, err, errlen))
		return -1;
	for (size_t i = 0; i < l.n && *n < max; i++) {
		const struct sb_insn *in = &l.insns[i];
		if (in->len != 5 || (in->bytes[0] != 0xe8 && in->bytes[0] != 0xe9))
			continue;
		int32_t rel;
		memcpy(&rel, in->bytes + 1, 4);
		uint64_t target = fn->ksym + in->off + 5 + (int64_t)rel;
		if (target >= fn->ksym && target < fn->ksym + fn->len)
			continue; /* a branch inside the function */
		struct sb_jit_target *t = &out[(*n)++];
		t->off = in->off;
		t->is_call = in->bytes[0] == 0xe8;
		t->addr = target;
		name_target(img, ks, t);
	}
	sb_listing_free(&l);
	return 0;
}

enum sb_thunk sb_jit_return_thunk(const struct sb_jit_func *fn, const struct sb_jit_target *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		enum sb_thunk th = t[i].is_call ? SB_THUNK_UNKNOWN : sb_thunk_from_symbol(t[i].name);
		if (th != SB_THUNK_UNKNOWN)
			return th;
	}
	const uint8_t *b = fn->bytes;
	if (fn->len >= 1 && b[fn->len - 1] == 0xc3)
		return SB_THUNK_RET;
	if (fn->len >= 2 && b[fn->len - 2] == 0xc3 && b[fn->len - 1] == 0xcc)
		return SB_THUNK_RET;
	return SB_THUNK_UNKNOWN;
}

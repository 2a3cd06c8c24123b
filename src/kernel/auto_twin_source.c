/* auto_twin_source.c: a loaded program's JIT image, maps and map
 * immediates, for an auto-twin; see auto_twin_source.h. */
#include "kernel/auto_twin_source.h"
#include "base/error.h"
#include "kernel/jit_read.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KERNEL_HALF 0xffff800000000000ULL
#define MAX_CONTENTS (1UL << 20)

/* The values of an array map (every key), or NULL. */
static uint8_t *read_values(uint32_t id, const struct bpf_map_info *mi, size_t *len)
{
	*len = 0;
	if (mi->type != BPF_MAP_TYPE_ARRAY || (size_t)mi->value_size * mi->max_entries > MAX_CONTENTS)
		return NULL;
	int fd = bpf_map_get_fd_by_id(id);
	if (fd < 0)
		return NULL;
	uint8_t *v = calloc(mi->max_entries ? mi->max_entries : 1, mi->value_size);
	for (uint32_t k = 0; v && k < mi->max_entries; k++)
		if (bpf_map_lookup_elem(fd, &k, v + (size_t)k * mi->value_size) != 0) {
			free(v);
			v = NULL;
		}
	close(fd);
	if (v)
		*len = (size_t)mi->value_size * mi->max_entries;
	return v;
}

static int read_maps(const __u32 *ids, size_t n, struct sb_auto_twin_source *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < n && s->n_maps < SB_AUTO_TWIN_MAX_MAPS; i++) {
		int fd = bpf_map_get_fd_by_id(ids[i]);
		if (fd < 0) {
			sb_set_err(err, errlen, "map %u of %s: %s", ids[i], s->img.prog_name, sb_errno_cause(errno));
			return -1;
		}
		struct bpf_map_info mi;
		__u32 len = sizeof(mi);
		memset(&mi, 0, sizeof(mi));
		int rc = bpf_obj_get_info_by_fd(fd, &mi, &len);
		close(fd);
		if (rc) {
			sb_set_err(err, errlen, "map %u of %s: %s", ids[i], s->img.prog_name, sb_errno_cause(errno));
			return -1;
		}
		struct sb_auto_twin_map *m = &s->maps[s->n_maps];
		*m = (struct sb_auto_twin_map){.id = ids[i], .type = mi.type, .value_size = mi.value_size,
					       .max_entries = mi.max_entries};
		snprintf(m->name, sizeof(m->name), "%s", mi.name);
		s->contents[s->n_maps] = read_values(ids[i], &mi, &m->contents_len);
		m->contents = s->contents[s->n_maps];
		s->n_maps++;
	}
	return 0;
}

static long map_index(const struct sb_auto_twin_source *s, uint32_t id)
{
	for (size_t i = 0; i < s->n_maps; i++)
		if (s->maps[i].id == id)
			return (long)i;
	return -1;
}

/* The kernel-address movabs immediates of the JIT, in order, but the
 * private stack's (the movabs before "add reg, gs:[...]"). */
static size_t jit_immediates(const struct sb_jit_image *img, uint64_t *out, size_t max)
{
	size_t n = 0;
	for (size_t f = 0; f < img->n; f++) {
		struct sb_listing l;
		char err[200];
		if (sb_jit_decode(img->funcs[f].bytes, img->funcs[f].len, img->funcs[f].name, &l, err, sizeof(err)))
			continue;
		for (size_t i = 0; i < l.n; i++) {
			const struct sb_insn *in = &l.insns[i];
			uint64_t imm;
			if (in->len != 10 || (in->bytes[0] & 0xf8) != 0x48 || (in->bytes[1] & 0xf8) != 0xb8)
				continue;
			memcpy(&imm, in->bytes + 2, 8);
			if (imm < KERNEL_HALF || (i + 1 < l.n && l.insns[i + 1].bytes[0] == 0x65))
				continue;
			if (n < max)
				out[n] = imm;
			n++;
		}
		sb_listing_free(&l);
	}
	return n;
}

/* Pairs the xlated program's map ld_imm64s with the JIT's immediates. */
static void pair_refs(struct sb_auto_twin_source *s, const struct bpf_insn *x, size_t nx)
{
	uint64_t imm[SB_AUTO_TWIN_MAX_REFS];
	size_t n_imm = jit_immediates(&s->img, imm, SB_AUTO_TWIN_MAX_REFS), n = 0;
	struct sb_auto_twin_ref refs[SB_AUTO_TWIN_MAX_REFS];
	for (size_t i = 0; i + 1 < nx; i++) {
		if (x[i].code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		int src = x[i].src_reg;
		long m = map_index(s, (uint32_t)x[i].imm);
		if ((src == BPF_PSEUDO_MAP_FD || src == BPF_PSEUDO_MAP_VALUE) && m >= 0 && n < SB_AUTO_TWIN_MAX_REFS) {
			refs[n] = (struct sb_auto_twin_ref){.map = (size_t)m, .off = (uint32_t)x[i + 1].imm,
							    .is_value = src == BPF_PSEUDO_MAP_VALUE};
			n++;
		}
		i++;
	}
	if (n != n_imm || n_imm > SB_AUTO_TWIN_MAX_REFS) {
		snprintf(s->note, sizeof(s->note), "%zu map immediates in the xlated code, %zu kernel addresses in "
			 "the JIT: none attributed to a map", n, n_imm);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		refs[k].kaddr = imm[k];
		/* One map, one base: a pairing that says otherwise is wrong. */
		for (size_t q = 0; q < k; q++)
			if (refs[q].map == refs[k].map && refs[q].is_value == refs[k].is_value &&
			    refs[q].kaddr - refs[q].off != refs[k].kaddr - refs[k].off) {
				snprintf(s->note, sizeof(s->note), "the JIT's immediates do not pair with the "
					 "xlated code's maps: none attributed");
				return;
			}
	}
	memcpy(s->refs, refs, n * sizeof(*refs));
	s->n_refs = n;
}

int sb_auto_twin_source_read(int prog_fd, struct sb_auto_twin_source *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	if (sb_jit_read(prog_fd, &s->img, err, errlen))
		return -1;
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		sb_set_err(err, errlen, "bpf_obj_get_info_by_fd: %s", sb_errno_cause(errno));
		goto fail;
	}
	__u32 n_ids = info.nr_map_ids, xlen = info.xlated_prog_len;
	__u32 *ids = calloc(n_ids ? n_ids : 1, sizeof(*ids));
	struct bpf_insn *x = calloc(1, xlen ? xlen : 1);
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = n_ids;
	info.map_ids = (__u64)(uintptr_t)ids;
	info.xlated_prog_len = xlen;
	info.xlated_prog_insns = (__u64)(uintptr_t)x;
	len = sizeof(info);
	int rc = !ids || !x ? -1 : bpf_obj_get_info_by_fd(prog_fd, &info, &len);
	if (rc == 0)
		rc = read_maps(ids, n_ids, s, err, errlen);
	else
		sb_set_err(err, errlen, "the maps and xlated code of %s: %s", s->img.prog_name, sb_errno_cause(errno));
	if (rc == 0)
		pair_refs(s, x, xlen / sizeof(*x));
	free(ids);
	free(x);
	if (rc == 0)
		return 0;
fail:
	sb_auto_twin_source_free(s);
	return -1;
}

void sb_auto_twin_source_free(struct sb_auto_twin_source *s)
{
	sb_jit_image_free(&s->img);
	for (size_t i = 0; i < s->n_maps; i++)
		free(s->contents[i]);
	memset(s, 0, sizeof(*s));
}

/* Calls fn(ctx, map index, name, offset, size) for every variable of the
 * BTF datasec of each of s's maps (.rodata, .data, .bss) until fn returns
 * nonzero; returns that, or 0. */
static int each_global(const struct sb_auto_twin_source *s,
		       int (*fn)(void *ctx, size_t map, const char *name, uint32_t off, uint32_t size), void *ctx)
{
	int stop = 0;
	for (size_t i = 0; i < s->n_maps && !stop; i++) {
		int fd = bpf_map_get_fd_by_id(s->maps[i].id);
		if (fd < 0)
			continue;
		struct bpf_map_info mi;
		__u32 len = sizeof(mi);
		memset(&mi, 0, sizeof(mi));
		int rc = bpf_obj_get_info_by_fd(fd, &mi, &len);
		close(fd);
		if (rc || !mi.btf_id || !mi.btf_value_type_id)
			continue;
		struct btf *btf = btf__load_from_kernel_by_id(mi.btf_id);
		if (!btf)
			continue;
		const struct btf_type *t = btf__type_by_id(btf, mi.btf_value_type_id);
		if (t && btf_is_datasec(t)) {
			const struct btf_var_secinfo *v = btf_var_secinfos(t);
			for (unsigned k = 0; k < btf_vlen(t) && !stop; k++, v++) {
				const struct btf_type *var = btf__type_by_id(btf, v->type);
				const char *vn = var ? btf__name_by_offset(btf, var->name_off) : NULL;
				if (vn)
					stop = fn(ctx, i, vn, v->offset, v->size);
			}
		}
		btf__free(btf);
	}
	return stop;
}

struct global_find {
	const char *name;
	struct sb_auto_twin_slot slot;
	unsigned size;
};

static int find_one(void *ctx, size_t map, const char *name, uint32_t off, uint32_t size)
{
	struct global_find *g = ctx;
	if (strcmp(name, g->name) != 0)
		return 0;
	g->slot = (struct sb_auto_twin_slot){(int)map, off};
	g->size = size;
	return 1;
}

struct sb_auto_twin_slot sb_auto_twin_source_global(const struct sb_auto_twin_source *s, const char *name,
						     unsigned *size)
{
	struct global_find g = {.name = name, .slot = {-1, 0}};
	each_global(s, find_one, &g);
	*size = g.size;
	return g.slot;
}

struct global_lines {
	const struct sb_auto_twin_source *s;
	char *buf;
	size_t len, at;
};

/* The kernel address of map's values, from an immediate that points into
 * them (refs), or 0. */
static uint64_t values_kaddr(const struct sb_auto_twin_source *s, size_t map)
{
	for (size_t r = 0; r < s->n_refs; r++)
		if (s->refs[r].map == map && s->refs[r].is_value)
			return s->refs[r].kaddr - s->refs[r].off;
	return 0;
}

static int line_of(void *ctx, size_t map, const char *name, uint32_t off, uint32_t size)
{
	struct global_lines *g = ctx;
	uint64_t base = values_kaddr(g->s, map);
	if (base && g->at < g->len)
		g->at += (size_t)snprintf(g->buf + g->at, g->len - g->at, "# global %s at %#llx, %u bytes (map %s)\n",
					  name, (unsigned long long)(base + off), size, g->s->maps[map].name);
	return 0;
}

void sb_auto_twin_source_globals(const struct sb_auto_twin_source *s, char *buf, size_t len)
{
	struct global_lines g = {s, buf, len, 0};
	if (len)
		buf[0] = '\0';
	each_global(s, line_of, &g);
	if (g.at >= len && len) /* cut: no half line */
		*(strrchr(buf, '\n') ? strrchr(buf, '\n') + 1 : buf) = '\0';
}

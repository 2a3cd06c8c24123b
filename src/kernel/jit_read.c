/* jit_read.c: a loaded program's JITed functions, read with
 * bpf_obj_get_info_by_fd (libbpf 1.1's name for bpf_prog_get_info_by_fd):
 * once for the lengths, once for the buffers. Names come from the
 * program's BTF func_info. */
#include "kernel/jit_read.h"
#include "jit/decode.h"
#include "base/error.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Names of the functions from BTF; leaves "func<i>" where BTF says nothing.
 * Returns -1 when the BTF is there but this process may not read it (the
 * names would be wrong, and every comparison by name a false mismatch). */
static int name_funcs(const struct bpf_prog_info *info, const struct bpf_func_info *fi,
		      struct sb_jit_image *img, char *err, size_t errlen)
{
	for (size_t i = 0; i < img->n; i++)
		snprintf(img->funcs[i].name, sizeof(img->funcs[i].name), "func%zu", i);
	if (!info->btf_id || !fi || info->nr_func_info != img->n)
		return 0;
	struct btf *btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!btf) {
		if (errno == EPERM || errno == EACCES) {
			sb_set_err(err, errlen, "no permission to read the BTF of %s, which names its JITed "
				   "functions: reading BTF by id needs CAP_SYS_ADMIN", img->prog_name);
			return -1;
		}
		return 0;
	}
	for (size_t i = 0; i < img->n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, fi[i].type_id);
		const char *n = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		if (n && *n)
			snprintf(img->funcs[i].name, sizeof(img->funcs[i].name), "%s", n);
	}
	btf__free(btf);
	return 0;
}

int sb_jit_read(int prog_fd, struct sb_jit_image *img, char *err, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		sb_set_err(err, errlen, "bpf_obj_get_info_by_fd: %s", sb_errno_cause(errno));
		return -1;
	}
	snprintf(img->prog_name, sizeof(img->prog_name), "%s", info.name);
	if (info.jited_prog_len == 0) {
		sb_set_err(err, errlen, "program %s is not JITed (net.core.bpf_jit_enable=0?)", info.name);
		return -1;
	}
	__u32 prog_len = info.jited_prog_len;
	__u32 nfuncs = info.nr_jited_func_lens ? info.nr_jited_func_lens : 1;
	__u32 nksyms = info.nr_jited_ksyms;
	__u32 nfi = info.nr_func_info;
	__u32 fi_rec = info.func_info_rec_size;

	uint8_t *code = calloc(1, prog_len);
	__u32 *lens = calloc(nfuncs, sizeof(*lens));
	__u64 *ksyms = calloc(nksyms ? nksyms : 1, sizeof(*ksyms));
	struct bpf_func_info *fi = nfi ? calloc(nfi, sizeof(*fi)) : NULL;
	img->funcs = calloc(nfuncs, sizeof(*img->funcs));
	if (!code || !lens || !ksyms || (nfi && !fi) || !img->funcs) {
		sb_set_err(err, errlen, "out of memory");
		goto fail;
	}
	memset(&info, 0, sizeof(info));
	info.jited_prog_len = prog_len;
	info.jited_prog_insns = (__u64)(uintptr_t)code;
	info.nr_jited_func_lens = nfuncs;
	info.jited_func_lens = (__u64)(uintptr_t)lens;
	info.nr_jited_ksyms = nksyms;
	info.jited_ksyms = (__u64)(uintptr_t)ksyms;
	if (nfi && fi_rec == sizeof(struct bpf_func_info)) {
		info.nr_func_info = nfi;
		info.func_info_rec_size = fi_rec;
		info.func_info = (__u64)(uintptr_t)fi;
	} else {
		free(fi);
		fi = NULL;
	}
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len)) {
		sb_set_err(err, errlen, "bpf_obj_get_info_by_fd (buffers): %s", sb_errno_cause(errno));
		goto fail;
	}
	if (nfuncs == 1 && lens[0] == 0)
		lens[0] = prog_len;
	int all_zero = 1;
	for (__u32 i = 0; i < prog_len && all_zero; i++)
		all_zero = code[i] == 0;
	if (all_zero) {
		sb_set_err(err, errlen, "JITed bytes of %s read as zeros: no permission to dump them "
			"(the kernel shows them where it shows kallsyms addresses: CAP_SYSLOG, "
			"kernel.kptr_restrict)", img->prog_name);
		goto fail;
	}
	size_t off = 0;
	img->n = nfuncs;
	for (__u32 i = 0; i < nfuncs; i++) {
		if (off + lens[i] > prog_len) {
			sb_set_err(err, errlen, "jited_func_lens of %s exceed jited_prog_len %u",
				img->prog_name, prog_len);
			goto fail;
		}
		img->funcs[i].bytes = malloc(lens[i] ? lens[i] : 1);
		if (!img->funcs[i].bytes) {
			sb_set_err(err, errlen, "out of memory");
			goto fail;
		}
		memcpy(img->funcs[i].bytes, code + off, lens[i]);
		img->funcs[i].len = lens[i];
		img->funcs[i].ksym = i < nksyms ? ksyms[i] : 0;
		off += lens[i];
	}
	if (name_funcs(&info, fi, img, err, errlen) != 0)
		goto fail;
	free(code);
	free(lens);
	free(ksyms);
	free(fi);
	return 0;
fail:
	free(code);
	free(lens);
	free(ksyms);
	free(fi);
	sb_jit_image_free(img);
	return -1;
}

long sb_jit_r9_setup(const uint8_t *code, size_t len, uint64_t *imm)
{
	static const uint8_t gs_add[5] = {0x65, 0x4c, 0x03, 0x0c, 0x25};
	for (size_t i = 0; i + 10 + sizeof(gs_add) <= len; i++)
		if (code[i] == 0x49 && code[i + 1] == 0xb9 && memcmp(code + i + 10, gs_add, sizeof(gs_add)) == 0) {
			memcpy(imm, code + i + 2, 8);
			return (long)i;
		}
	return -1;
}

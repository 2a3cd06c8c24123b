/* return_thunk_resolve.c: what the loaded programs' JITed code calls and jumps
 * into, named through jited_ksyms and /proc/kallsyms, and so the return
 * thunk the JIT's returns really reach; and the thunk replicas checked
 * against this kernel's own text (kernel_text.c). */
#include "kernel/return_thunk_resolve.h"
#include "base/cpu_signature.h"
#include "kernel/jit_read.h"
#include "kernel/loader.h"
#include "kernel/kernel_text.h"
#include "jit/ksyms.h"
#include "jit/return_thunks.h"
#include "base/code_symbols.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define KALLSYMS "/proc/kallsyms"

void sb_kernel_return_thunk(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
			    const int want[SB_N_KVARIANTS], int verbose, FILE *f, struct sb_return_thunk *rt)
{
	memset(rt, 0, sizeof(*rt));
	sb_mitigations_read(SB_VULN_DIR, &rt->mit);
	struct sb_ksyms ks;
	char err[512];
	int have_ks = sb_ksyms_load(KALLSYMS, &ks, err, sizeof(err)) == 0;
	if (!have_ks)
		fprintf(f, "jit targets: not named: %s\n", err);
	enum sb_thunk seen = SB_THUNK_UNKNOWN;
	int mixed = 0, n_funcs = 0;
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			if (!shapes[s] || (v != SB_KV_BASELINE && !want[v]))
				continue;
			struct sb_jit_image img;
			if (sb_jit_read(sb_kernel_prog_fd(o, s, v), &img, err, sizeof(err)))
				continue; /* the JIT check has said why */
			for (size_t i = 0; i < img.n; i++) {
				struct sb_jit_target t[32];
				size_t n;
				if (sb_jit_resolve_targets(&img, &img.funcs[i], have_ks ? &ks : NULL, t, 32, &n, err,
							   sizeof(err)))
					continue;
				enum sb_thunk th = sb_jit_return_thunk(&img.funcs[i], t, n);
				if (th != SB_THUNK_UNKNOWN) {
					mixed |= seen != SB_THUNK_UNKNOWN && th != seen;
					seen = th;
				}
				n_funcs++;
				if (!verbose)
					continue;
				fprintf(stderr, "stubbench kernel: jit %s.%s at %#" PRIx64 ":", img.prog_name,
					img.funcs[i].name, img.funcs[i].ksym);
				for (size_t k = 0; k < n; k++)
					fprintf(stderr, "%s %s %s", k ? "," : "", t[k].is_call ? "call" : "jmp", t[k].name);
				fprintf(stderr, "%s; returns via %s\n", n ? "" : " no calls or jumps out",
					sb_thunk_name(th));
			}
			sb_jit_image_free(&img);
		}
	if (have_ks)
		sb_ksyms_free(&ks);
	if (seen != SB_THUNK_UNKNOWN && !mixed) {
		rt->thunk = seen;
		snprintf(rt->how, sizeof(rt->how), "%s of the %d JITed functions, resolved through jited_ksyms and %s",
			 seen == SB_THUNK_RET ? "the ret" : "the jmp target of the returns", n_funcs, KALLSYMS);
		return;
	}
	char why[200];
	struct sb_cpu_signature sig;
	sb_cpu_signature(&sig);
	rt->thunk = sb_thunk_infer(&rt->mit, sig.family, why, sizeof(why));
	snprintf(rt->how, sizeof(rt->how), "%s; inferred from %s",
		 mixed ? "the JITed functions return through different thunks" : "the JIT's return targets could not be named",
		 why);
}

void sb_kernel_check_thunks(FILE *f)
{
	struct sb_ksyms ks;
	char err[512];
	if (sb_ksyms_load(KALLSYMS, &ks, err, sizeof(err))) {
		fprintf(f, "thunk replicas: not checked against this kernel's text: %s\n", err);
		return;
	}
	const struct sb_thunk_code *c;
	size_t n = sb_thunk_codes(&c);
	fprintf(f, "thunk replicas vs this kernel's text (bpf_probe_read_kernel):");
	int refused = 0;
	for (size_t i = 0; i < n && !refused; i++) {
		const struct sb_ksym *k = sb_ksyms_find(&ks, c[i].kernel_sym);
		size_t len = sb_code_function_size((uintptr_t)c[i].addr, NULL);
		if (!k) {
			fprintf(f, "%s %s not in this kernel", i ? ";" : "", c[i].kernel_sym);
			continue;
		}
		uint8_t kb[SB_KERNEL_TEXT_MAX];
		if (!len || len > sizeof(kb) || sb_kernel_read_text(k->addr, kb, len, err, sizeof(err))) {
			refused = 1;
			break;
		}
		/* Compare all but the rel32 of calls and jumps (decoded from the
		 * replica; an imm64 is compared, it holds the safe-ret bytes). */
		struct sb_listing l;
		char derr[256];
		const uint8_t *rb = c[i].addr;
		long diff = -1;
		if (sb_jit_decode(rb, len, c[i].replica_sym, &l, derr, sizeof(derr)) == 0) {
			for (size_t j = 0; j < l.n && diff < 0; j++) {
				const struct sb_insn *in = &l.insns[j];
				int rel32 = in->len == 5 && (in->bytes[0] == 0xe8 || in->bytes[0] == 0xe9);
				for (size_t b = 0; b < in->len && diff < 0; b++)
					if (!(rel32 && b > 0) && kb[in->off + b] != rb[in->off + b])
						diff = (long)(in->off + b);
			}
			sb_listing_free(&l);
		}
		if (diff < 0)
			fprintf(f, "%s %s same (%zu bytes)", i ? ";" : "", c[i].kernel_sym, len);
		else if (diff == c[i].known_diff)
			fprintf(f, "%s %s same but at +%#lx, by design (%s)", i ? ";" : "", c[i].kernel_sym, diff,
				c[i].why_diff);
		else
			fprintf(f, "%s %s DIFFERS at +%#lx (kernel %02x, replica %02x)", i ? ";" : "", c[i].kernel_sym,
				diff, kb[diff], rb[diff]);
	}
	if (refused)
		fprintf(f, " refused: %s", err);
	fputc('\n', f);
	sb_ksyms_free(&ks);
}

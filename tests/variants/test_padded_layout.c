/* The padded baselines lie as the variants they pad: for every variant of a
 * "-padded" family, its program and its subprog are as long as the padded
 * variant's; with its NOPs left out, its instructions are the baseline's
 * (bytes equal, call and jmp rel32 and movabs imm64 masked); and each of them
 * starts where the padded variant has an instruction of the same length
 * and opcode. The NOPs are the kernel's forms (x86_nops[], ASM_NOP_MAX 8). */
#include <string.h>

#include "check.h"
#include "base/code_symbols.h"
#include "jit/decode.h"
#include "jit/listing.h"
#include "stubbench/registry.h"
#include "variants/variant_baseline.h"
#include "harness/variant_arms.h"

static const uint8_t *const kernel_nops[] = {
	(const uint8_t *)"\x90",
	(const uint8_t *)"\x66\x90",
	(const uint8_t *)"\x0f\x1f\x00",
	(const uint8_t *)"\x0f\x1f\x40\x00",
	(const uint8_t *)"\x0f\x1f\x44\x00\x00",
	(const uint8_t *)"\x66\x0f\x1f\x44\x00\x00",
	(const uint8_t *)"\x0f\x1f\x80\x00\x00\x00\x00",
	(const uint8_t *)"\x0f\x1f\x84\x00\x00\x00\x00\x00",
};

static int is_kernel_nop(const struct sb_insn *in)
{
	return in->len >= 1 && in->len <= 8 && memcmp(in->bytes, kernel_nops[in->len - 1], in->len) == 0;
}

/* The bytes that say what an instruction is: all of them but a call or jmp
 * rel32 and a movabs's imm64. */
static size_t fixed_bytes(const struct sb_insn *in)
{
	if (in->len == 5 && (in->bytes[0] == 0xe8 || in->bytes[0] == 0xe9))
		return 1;
	if (in->len == 10 && (in->bytes[0] & 0xf0) == 0x40 && in->bytes[1] >= 0xb8 && in->bytes[1] <= 0xbf)
		return 2;
	return in->len;
}

static int same_insn(const struct sb_insn *a, const struct sb_insn *b)
{
	return a->len == b->len && memcmp(a->bytes, b->bytes, fixed_bytes(a)) == 0;
}

static int decode(const void *code, const char *what, struct sb_listing *l)
{
	const char *name = NULL;
	size_t size = sb_code_function_size((uintptr_t)code, &name);
	char err[256];
	CHECK(size > 0, "%s: no symbol", what);
	if (!size || sb_jit_decode(code, size, name, l, err, sizeof(err)) != 0) {
		CHECK(0, "%s: %s", what, size ? err : "no size");
		return -1;
	}
	return 0;
}

/* One function of the padded baseline against the same function of the
 * variant it pads and of the baseline. */
static void check_function(const char *what, const void *padded, const void *variant, const void *baseline)
{
	struct sb_listing p, v, b;
	if (decode(padded, what, &p) || decode(variant, what, &v) || decode(baseline, what, &b))
		return;
	size_t plen = p.insns[p.n - 1].off + p.insns[p.n - 1].len, vlen = v.insns[v.n - 1].off + v.insns[v.n - 1].len;
	CHECK(plen == vlen, "%s: %zu bytes, the variant %zu", what, plen, vlen);
	size_t bi = 0, vi = 0, nops = 0;
	for (size_t i = 0; i < p.n; i++) {
		const struct sb_insn *in = &p.insns[i];
		/* The baseline's own nops (the fentry site, the padding) are
		 * baseline instructions, matched first. */
		if (bi < b.n && same_insn(in, &b.insns[bi])) {
			bi++;
			while (vi < v.n && v.insns[vi].off < in->off)
				vi++;
			CHECK(vi < v.n && v.insns[vi].off == in->off && same_insn(in, &v.insns[vi]),
			      "%s+%#zx '%s': not where the variant has it", what, in->off, in->text);
			continue;
		}
		CHECK(is_kernel_nop(in), "%s+%#zx '%s': neither the baseline's nor a kernel NOP", what, in->off,
		      in->text);
		nops++;
	}
	CHECK(bi == b.n, "%s: %zu of the baseline's %zu instructions found", what, bi, b.n);
	CHECK(nops > 0, "%s: no padding", what);
	sb_listing_free(&p), sb_listing_free(&v), sb_listing_free(&b);
}

int main(void)
{
	size_t n_padded = 0;
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *pad = sb_variant_at(i);
		const char *fam = sb_variant_family(pad);
		if (!fam || !strstr(fam, "-padded"))
			continue;
		n_padded++;
		const struct sb_variant *v = pad->family_info;
		CHECK(v && sb_variant_padded_baseline_of(v) == pad, "%s: not the padded baseline of what it pads",
		      pad->name);
		const struct sb_variant *base = v ? sb_variant_baseline_of(v) : NULL;
		CHECK(base && base != v, "%s: no baseline", pad->name);
		if (!v || !base)
			continue;
		char what[160];
		snprintf(what, sizeof(what), "%s main prog", pad->name);
		check_function(what, (const void *)pad->main, (const void *)v->main, (const void *)base->main);
		snprintf(what, sizeof(what), "%s subprog", pad->name);
		/* hybrid's subprog is the baseline's: no padding there. */
		if (pad->callee == base->callee)
			CHECK(v->callee == base->callee, "%s: an unpadded subprog for a padded one", pad->name);
		else
			check_function(what, pad->callee, v->callee, base->callee);
		printf("%-22s lies as %s\n", pad->name, v->name);
	}
	CHECK(n_padded == 4, "%zu padded baselines, expected 4 (two flavours x private, hybrid)", n_padded);
	return check_report("padded_layout");
}

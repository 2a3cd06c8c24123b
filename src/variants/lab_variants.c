/* lab_variants.c: the codegen lab's variants (family "lab"), see lab_variants.h.
 * asm/lab_alternatives.asm declares each one: its struct sb_variant
 * (SB_VARIANT) and its struct sb_lab_info, each pointing at the other. */
#include "variants/lab_variants.h"

#include <stddef.h>

#include "variants/percpu.h"

extern const int64_t sb_lab_call_depth_disp;

/* The layout LAB_RECORD (asm/lab_alternatives.asm) emits. */
_Static_assert(offsetof(struct sb_lab_info, alt) == 8, "lab record: alt");
_Static_assert(offsetof(struct sb_lab_info, insns_fixed) == 36, "lab record: insns_fixed");
_Static_assert(offsetof(struct sb_lab_info, program) == 40, "lab record: program");
_Static_assert(offsetof(struct sb_lab_info, fp_reg) == 56, "lab record: fp_reg");
_Static_assert(sizeof(struct sb_lab_info) == 64, "lab record: size");
_Static_assert(sizeof(enum sb_lab_alt) == 4 && sizeof(enum sb_lab_return) == 4, "lab record: enums");

static int is_lab(const struct sb_variant *v)
{
	return sb_variant_in_family(v, "lab") && v->family_info;
}

size_t sb_lab_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < sb_variant_count(); i++)
		n += is_lab(sb_variant_at(i));
	return n;
}

const struct sb_lab_info *sb_lab_at(size_t i)
{
	for (size_t k = 0; k < sb_variant_count(); k++) {
		const struct sb_variant *v = sb_variant_at(k);
		if (is_lab(v) && i-- == 0)
			return v->family_info;
	}
	return NULL;
}

const struct sb_lab_info *sb_lab_info_of(const struct sb_variant *v)
{
	if (!is_lab(v))
		return NULL;
	const struct sb_lab_info *li = v->family_info;
	/* a copy of a variant (placed elsewhere) is not the lab's */
	return li->variant == v ? li : NULL;
}

const struct sb_variant *sb_lab_find(enum sb_lab_alt alt, enum sb_lab_return ret, int in_loop)
{
	for (size_t i = 0; i < sb_lab_count(); i++) {
		const struct sb_lab_info *li = sb_lab_at(i);
		if (li->alt == alt && li->ret == ret && li->in_loop == in_loop)
			return li->variant;
	}
	return NULL;
}

const char *sb_lab_alt_name(enum sb_lab_alt alt)
{
	static const char *const names[SB_LAB_N_ALTS] = {
		[SB_LAB_BASELINE] = "baseline",
		[SB_LAB_MAINLINE] = "mainline",
		[SB_LAB_RELOAD] = "reload",
		[SB_LAB_CALLEE_SAVED] = "callee-saved",
		[SB_LAB_SPILL_ONCE] = "spill-once",
		[SB_LAB_PLACEMENT_CONTROL] = "placement-control",
	};
	return (unsigned)alt < SB_LAB_N_ALTS ? names[alt] : "?";
}

const char *sb_lab_return_name(enum sb_lab_return ret)
{
	static const char *const names[SB_LAB_N_RETURNS] = {
		[SB_LAB_RET] = "ret",
		[SB_LAB_RETHUNK] = "rethunk",
		[SB_LAB_CALLDEPTH] = "calldepth",
		[SB_LAB_SRSO] = "srso",
		[SB_LAB_SRSO_ALIAS] = "srso-alias",
	};
	return (unsigned)ret < SB_LAB_N_RETURNS ? names[ret] : "?";
}

uint64_t sb_lab_call_depth(void)
{
	return sb_percpu_read_gs_slot((int32_t)sb_lab_call_depth_disp);
}

/* lab_variants.c: the codegen lab's variants (family "lab"), see lab.h and
 * asm/lab_alternatives.asm. */
#include "stubbench/lab.h"

#include "stubbench/percpu.h"

/* ---- the asm symbols ---------------------------------------------------- */

#define LAB_DECL_SHAPE(a, r, s)                                             \
	int sb_lab_##a##_##r##_##s(void);                                   \
	extern volatile uint64_t sb_lab_##a##_##r##_##s##_hits;
#define LAB_DECL_AREA(a, r, s) extern char sb_lab_##a##_##r##_##s##_area[];
#define LAB_DECL(a, r)                                                      \
	LAB_DECL_SHAPE(a, r, perrun)                                        \
	LAB_DECL_SHAPE(a, r, inloop)                                        \
	extern volatile uint64_t sb_lab_##a##_##r##_inloop_batch_iters;
#define LAB_DECL_PRIV(a, r)                                                 \
	LAB_DECL(a, r)                                                      \
	LAB_DECL_AREA(a, r, perrun)                                         \
	LAB_DECL_AREA(a, r, inloop)
#define LAB_DECL_ENTRIES(a)                                                 \
	int sb_lab_##a##_calldepth_perrun_entry(void);                      \
	int sb_lab_##a##_calldepth_inloop_entry(void);

#define LAB_DECL_ALL(r)                                                     \
	LAB_DECL(baseline, r)                                               \
	LAB_DECL_PRIV(mainline, r)                                          \
	LAB_DECL_PRIV(reload, r)                                            \
	LAB_DECL_PRIV(callee, r)                                            \
	LAB_DECL_PRIV(spill, r)                                             \
	LAB_DECL(control, r)

LAB_DECL_ALL(ret)
LAB_DECL_ALL(rethunk)
LAB_DECL_ALL(calldepth)
LAB_DECL_ENTRIES(baseline)
LAB_DECL_ENTRIES(mainline)
LAB_DECL_ENTRIES(reload)
LAB_DECL_ENTRIES(callee)
LAB_DECL_ENTRIES(spill)
LAB_DECL_ENTRIES(control)

extern const int64_t sb_lab_call_depth_disp;

/* ---- what each alternative is ----------------------------------------- */

/* Instructions of the per-run main prog without its callees (ret flavour),
 * call sites included, counted from the hand listings in
 * tests/data/lab_*_perrun.lst. */
#define MAIN_INSNS_baseline 14
#define MAIN_INSNS_control MAIN_INSNS_baseline
#define MAIN_INSNS_mainline 22
#define MAIN_INSNS_reload 22
#define MAIN_INSNS_callee 18
#define MAIN_INSNS_spill 21
/* Instructions per call site beside the call (push/pop, reload, fill). */
#define CALL_INSNS_baseline 0
#define CALL_INSNS_control CALL_INSNS_baseline
#define CALL_INSNS_mainline 2
#define CALL_INSNS_reload 2
#define CALL_INSNS_callee 0
#define CALL_INSNS_spill 1
/* In-loop instructions outside the iterations (ret flavour): the baseline's
 * 16 (prologue 4, pushes 2, loop setup 5, exit 5) plus the setup. */
#define FIXED_INSNS_baseline 16
#define FIXED_INSNS_control FIXED_INSNS_baseline
#define FIXED_INSNS_mainline 18
#define FIXED_INSNS_reload 18
#define FIXED_INSNS_callee 20
#define FIXED_INSNS_spill 20
/* Code bytes added: prologue + epilogue, per call site. */
#define PRO_BYTES_baseline 0
#define PRO_BYTES_control PRO_BYTES_baseline
#define PRO_BYTES_mainline 19 /* movabs r9 (10) + add r9, gs: (9) */
#define PRO_BYTES_reload 19
#define PRO_BYTES_callee 23 /* push r12, movabs r12, add r12, gs:, pop r12 */
#define PRO_BYTES_spill 30 /* sub rsp, 8 (7) + setup (19) + mov [rbp-8], r9 (4) */
#define SITE_BYTES_baseline 0
#define SITE_BYTES_control SITE_BYTES_baseline
#define SITE_BYTES_mainline 4 /* push r9 + pop r9 */
#define SITE_BYTES_reload 19
#define SITE_BYTES_callee 0
#define SITE_BYTES_spill 4 /* mov r9, [rbp-8] */

/* Per return flavour: sub-prog instructions, extra instructions of the
 * caller's own return, per call site, per run (call-depth entry). */
#define SUB_INSNS_ret 7
#define SUB_INSNS_rethunk 8
#define SUB_INSNS_calldepth 10
#define RET_INSNS_ret 0
#define RET_INSNS_rethunk 1
#define RET_INSNS_calldepth 3
#define SITE_INSNS_ret 0
#define SITE_INSNS_rethunk 0
#define SITE_INSNS_calldepth 1
#define ENTRY_INSNS_ret 0
#define ENTRY_INSNS_rethunk 0
#define ENTRY_INSNS_calldepth 2
#define RET_BYTES_ret 0
#define RET_BYTES_rethunk 4 /* e9 rel32 instead of c3 */
#define RET_BYTES_calldepth 4
#define SITE_FL_BYTES_ret 0
#define SITE_FL_BYTES_rethunk 0
#define SITE_FL_BYTES_calldepth 10 /* sar qword gs:[__x86_call_depth], 5 */

#define PERRUN_INSNS(a, r)                                                   \
	(MAIN_INSNS_##a + 3 * (SITE_INSNS_##r + SUB_INSNS_##r) + RET_INSNS_##r + \
	 ENTRY_INSNS_##r)
/* One iteration: hits++ (4), three call sites, add/cmp/jb (3). */
#define INLOOP_INSNS(a, r)                                                   \
	(4 + 3 * (1 + CALL_INSNS_##a + SITE_INSNS_##r + SUB_INSNS_##r) + 3)
#define INLOOP_FIXED(a, r) (FIXED_INSNS_##a + RET_INSNS_##r + ENTRY_INSNS_##r)

#define DESC_baseline "no private stack (rbp frame)"
#define DESC_control "placement control: the baseline's bytes at other code and data addresses"
#define DESC_mainline "mainline: r9 set up once, push r9/pop r9 around every call"
#define DESC_reload "reload: movabs r9 + add r9, gs:[this_cpu_off] again after every call, no push/pop"
#define DESC_callee "callee-saved: frame pointer in r12 (push r12/pop r12 once), bare calls"
#define DESC_spill "spill once: mov [rbp-8], r9 once (sub rsp, 8), mov r9, [rbp-8] after every call"
#define SIZE_baseline "code: +0 B/prologue, +0 B/call site"
#define SIZE_control SIZE_baseline
#define SIZE_mainline "code: +19 B/prologue, +4 B/call site"
#define SIZE_reload "code: +19 B/prologue, +19 B/call site"
#define SIZE_callee "code: +23 B/prologue+epilogue, +0 B/call site (+1 B per r12-based stack access)"
#define SIZE_spill "code: +30 B/prologue (7 of them sub rsp, 8), +4 B/call site, 8 B of kernel stack"
#define FLSIZE_ret ""
#define FLSIZE_rethunk "; rethunk: +4 B/return"
#define FLSIZE_calldepth "; call depth: +4 B/return, +10 B/call site"

#define ALT_ENUM_baseline SB_LAB_BASELINE
#define ALT_ENUM_mainline SB_LAB_MAINLINE
#define ALT_ENUM_reload SB_LAB_RELOAD
#define ALT_ENUM_callee SB_LAB_CALLEE_SAVED
#define ALT_ENUM_spill SB_LAB_SPILL_ONCE
#define ALT_ENUM_control SB_LAB_PLACEMENT_CONTROL
#define RET_ENUM_ret SB_LAB_RET
#define RET_ENUM_rethunk SB_LAB_RETHUNK
#define RET_ENUM_calldepth SB_LAB_CALLDEPTH
#define FPREG_baseline 0
#define FPREG_control FPREG_baseline
#define FPREG_mainline 9
#define FPREG_reload 9
#define FPREG_callee 12
#define FPREG_spill 9
#define PRIV_baseline 0
#define PRIV_control PRIV_baseline
#define PRIV_mainline 1
#define PRIV_reload 1
#define PRIV_callee 1
#define PRIV_spill 1
/* The call-depth flavour reads gs: too, so it needs the per-thread setup. */
#define NEEDS_GS(a, r) (PRIV_##a || RET_ENUM_##r == SB_LAB_CALLDEPTH)

#define NAME_baseline "baseline"
#define NAME_mainline "mainline"
#define NAME_reload "reload"
#define NAME_callee "callee-saved"
#define NAME_spill "spill-once"
#define NAME_control "placement-control"
#define RSUF_ret ""
#define RSUF_rethunk "-rethunk"
#define RSUF_calldepth "-calldepth"
#define FLAVOUR_ret "v6.18 no IBT (nop3 pad, gs:0xffffffff83b0c028), ret"
#define FLAVOUR_rethunk "v6.18 no IBT (nop3 pad, gs:0xffffffff83b0c028), jmp its_return_thunk"
#define FLAVOUR_calldepth                                                    \
	"v6.18 no IBT (nop3 pad, gs:0xffffffff83b0c028), call depth tracking + call_depth_return_thunk"
/* The hand listing of each alternative (the control has the baseline's). */
#define LSTALT_baseline "baseline"
#define LSTALT_mainline "mainline"
#define LSTALT_reload "reload"
#define LSTALT_callee "callee"
#define LSTALT_spill "spill"
#define LSTALT_control "baseline"
#define LISTING_ret(a, s) "codegen lab, hand listing tests/data/lab_" LSTALT_##a "_" #s ".lst"
#define LISTING_rethunk(a, s)                                                \
	"codegen lab: hand listing lab_" LSTALT_##a "_" #s ".lst with emit_return()'s jmp x86_return_thunk"
#define LISTING_calldepth(a, s)                                              \
	"codegen lab: hand listing lab_" LSTALT_##a "_" #s ".lst with x86_call_depth_emit_accounting() and jmp to " \
	"call_depth_return_thunk"

/* v->main: the program, or in the call-depth flavour its accounting entry. */
#define MAIN_ret(a, s) sb_lab_##a##_ret_##s
#define MAIN_rethunk(a, s) sb_lab_##a##_rethunk_##s
#define MAIN_calldepth(a, s) sb_lab_##a##_calldepth_##s##_entry

#define LAB_VARIANT_PERRUN(a, r)                                             \
	{                                                                    \
		.name = "lab-" NAME_##a RSUF_##r "-perrun",                   \
		.seed_name = NAME_##a RSUF_##r,                              \
		.description = DESC_##a "; per-run; " SIZE_##a FLSIZE_##r,   \
		.listing = LISTING_##r(a, perrun),                           \
		.flavour = FLAVOUR_##r,                                      \
		.shape = "per-run",                                          \
		.main = MAIN_##r(a, perrun),                                 \
		.counter = &sb_lab_##a##_##r##_perrun_hits,                  \
		.batch_iters = NULL,                                         \
		.insns_per_call = PERRUN_INSNS(a, r),                        \
		.uses_private_stack = NEEDS_GS(a, r),                        \
	}
#define LAB_VARIANT_INLOOP(a, r)                                             \
	{                                                                    \
		.name = "lab-" NAME_##a RSUF_##r "-inloop",                   \
		.seed_name = NAME_##a RSUF_##r "-inloop",                    \
		.description = DESC_##a "; in-loop; " SIZE_##a FLSIZE_##r,   \
		.listing = LISTING_##r(a, inloop),                           \
		.flavour = FLAVOUR_##r,                                      \
		.shape = "in-loop",                                          \
		.main = MAIN_##r(a, inloop),                                 \
		.counter = &sb_lab_##a##_##r##_inloop_hits,                  \
		.batch_iters = &sb_lab_##a##_##r##_inloop_batch_iters,       \
		.insns_per_call = INLOOP_INSNS(a, r),                        \
		.uses_private_stack = NEEDS_GS(a, r),                        \
	}

#define AREA_baseline(a, r, s) NULL
#define AREA_PRIV(a, r, s) sb_lab_##a##_##r##_##s##_area
#define AREA_mainline AREA_PRIV
#define AREA_reload AREA_PRIV
#define AREA_callee AREA_PRIV
#define AREA_spill AREA_PRIV
#define AREA_control AREA_baseline

#define LAB_INFO(a, r, s, loop, fixed)                                       \
	{                                                                    \
		.alt = ALT_ENUM_##a,                                         \
		.ret = RET_ENUM_##r,                                         \
		.in_loop = loop,                                             \
		.prologue_bytes = PRO_BYTES_##a,                             \
		.call_site_bytes = SITE_BYTES_##a,                           \
		.flavour_return_bytes = RET_BYTES_##r,                       \
		.flavour_call_bytes = SITE_FL_BYTES_##r,                     \
		.insns_fixed = fixed,                                        \
		.program = sb_lab_##a##_##r##_##s,                           \
		.area = AREA_##a(a, r, s),                                   \
		.fp_reg = FPREG_##a,                                         \
	}

#define LAB_FLAVOUR_VARIANTS(r)                                              \
	LAB_VARIANT_PERRUN(baseline, r), LAB_VARIANT_INLOOP(baseline, r),    \
	LAB_VARIANT_PERRUN(mainline, r), LAB_VARIANT_INLOOP(mainline, r),    \
	LAB_VARIANT_PERRUN(reload, r), LAB_VARIANT_INLOOP(reload, r),        \
	LAB_VARIANT_PERRUN(callee, r), LAB_VARIANT_INLOOP(callee, r),        \
	LAB_VARIANT_PERRUN(spill, r), LAB_VARIANT_INLOOP(spill, r),          \
	LAB_VARIANT_PERRUN(control, r), LAB_VARIANT_INLOOP(control, r)
#define LAB_INFO_PAIR(a, r)                                                  \
	LAB_INFO(a, r, perrun, 0, 0), LAB_INFO(a, r, inloop, 1, INLOOP_FIXED(a, r))
#define LAB_FLAVOUR_INFOS(r)                                                 \
	LAB_INFO_PAIR(baseline, r), LAB_INFO_PAIR(mainline, r), LAB_INFO_PAIR(reload, r), \
	LAB_INFO_PAIR(callee, r), LAB_INFO_PAIR(spill, r), LAB_INFO_PAIR(control, r)

static const struct sb_variant variants[] = {
	LAB_FLAVOUR_VARIANTS(ret),
	LAB_FLAVOUR_VARIANTS(rethunk),
	LAB_FLAVOUR_VARIANTS(calldepth),
};

#define N_LAB (sizeof(variants) / sizeof(variants[0]))

/* Same order as variants[]; .variant is filled in by sb_lab_at(). */
static struct sb_lab_info infos[] = {
	LAB_FLAVOUR_INFOS(ret),
	LAB_FLAVOUR_INFOS(rethunk),
	LAB_FLAVOUR_INFOS(calldepth),
};

_Static_assert(sizeof(infos) / sizeof(infos[0]) == N_LAB, "one lab info per lab variant");

const struct sb_variant_table sb_lab_variants = {
	.family = "lab",
	.variants = variants,
	.n = N_LAB,
};

size_t sb_lab_count(void)
{
	return N_LAB;
}

const struct sb_lab_info *sb_lab_at(size_t i)
{
	if (i >= N_LAB)
		return NULL;
	infos[i].variant = &variants[i];
	return &infos[i];
}

const struct sb_lab_info *sb_lab_info_of(const struct sb_variant *v)
{
	if (v < variants || v >= variants + N_LAB)
		return NULL;
	return sb_lab_at((size_t)(v - variants));
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
	};
	return (unsigned)ret < SB_LAB_N_RETURNS ? names[ret] : "?";
}

uint64_t sb_lab_call_depth(void)
{
	return sb_percpu_read_gs_slot((int32_t)sb_lab_call_depth_disp);
}

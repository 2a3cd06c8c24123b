/* test_return_thunks.c: the return thunk replicas (asm/return_thunks.asm;
 * their golden bytes are checked by test_golden from their records): the
 * kernel's alignments and the SRSO alias
 * address relationship, where each rel32 goes, and behaviour: reached the
 * way JITed returns reach them, every thunk (and every untraining
 * sequence, called as the kernel calls it) returns to the caller with rsp
 * balanced and callee-saved registers kept. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "variants/percpu.h"
#include "jit/return_thunks.h"
#include "stubbench/registry.h"

unsigned sb_test_return_via(const void *code);
extern const int64_t sb_lab_call_depth_disp;

/* A symbol's address, kept from the compiler's assumptions about where
 * functions start. */
static uintptr_t at(const void *f)
{
	volatile uintptr_t a = (uintptr_t)f;
	return a;
}

/* The rel32 (or rel8) branch at addr+off goes to want. */
static void branch_to(const char *what, const void *addr, size_t off, const void *want)
{
	const uint8_t *p = (const uint8_t *)addr + off;
	uintptr_t next, target;
	if (p[0] == 0xeb) {
		next = (uintptr_t)p + 2;
		target = next + (intptr_t)(int8_t)p[1];
	} else {
		int32_t rel;
		memcpy(&rel, p + 1, 4);
		next = (uintptr_t)p + 5;
		target = next + (intptr_t)rel;
	}
	CHECK(target == (uintptr_t)want, "%s: branch at +%#zx goes to %#lx, not %p", what, off,
	      (unsigned long)target, want);
}

int main(int argc, char **argv)
{
	(void)argc, (void)argv;

	/* Where each sits in its cache line, where its branches go (the golden
	 * bytes: test_golden, from the thunks' records). */
	CHECK(((uintptr_t)sb_its_return_thunk & 63) == 32, "its_return_thunk at %p: not at +32 of a cache line",
	      (void *)sb_its_return_thunk);
	CHECK(at(sb_srso_safe_ret) == at(sb_srso_untrain_ret) + 2, "srso_safe_ret not inside the movabs");
	CHECK(((uintptr_t)sb_srso_safe_ret & 63) == 0, "srso_safe_ret at %p: not at a cache line start",
	      (void *)sb_srso_safe_ret);
	branch_to("srso_untrain_ret", sb_srso_untrain_ret, 0xd, sb_srso_safe_ret);
	branch_to("srso_return_thunk", sb_srso_return_thunk, 0, sb_srso_safe_ret);
	CHECK(at(sb_retbleed_return_thunk) == at(sb_retbleed_untrain_ret) + 1,
	      "retbleed_return_thunk not inside the TEST");
	CHECK(((uintptr_t)sb_retbleed_return_thunk & 63) == 0, "retbleed_return_thunk at %p: not at a cache line start",
	      (void *)sb_retbleed_return_thunk);
	branch_to("retbleed_untrain_ret", sb_retbleed_untrain_ret, 6, sb_retbleed_return_thunk);
	branch_to("srso_alias_untrain_ret", sb_srso_alias_untrain_ret, 5, sb_srso_alias_return_thunk);
	branch_to("srso_alias_return_thunk", sb_srso_alias_return_thunk, 0, sb_srso_alias_safe_ret);
	CHECK(((uintptr_t)sb_call_depth_return_thunk & 63) == 0, "call_depth_return_thunk not 64-byte aligned");

	/* The SRSO alias copies at the kernel's addresses. */
	char err[256] = "";
	const struct sb_srso_alias_placed *a = sb_srso_alias_place(err, sizeof(err));
	CHECK(a != NULL, "sb_srso_alias_place: %s", err);
	if (a) {
		CHECK((a->untrain_ret & ((2u << 20) - 1)) == 0, "untrain_ret %#lx not 2 MiB aligned",
		      (unsigned long)a->untrain_ret);
		CHECK(a->safe_ret == (a->untrain_ret | 0x104104), "safe_ret %#lx != untrain_ret | 0x104104",
		      (unsigned long)a->safe_ret);
		CHECK(a->return_thunk == a->safe_ret + 7, "return_thunk does not follow safe_ret");
		CHECK(memcmp((void *)a->safe_ret, (const void *)sb_srso_alias_safe_ret, 7) == 0, "safe_ret bytes");
		CHECK(memcmp((void *)a->untrain_ret, (const void *)sb_srso_alias_untrain_ret, 6) == 0,
		      "untrain_ret bytes");
		branch_to("placed srso_alias_untrain_ret", (void *)a->untrain_ret, 5, (void *)a->return_thunk);
		branch_to("placed srso_alias_return_thunk", (void *)a->return_thunk, 0, (void *)a->safe_ret);
		CHECK(sb_thunk_entry(SB_THUNK_SRSO_ALIAS, err, sizeof(err)) == (void *)a->return_thunk,
		      "sb_thunk_entry(srso_alias) is not the placed copy");
	}
	CHECK(sb_thunk_entry(SB_THUNK_RET, err, sizeof(err)) == NULL, "plain ret has no thunk");
	err[0] = '\0';
	CHECK(sb_thunk_entry(SB_THUNK_UNKNOWN, err, sizeof(err)) == NULL && strstr(err, "unknown"),
	      "an unknown thunk must be refused with a reason, got '%s'", err);

	/* Behaviour: returns through each thunk, and the untraining sequences
	 * called as functions (entry_untrain_ret does). */
	if (sb_percpu_thread_init(err, sizeof(err)) != 0) {
		CHECK(0, "sb_percpu_thread_init: %s", err);
		return check_report("test_return_thunks");
	}
	struct {
		const char *name;
		const void *code;
	} via[] = {
		{"its_return_thunk", sb_its_return_thunk},
		{"srso_return_thunk", sb_srso_return_thunk},
		{"srso_untrain_ret", sb_srso_untrain_ret},
		{"srso_alias_return_thunk", sb_srso_alias_return_thunk},
		{"srso_alias_untrain_ret", sb_srso_alias_untrain_ret},
		{"placed srso_alias_return_thunk", a ? (void *)a->return_thunk : NULL},
		{"placed srso_alias_untrain_ret", a ? (void *)a->untrain_ret : NULL},
		{"retbleed_return_thunk", sb_retbleed_return_thunk},
		{"retbleed_untrain_ret", sb_retbleed_untrain_ret},
		{"call_depth_return_thunk", sb_call_depth_return_thunk},
	};
	for (size_t i = 0; i < sizeof(via) / sizeof(via[0]); i++) {
		if (!via[i].code)
			continue;
		unsigned bad = 0;
		for (int k = 0; k < 40; k++) /* 40 > 64/5 shifts: the call depth RSB stuffing runs */
			bad |= sb_test_return_via(via[i].code);
		CHECK(bad == 0, "%s: rsp or callee-saved registers broken (bits %#x)", via[i].name, bad);
	}
	/* The call depth thunk's stuffing path ran: the depth was credited
	 * (-1) and shifted left by 5 a few times since. */
	uint64_t depth = sb_percpu_read_gs_slot((int32_t)sb_lab_call_depth_disp);
	int credited = 0;
	for (int s = 0; s < 64 && !credited; s += 5)
		credited = depth == (~0ull << s);
	CHECK(credited, "call depth %#llx: the RSB stuffing path never ran", (unsigned long long)depth);

	/* The host's thunk applied to the twins in place: every return of
	 * every twin function re-aimed, the twins still run and count, and
	 * the lab's ITS flavour is left alone. */
	static const char *const twins[] = {"twin"};
	const enum sb_thunk order[] = {SB_THUNK_SRSO, SB_THUNK_SRSO_ALIAS, SB_THUNK_RETBLEED, SB_THUNK_CALL_DEPTH,
				       SB_THUNK_RET};
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		int n = sb_thunk_apply(order[k], twins, 1, err, sizeof(err));
		CHECK(n >= 15, "apply %s: %d returns re-aimed, want one per twin function (%s)", sb_thunk_name(order[k]), n, err);
		CHECK(sb_thunk_applied() == order[k], "applied thunk is %s", sb_thunk_name(sb_thunk_applied()));
		const void *want = order[k] == SB_THUNK_RET ? NULL : sb_thunk_entry(order[k], err, sizeof(err));
		for (size_t i = 0; i < sb_variant_count(); i++) {
			const struct sb_variant *v = sb_variant_at(i);
			if (strcmp(v->family, "twin") != 0)
				continue;
			/* The program's last instruction: its return. */
			const uint8_t *end = (const uint8_t *)v->program + v->code_bytes - 5;
			if (want) {
				branch_to(v->name, end, 0, want);
			} else {
				CHECK(end[0] == 0xc3 && end[1] == 0xcc && end[4] == 0xcc, "%s: no ret; int3 at its end",
				      v->name);
			}
			uint64_t before = *v->counter;
			if (v->batch_iters)
				*v->batch_iters = 3;
			for (int r = 0; r < (v->batch_iters ? 1 : 3); r++)
				v->main();
			CHECK(*v->counter - before == 3, "%s under %s: counter +%llu, want 3", v->name,
			      sb_thunk_name(order[k]), (unsigned long long)(*v->counter - before));
		}
	}
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		if (strcmp(v->family, "lab") != 0 || v->return_thunk != (const void *)sb_its_return_thunk)
			continue;
		const uint8_t *end = (const uint8_t *)v->program + v->code_bytes - 5;
		branch_to(v->name, end, 0, sb_its_return_thunk);
		break;
	}
	err[0] = '\0';
	CHECK(sb_thunk_apply(SB_THUNK_ITS, twins, 1, err, sizeof(err)) == -1 && strstr(err, "ret"),
	      "after ret, no thunk can be applied: '%s'", err);
	sb_percpu_thread_fini();
	return check_report("test_return_thunks");
}

/* code_check.c: refuses code a user's file brings before any of it runs
 * (code_check.h). Capstone decodes every instruction; what the x86-64 BPF
 * JIT never emits and what would leave the function other than through
 * the calls and returns a twin places is refused by name. */
#include "jit/code_check.h"
#include "base/error.h"

#include <capstone/capstone.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Instructions no JIT output holds: system calls, interrupts, traps,
 * halts, I/O, far and privileged control, model-specific registers. */
static int forbidden(unsigned id)
{
	switch (id) {
	case X86_INS_SYSCALL: case X86_INS_SYSENTER: case X86_INS_SYSEXIT: case X86_INS_SYSRET:
	case X86_INS_INT: case X86_INS_INT1: case X86_INS_INTO:
	case X86_INS_UD0: case X86_INS_UD2: case X86_INS_UD2B:
	case X86_INS_HLT: case X86_INS_IN: case X86_INS_INSB: case X86_INS_INSW: case X86_INS_INSD:
	case X86_INS_OUT: case X86_INS_OUTSB: case X86_INS_OUTSW: case X86_INS_OUTSD:
	case X86_INS_CLI: case X86_INS_STI: case X86_INS_IRET: case X86_INS_IRETD: case X86_INS_IRETQ:
	case X86_INS_LJMP: case X86_INS_LCALL: case X86_INS_RETF: case X86_INS_RETFQ:
	case X86_INS_RDMSR: case X86_INS_WRMSR: case X86_INS_SWAPGS: case X86_INS_INVLPG:
	case X86_INS_LGDT: case X86_INS_LIDT: case X86_INS_LLDT: case X86_INS_LTR: case X86_INS_LMSW:
	case X86_INS_CLTS: case X86_INS_WBINVD: case X86_INS_INVD: case X86_INS_VMCALL:
	case X86_INS_VMMCALL:
		return 1;
	default:
		return 0;
	}
}

static int is_group(const cs_insn *ci, uint8_t g)
{
	for (uint8_t i = 0; ci->detail && i < ci->detail->groups_count; i++)
		if (ci->detail->groups[i] == g)
			return 1;
	return 0;
}

/* The instruction's relative target, where it has one (an immediate
 * operand of a jump or call). */
static int rel_target(const cs_insn *ci, int64_t *target)
{
	const cs_x86 *x = &ci->detail->x86;
	if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
		*target = x->operands[0].imm;
		return 1;
	}
	return 0;
}

static int starts_at(const size_t *starts, size_t n, uint64_t off)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (starts[mid] == off)
			return 1;
		if (starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int sb_code_check(const uint8_t *code, size_t len, const char *what, char *err, size_t errlen)
{
	/* The test hook that lets a crafted listing past, so that the tests
	 * reach the contained child with it (docs/security-model.md). */
	const char *skip = getenv("STUBBENCH_TEST_SKIP_CODE_CHECK");
	if (skip && strcmp(skip, "1") == 0)
		return 0;
	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK) {
		sb_set_err(err, errlen, "%s: capstone cannot be opened", what);
		return -1;
	}
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_insn *insns = NULL;
	size_t n = cs_disasm(cs, code, len, 0, 0, &insns);
	size_t *starts = n ? malloc(n * sizeof(*starts)) : NULL;
	int rc = 0;
	size_t end = n ? insns[n - 1].address + insns[n - 1].size : 0;
	if (len && (!n || end != len)) {
		sb_set_err(err, errlen, "%s+%#zx: bytes that do not decode as x86-64", what, end);
		rc = -1;
	} else if (n && !starts) {
		sb_set_err(err, errlen, "%s: out of memory", what);
		rc = -1;
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		starts[i] = insns[i].address;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const cs_insn *ci = &insns[i];
		const char *why = NULL;
		int64_t t;
		if (ci->id == X86_INS_INT3) {
			if (!(i > 0 && (insns[i - 1].id == X86_INS_JMP || insns[i - 1].id == X86_INS_RET ||
					insns[i - 1].id == X86_INS_INT3)))
				why = "an int3 the JIT emits only after a jmp or ret";
		} else if (forbidden(ci->id) || is_group(ci, CS_GRP_INT) || is_group(ci, CS_GRP_IRET) ||
			   is_group(ci, CS_GRP_PRIVILEGE))
			why = "no JIT emits it";
		else if (is_group(ci, CS_GRP_CALL) && !rel_target(ci, &t))
			why = "an indirect call, which a twin cannot aim";
		else if (is_group(ci, CS_GRP_JUMP) && !rel_target(ci, &t))
			why = "an indirect jump, which a twin cannot aim";
		else if (is_group(ci, CS_GRP_JUMP) && rel_target(ci, &t)) {
			int inside = t >= 0 && (uint64_t)t < len;
			/* A rel32 jmp may leave (to the return thunk, a tail call's
			 * target): the twin aims it. Every other jump stays inside. */
			int may_leave = ci->id == X86_INS_JMP && ci->size == 5 && code[ci->address] == 0xe9;
			if (inside && !starts_at(starts, n, (uint64_t)t))
				why = "a jump into the middle of an instruction";
			else if (inside && (uint64_t)t == ci->address)
				why = "a jump to itself, which never ends";
			else if (!inside && !may_leave)
				why = "a jump out of the function that no twin aims";
		}
		if (why) {
			sb_set_err(err, errlen, "%s+%#llx: '%s %s': %s; refused before anything runs", what,
				   (unsigned long long)ci->address, ci->mnemonic, ci->op_str, why);
			rc = -1;
		}
	}
	free(starts);
	if (insns)
		cs_free(insns, n);
	cs_close(&cs);
	return rc;
}

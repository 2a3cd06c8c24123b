/* flavour.c: instruction classes of the x86-64 BPF JIT's output, the
 * fields that change from load to load, and the codegen flavour a JITed
 * function shows (arch/x86/net/bpf_jit_comp.c: emit_prologue,
 * emit_private_frame_ptr, emit_return). */
#include "jit/flavour.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int32_t rd32(const uint8_t *p)
{
	int32_t v;
	memcpy(&v, p, 4);
	return v;
}

static int is(const struct sb_insn *in, const uint8_t *b, size_t n)
{
	return in->len == n && memcmp(in->bytes, b, n) == 0;
}

int sb_jit_is_endbr64(const struct sb_insn *in)
{
	return is(in, (const uint8_t[]){0xf3, 0x0f, 0x1e, 0xfa}, 4);
}

int sb_jit_is_tail_call_pad(const struct sb_insn *in)
{
	return is(in, (const uint8_t[]){0x66, 0x90}, 2) || is(in, (const uint8_t[]){0x31, 0xc0}, 2) ||
	       is(in, (const uint8_t[]){0x0f, 0x1f, 0x00}, 3) ||
	       is(in, (const uint8_t[]){0x48, 0x31, 0xc0}, 3);
}

static int pad_kind(const struct sb_insn *in)
{
	return in->len; /* 2: pre-v6.12 forms, 3: v6.12+ forms */
}

int sb_jit_is_gs_add_r9(const struct sb_insn *in)
{
	static const uint8_t p[] = {0x65, 0x4c, 0x03, 0x0c, 0x25};
	return in->len == 9 && memcmp(in->bytes, p, sizeof(p)) == 0;
}

int sb_jit_is_r9_setup(const struct sb_insn *in)
{
	const uint8_t *b = in->bytes;
	return (in->len == 10 && b[0] == 0x49 && b[1] == 0xb9) ||     /* movabs r9, imm64 */
	       (in->len == 6 && b[0] == 0x41 && b[1] == 0xb9) ||      /* mov r9d, imm32 */
	       (in->len == 7 && b[0] == 0x49 && b[1] == 0xc7 && b[2] == 0xc1) || /* mov r9, simm32 */
	       (in->len == 3 && b[0] == 0x45 && b[1] == 0x31 && b[2] == 0xc9);   /* xor r9d, r9d */
}

void sb_jit_mask_insn(struct sb_insn *in)
{
	sb_insn_mask_addresses(in); /* movabs imm64, call/jmp rel32 */
	const uint8_t *b = in->bytes;
	if (sb_jit_is_gs_add_r9(in))
		memset(in->cmp + 5, 0, 4);
	if (in->len == 6 && b[0] == 0x41 && b[1] == 0xb9)
		memset(in->cmp + 2, 0, 4);
	if (in->len == 7 && b[0] == 0x49 && b[1] == 0xc7 && b[2] == 0xc1)
		memset(in->cmp + 3, 0, 4);
}

void sb_jit_mask_listing(struct sb_listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		sb_jit_mask_insn(&l->insns[i]);
}

void sb_jit_detect_flavour(const struct sb_listing *l, struct sb_jit_flavour *f)
{
	memset(f, 0, sizeof(*f));
	if (l->n == 0)
		return;
	f->ibt = sb_jit_is_endbr64(&l->insns[0]);
	/* The padding is the instruction after the fentry nop5. */
	for (size_t i = 0; i + 1 < l->n && i < 3; i++) {
		if (l->insns[i].len == 5 && l->insns[i].bytes[0] == 0x0f && l->insns[i].bytes[1] == 0x1f &&
		    sb_jit_is_tail_call_pad(&l->insns[i + 1])) {
			f->pad = pad_kind(&l->insns[i + 1]);
			break;
		}
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct sb_insn *in = &l->insns[i];
		/* The prologue's sub rsp, imm32: the first in the function. */
		if (!f->stack_bytes && in->len == 7 && in->bytes[0] == 0x48 && in->bytes[1] == 0x81 &&
		    in->bytes[2] == 0xec)
			f->stack_bytes = (int)rd32(in->bytes + 3);
		if (sb_jit_is_gs_add_r9(in)) {
			f->has_gs = 1;
			f->gs_disp = rd32(in->bytes + 5);
			/* Kernel text/data live in the top 2 GiB: a negative disp32. */
			f->gs_kernel_addr = f->gs_disp < 0;
			if (i > 0 && sb_jit_is_r9_setup(&l->insns[i - 1]))
				f->private_stack = 1;
		}
	}
	/* Return: the last instruction, ret (c3) or jmp rel32 to the thunk. */
	const struct sb_insn *last = &l->insns[l->n - 1];
	if (last->len == 5 && last->bytes[0] == 0xe9)
		f->rethunk = 1;
	else if (l->n >= 2 && last->len == 1 && last->bytes[0] == 0xcc) {
		/* int3 after a thunk jump (straight-line speculation) */
		const struct sb_insn *prev = &l->insns[l->n - 2];
		f->rethunk = prev->len == 5 && prev->bytes[0] == 0xe9;
	}
}

void sb_jit_flavour_describe(const struct sb_jit_flavour *f, char *buf, size_t len)
{
	char gs[64] = "no gs access";
	if (f->has_gs)
		snprintf(gs, sizeof(gs), "gs:%#" PRIx64 " (%s)",
			 f->gs_kernel_addr ? (uint64_t)f->gs_disp : (uint64_t)(uint32_t)f->gs_disp,
			 f->gs_kernel_addr ? "kernel address, v6.15+" : "small offset, before v6.15");
	snprintf(buf, len, "%s, %s padding, %s, %s%s", f->ibt ? "IBT (endbr64)" : "no IBT",
		 f->pad == 2 ? "66 90" : f->pad == 3 ? "0f 1f 00" : "unknown", gs,
		 f->rethunk ? "return thunk" : "ret",
		 f->private_stack ? ", private stack (r9 setup)" : "");
}

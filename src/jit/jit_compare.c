/* jit_compare.c: kernel JIT vs replica, instruction by instruction.
 * Masked fields (imm64, rel32, gs disp32) are ignored; differences a kernel
 * flavour explains are listed apart; the first other difference is a real
 * mismatch. */
#include "jit/jit_compare.h"
#include "jit/flavour.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void append(struct sb_jit_cmp *c, const char *fmt, ...)
{
	size_t used = strlen(c->flavour);
	if (used + 4 >= sizeof(c->flavour))
		return;
	if (used)
		used += (size_t)snprintf(c->flavour + used, sizeof(c->flavour) - used, "; ");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->flavour + used, sizeof(c->flavour) - used, fmt, ap);
	va_end(ap);
	c->n_flavour++;
}

static int same_masked(const struct sb_insn *a, const struct sb_insn *b)
{
	if (a->len != b->len)
		return 0;
	for (size_t i = 0; i < a->len; i++)
		if (a->cmp[i] && b->cmp[i] && a->bytes[i] != b->bytes[i])
			return 0;
	return 1;
}

static void hexbytes(const struct sb_insn *in, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < in->len && o + 4 < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%02x", i ? " " : "", in->bytes[i]);
}

static int is_ret(const struct sb_insn *in) { return in->len == 1 && in->bytes[0] == 0xc3; }
static int is_jmp32(const struct sb_insn *in) { return in->len == 5 && in->bytes[0] == 0xe9; }

void sb_jit_compare(const struct sb_listing *k, const struct sb_listing *r, struct sb_jit_cmp *c)
{
	memset(c, 0, sizeof(*c));
	c->kernel_idx = c->replica_idx = -1;
	size_t i = 0, j = 0;
	while (i < k->n || j < r->n) {
		const struct sb_insn *a = i < k->n ? &k->insns[i] : NULL;
		const struct sb_insn *b = j < r->n ? &r->insns[j] : NULL;
		if (a && sb_jit_is_endbr64(a) && !(b && sb_jit_is_endbr64(b))) {
			append(c, "endbr64 at kernel+0x%zx only (IBT)", a->off);
			i++;
			continue;
		}
		if (b && sb_jit_is_endbr64(b) && !(a && sb_jit_is_endbr64(a))) {
			append(c, "endbr64 at replica+0x%zx only (IBT)", b->off);
			j++;
			continue;
		}
		if (a && b) {
			if (sb_jit_is_tail_call_pad(a) && sb_jit_is_tail_call_pad(b) && a->len != b->len) {
				char ha[48], hb[48];
				hexbytes(a, ha, sizeof(ha));
				hexbytes(b, hb, sizeof(hb));
				append(c, "padding %s (kernel) vs %s (replica)", ha, hb);
				i++, j++;
				continue;
			}
			if (sb_jit_is_gs_add_r9(a) && sb_jit_is_gs_add_r9(b)) {
				if (memcmp(a->bytes + 5, b->bytes + 5, 4) != 0)
					append(c, "gs displacement %s vs %s", a->text, b->text);
				i++, j++;
				continue;
			}
			if ((is_ret(a) && is_jmp32(b)) || (is_jmp32(a) && is_ret(b))) {
				append(c, "%s (kernel) vs %s (replica): return thunk", a->text, b->text);
				i++, j++;
				/* A thunk jump may be followed by int3 (SLS). */
				if (i < k->n && k->insns[i].len == 1 && k->insns[i].bytes[0] == 0xcc && j >= r->n)
					i++;
				if (j < r->n && r->insns[j].len == 1 && r->insns[j].bytes[0] == 0xcc && i >= k->n)
					j++;
				continue;
			}
			if (same_masked(a, b)) {
				i++, j++;
				continue;
			}
		}
		/* A real mismatch. */
		c->mismatch = 1;
		c->kernel_idx = a ? (long)i : -1;
		c->replica_idx = b ? (long)j : -1;
		c->kernel_off = a ? a->off : k->size;
		c->replica_off = b ? b->off : r->size;
		char ha[48] = "", hb[48] = "";
		if (a)
			hexbytes(a, ha, sizeof(ha));
		if (b)
			hexbytes(b, hb, sizeof(hb));
		snprintf(c->where, sizeof(c->where),
			 "instruction %zu: kernel+0x%zx %s%s%s%s vs replica+0x%zx %s%s%s%s", a ? i : j,
			 c->kernel_off, a ? "[" : "(end of code)", ha, a ? "] " : "", a ? a->text : "",
			 c->replica_off, b ? "[" : "(end of code)", hb, b ? "] " : "", b ? b->text : "");
		return;
	}
}

/* insn_align.c: old -> new instruction rows from the common subsequence;
 * see insn_align.h. */
#include "twins/insn_align.h"
#include "base/error.h"
#include "code_align.h"

#include <stdlib.h>

static void put(struct sb_insn_map_row *rows, size_t *n, enum sb_insn_change k, long o, long w)
{
	rows[(*n)++] = (struct sb_insn_map_row){k, o, w};
}

/* The same mnemonic with operands of the same kinds: "mov [rbp-8], rdi"
 * and "mov [r9-0x40], rdi", not "movabs r9, imm64" (a mov of register,
 * immediate). */
static int same_mnemonic(const struct sb_code_insn *a, const struct sb_code_insn *b)
{
	if (a->dec.mnemonic != b->dec.mnemonic || a->dec.operand_count_visible != b->dec.operand_count_visible)
		return 0;
	for (size_t k = 0; k < a->dec.operand_count_visible; k++)
		if (a->ops[k].type != b->ops[k].type)
			return 0;
	return 1;
}

/* The gap old[o0, o1) x new[w0, w1) between two common instructions:
 * changed pairs (same mnemonic, in order), removed and added around them. */
static void gap(const struct sb_code *old, const struct sb_code *nw, size_t o0, size_t o1, size_t w0, size_t w1,
		struct sb_insn_map_row *rows, size_t *n)
{
	size_t o = o0, w = w0;
	while (o < o1 || w < w1) {
		if (o < o1 && w < w1 && same_mnemonic(&old->insns[o], &nw->insns[w])) {
			put(rows, n, SB_INSN_CHANGED, (long)o++, (long)w++);
			continue;
		}
		/* An old instruction with a partner further on waits for it. */
		int partner = 0;
		for (size_t k = w; o < o1 && k < w1 && !partner; k++)
			partner = same_mnemonic(&old->insns[o], &nw->insns[k]);
		if (o < o1 && !partner)
			put(rows, n, SB_INSN_REMOVED, (long)o++, -1);
		else
			put(rows, n, SB_INSN_ADDED, -1, (long)w++);
	}
}

int sb_insn_align(const uint8_t *old_code, size_t old_len, const uint8_t *new_code, size_t new_len,
		  struct sb_insn_map_row **rows, size_t *n_rows, char *err, size_t errlen)
{
	struct sb_code old, nw;
	char sub[200];
	if (sb_code_decode(old_code, old_len, &old, sub, sizeof(sub))) {
		sb_set_err(err, errlen, "old: %s", sub);
		return -1;
	}
	if (sb_code_decode(new_code, new_len, &nw, sub, sizeof(sub))) {
		sb_code_free(&old);
		sb_set_err(err, errlen, "new: %s", sub);
		return -1;
	}
	long *match = malloc((old.n + 1) * sizeof(*match));
	struct sb_insn_map_row *r = malloc((old.n + nw.n + 1) * sizeof(*r));
	long common = match && r ? sb_code_align(&old, &nw, match) : -1;
	if (common < 0) {
		if (common == -2)
			sb_set_err(err, errlen, "%zu and %zu instructions differ past their common start and end: "
				   "too many to align (at most %.0f pairs)", old.n, nw.n, SB_CODE_ALIGN_MAX_CELLS);
		else
			sb_set_err(err, errlen, "out of memory");
		free(match);
		free(r);
		sb_code_free(&old);
		sb_code_free(&nw);
		return -1;
	}
	size_t n = 0, gi = 0, gj = 0;
	for (size_t i = 0; i < old.n; i++) {
		if (match[i] < 0)
			continue;
		gap(&old, &nw, gi, i, gj, (size_t)match[i], r, &n);
		put(r, &n, SB_INSN_SAME, (long)i, match[i]);
		gi = i + 1, gj = (size_t)match[i] + 1;
	}
	gap(&old, &nw, gi, old.n, gj, nw.n, r, &n);
	free(match);
	sb_code_free(&old);
	sb_code_free(&nw);
	*rows = r;
	*n_rows = n;
	return 0;
}

/* insn_align.c: old -> new instruction rows by a longest common
 * subsequence; see insn_align.h. */
#include "stubbench/insn_align.h"
#include "stubbench/error.h"

#include <stdlib.h>
#include <string.h>

#define MAX_INSNS 4096

int sb_insn_same(const struct sb_insn *a, const struct sb_insn *b)
{
	if (a->len != b->len)
		return 0;
	for (size_t k = 0; k < a->len; k++)
		if (a->cmp[k] && b->cmp[k] && a->bytes[k] != b->bytes[k])
			return 0;
	return 1;
}

/* The mnemonic: the listing text's first word. */
static size_t mnemonic_len(const struct sb_insn *in)
{
	return strcspn(in->text, " \t");
}

static int same_mnemonic(const struct sb_insn *a, const struct sb_insn *b)
{
	size_t n = mnemonic_len(a);
	return n && n == mnemonic_len(b) && strncmp(a->text, b->text, n) == 0;
}

static void put(struct sb_insn_map_row *rows, size_t *n, enum sb_insn_change k, long o, long w)
{
	rows[(*n)++] = (struct sb_insn_map_row){k, o, w};
}

/* The gap old[o0, o1) x new[w0, w1) between two common instructions:
 * changed pairs (same mnemonic, in order), removed and added around them. */
static void gap(const struct sb_listing *old, const struct sb_listing *nw, size_t o0, size_t o1, size_t w0,
		size_t w1, struct sb_insn_map_row *rows, size_t *n)
{
	size_t o = o0, w = w0;
	while (o < o1 || w < w1) {
		if (o < o1 && w < w1 && same_mnemonic(&old->insns[o], &nw->insns[w])) {
			put(rows, n, SB_INSN_CHANGED, (long)o++, (long)w++);
			continue;
		}
		/* The next old instruction with a partner further on stays for it. */
		int partner = 0;
		for (size_t k = w; o < o1 && k < w1 && !partner; k++)
			partner = same_mnemonic(&old->insns[o], &nw->insns[k]);
		if (o < o1 && !partner)
			put(rows, n, SB_INSN_REMOVED, (long)o++, -1);
		else
			put(rows, n, SB_INSN_ADDED, -1, (long)w++);
	}
}

int sb_insn_align(const struct sb_listing *old, const struct sb_listing *nw, struct sb_insn_map_row **rows,
		  size_t *n_rows, char *err, size_t errlen)
{
	size_t a = old->n, b = nw->n;
	if (a > MAX_INSNS || b > MAX_INSNS) {
		sb_set_err(err, errlen, "more than %d instructions in a function", MAX_INSNS);
		return -1;
	}
	/* len[i][j]: the LCS of old[i..] and new[j..]. */
	unsigned short *len = calloc((a + 1) * (b + 1), sizeof(*len));
	struct sb_insn_map_row *r = malloc((a + b + 1) * sizeof(*r));
	if (!len || !r) {
		free(len);
		free(r);
		sb_set_err(err, errlen, "out of memory");
		return -1;
	}
#define L(i, j) len[(i) * (b + 1) + (j)]
	for (size_t i = a; i-- > 0;)
		for (size_t j = b; j-- > 0;)
			L(i, j) = sb_insn_same(&old->insns[i], &nw->insns[j]) ? L(i + 1, j + 1) + 1
			          : L(i + 1, j) > L(i, j + 1) ? L(i + 1, j) : L(i, j + 1);
	size_t n = 0, i = 0, j = 0, gi = 0, gj = 0;
	while (i < a && j < b) {
		if (sb_insn_same(&old->insns[i], &nw->insns[j]) && L(i, j) == L(i + 1, j + 1) + 1) {
			gap(old, nw, gi, i, gj, j, r, &n);
			put(r, &n, SB_INSN_SAME, (long)i++, (long)j++);
			gi = i, gj = j;
		} else if (L(i + 1, j) >= L(i, j + 1))
			i++;
		else
			j++;
	}
#undef L
	gap(old, nw, gi, a, gj, b, r, &n);
	free(len);
	*rows = r;
	*n_rows = n;
	return 0;
}

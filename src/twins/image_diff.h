/* image_diff.h: two JIT images of one program (OLD and NEW, e.g. before and
 * after a JIT patch), their functions paired and each pair's instructions
 * mapped old -> new: what `stubbench diff` measures and annotates
 * (docs/diff.md).
 *
 *   - A side is one file or several joined by commas ("main.lst,sub.lst"):
 *     the functions of every file in order, the first the main prog.
 *   - Functions are paired by name; those left (a listing names its
 *     function after its file) by order, when as many are left on each side.
 *   - Instructions are mapped by a longest common subsequence of the two
 *     functions' instructions, address fields masked (movabs imm64, rel32,
 *     the gs displacement): a common one is "same"; between two common ones,
 *     an old and a new instruction of the same mnemonic and operand kinds
 *     are "changed"
 *     (paired in order), the rest "removed" (old only) or "added" (new
 *     only). */
#ifndef STUBBENCH_IMAGE_DIFF_H
#define STUBBENCH_IMAGE_DIFF_H

#include <stddef.h>

#include "jit/code_variant.h"
#include "jit/decode.h"
#include "twins/insn_align.h"

/* One pair of functions and their map. */
struct sb_func_diff {
	size_t old_fn, new_fn;   /* indexes in the images */
	int by_name;             /* 1: paired by name, 0: by order */
	struct sb_listing old_l, new_l;
	struct sb_insn_map_row *rows;
	size_t n_rows;
	size_t n[4];             /* rows of each sb_insn_change */
};

struct sb_image_diff {
	struct sb_func_diff f[SB_CODE_VARIANT_MAX_FUNCS];
	size_t n;
	size_t old_unpaired, new_unpaired; /* functions of one side only */
};

/* Reads a side: FILE[,FILE...] (image_text.h reads each). The program's
 * name is the first file's. Returns 0, or -1 with one line naming the file
 * in err. */
int sb_jit_image_read_files(const char *list, struct sb_jit_image *img, char *err, size_t errlen);

/* Gives the functions of an image read without kernel addresses (the
 * seeds' listings, bpftool text) addresses at which their calls land as
 * the listing says: the main prog at a made-up kernel address, and every
 * other function where the main prog's calls go, the i-th distinct call
 * target being the i-th other function; a single function gets the
 * made-up address, its calls going to helpers. Functions that have their
 * addresses (--dump-jit's .lst) keep them. how: one line saying what was done (empty when nothing).
 * Returns 0, or -1 with err when the calls go to more or fewer targets
 * than there are other functions (which call is which function cannot be
 * told). */
int sb_jit_image_place_calls(struct sb_jit_image *img, char *how, size_t howlen, char *err, size_t errlen);

/* The pairs and maps of old against new. Returns 0, or -1 with err: a
 * function that does not decode, no function in common (names differ and
 * the counts too), or more than SB_CODE_VARIANT_MAX_FUNCS. */
int sb_image_diff_make(const struct sb_jit_image *old, const struct sb_jit_image *new_img, struct sb_image_diff *d,
		       char *err, size_t errlen);
/* 1 when nothing changed: every function paired, every row SB_INSN_SAME. */
int sb_image_diff_identical(const struct sb_image_diff *d);
/* Rows of kind over all pairs. */
size_t sb_image_diff_count(const struct sb_image_diff *d, enum sb_insn_change kind);
void sb_image_diff_free(struct sb_image_diff *d);

/* "same", "changed", "added", "removed". */
const char *sb_insn_change_name(enum sb_insn_change k);

#endif

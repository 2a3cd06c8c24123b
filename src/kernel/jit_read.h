/* jit_read.h: the JITed image of a loaded program (bpf_obj_get_info_by_fd:
 * jited_prog_insns split by jited_func_lens). */
#ifndef STUBBENCH_JIT_READ_H
#define STUBBENCH_JIT_READ_H

#include <stddef.h>

#include "jit/decode.h"

/* Reads the JITed image of a loaded program. Returns 0, or -1 with a
 * one-line reason (no JIT, bytes zeroed without permission, ...) in err. */
int sb_jit_read(int prog_fd, struct sb_jit_image *out, char *err, size_t errlen);
/* Where code (len bytes) sets up its private frame: the offset of
 * `movabs r9, imm64` followed by `add r9, gs:[disp32]`, its imm64 in
 * *imm; -1: none. The frame pointer is imm64 + this_cpu_off, a multiple of
 * the page, so its page offset is imm64's. */
long sb_jit_r9_setup(const uint8_t *code, size_t len, uint64_t *imm);
/* sb_jit_image_free() and sb_jit_find(): decode.h. */

#endif

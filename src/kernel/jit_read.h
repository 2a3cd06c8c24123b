/* jit_read.h: the JITed image of a loaded program (bpf_obj_get_info_by_fd:
 * jited_prog_insns split by jited_func_lens). */
#ifndef STUBBENCH_JIT_READ_H
#define STUBBENCH_JIT_READ_H

#include <stddef.h>

#include "jit/decode.h"

/* Reads the JITed image of a loaded program. Returns 0, or -1 with a
 * one-line reason (no JIT, bytes zeroed without permission, ...) in err. */
int sb_jit_read(int prog_fd, struct sb_jit_image *out, char *err, size_t errlen);
/* sb_jit_image_free() and sb_jit_find(): decode.h. */

#endif

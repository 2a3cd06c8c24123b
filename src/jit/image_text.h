/* image_text.h: a JIT image read back from a file, in any of the forms it is
 * kept in, as one struct sb_jit_image (decode.h):
 *   - raw bytes: --dump-jit's PROG.FUNC.bin (one function);
 *   - a listing: --dump-jit's .lst, or an objdump-style listing like the
 *     seeds' ("13: 49 b9 70 ...   movabs r9,..."; listing.h parses it), one
 *     function, named by a "# NAME: function I of BPF program PROG, N bytes,
 *     JITed at 0xADDR" header when there is one; or several, each under a
 *     "title:" line as in the seeds' mails ("subprog:", "main prog:");
 *   - `bpftool prog dump jited PROG opcodes` text: "   0:\tnopl ..." lines
 *     each followed by a tab-indented line of its bytes, a "NAME:" line
 *     before each function (bpf_prog_<tag>_<func>, or 0x<ksym>), "; source"
 *     lines and blank lines between.
 * Functions take their name from the file when it says none. */
#ifndef STUBBENCH_IMAGE_TEXT_H
#define STUBBENCH_IMAGE_TEXT_H

#include <stddef.h>

#include "jit/decode.h"

/* Reads path: raw bytes when it ends in ".bin" or holds a byte that is not
 * text, else a listing or bpftool text. Returns 0, or -1 with one line
 * naming the file (and the line) in err. */
int sb_jit_image_read_file(const char *path, struct sb_jit_image *img, char *err, size_t errlen);

/* Parses text (a listing or bpftool output); name is the file's, for
 * messages and the default function name. */
int sb_jit_image_parse_text(const char *text, const char *name, struct sb_jit_image *img,
			    char *err, size_t errlen);

/* 1 when text looks like bpftool's opcodes output (an "OFF:" line followed
 * by a tab-indented line of bytes). */
int sb_jit_text_is_bpftool(const char *text);

#endif

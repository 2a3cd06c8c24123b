/* auto_twin_source.h: what an auto-twin (auto_twin.h) is made from, read
 * from a loaded program: its JITed functions (jit_read.h), its maps
 * (bpf_map_info, and the values of array maps, read with
 * bpf_map_lookup_elem), and which "movabs" immediate of the JIT is which
 * map: the program's xlated code names every ld_imm64 of a map (its id and
 * offset), and the JIT emits one movabs per such ld_imm64, in order. */
#ifndef STUBBENCH_AUTO_TWIN_SOURCE_H
#define STUBBENCH_AUTO_TWIN_SOURCE_H

#include <stddef.h>

#include "twins/auto_twin.h"
#include "jit/decode.h"

struct sb_auto_twin_source {
	struct sb_jit_image img;
	struct sb_auto_twin_map maps[SB_AUTO_TWIN_MAX_MAPS];
	uint8_t *contents[SB_AUTO_TWIN_MAX_MAPS];
	size_t n_maps;
	struct sb_auto_twin_ref refs[SB_AUTO_TWIN_MAX_REFS];
	size_t n_refs;
	char note[200];     /* why some immediates name no map, or "" */
};

/* Reads prog_fd's JIT, maps and map immediates. Returns 0, or -1 with one
 * line in err (the JIT unreadable, xlated code withheld). */
int sb_auto_twin_source_read(int prog_fd, struct sb_auto_twin_source *out, char *err, size_t errlen);
void sb_auto_twin_source_free(struct sb_auto_twin_source *s);

/* The slot of the global variable name (in a .rodata/.data/.bss map, by
 * its BTF), its size in *size; map -1 when there is none. */
struct sb_auto_twin_slot sb_auto_twin_source_global(const struct sb_auto_twin_source *s, const char *name,
						     unsigned *size);

/* One line per global variable of s whose map's values an immediate of
 * the JIT points into: "# global NAME at 0xKADDR, SIZE bytes (map MAP)\n"
 * (--dump-jit's .lst headers, read back by diff_globals.c). */
void sb_auto_twin_source_globals(const struct sb_auto_twin_source *s, char *buf, size_t len);

#endif

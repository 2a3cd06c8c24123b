/* auto_twin.h: a runnable user-space twin made from a kernel JIT image (the
 * JITed functions' bytes and kernel addresses, the maps the program's
 * immediates point into), run by the harness like a hand-made twin.
 *
 * The bytes are the kernel's, instruction for instruction; only these
 * change (immediates and rel32 fields, never an instruction's length):
 *   - a call to another of the program's functions goes to its twin;
 *   - a call leaving the program (a helper, a kfunc) goes to a user stub
 *     that returns through the host's return thunk replica: a map lookup
 *     (a target whose kallsyms name has "lookup_elem") returns the map's
 *     value buffer, any other helper returns 0;
 *   - a return (jmp to the return thunk) goes to the thunk's replica;
 *   - "movabs rX, imm64" of a map value or of a map (an ld_imm64 the
 *     program's xlated code names) points at the map's user buffer; the
 *     private-stack frame ("movabs r9" before "add r9, gs:[...]") at an
 *     area of asm/auto_twin_areas.asm; any other kernel address at a
 *     zeroed scratch buffer of its own (counted, said in the notes);
 *   - "add rX, gs:[disp]" (this_cpu_off) reads a displacement the user GS
 *     base maps (src/variants/percpu.c).
 * Refused with a reason: indirect calls and jumps (tail calls), other gs
 * accesses, RIP-relative operands, jumps to another program.
 *
 * A map's user buffer is a header page (where the map pointer points: the
 * lookup stub returns pointer + SB_AUTO_TWIN_MAP_HEADER) followed by its
 * values, zeroed: the stubs' documented state. sb_auto_twin_fill() puts
 * the maps' real contents there instead, for the path check. */
#ifndef STUBBENCH_AUTO_TWIN_H
#define STUBBENCH_AUTO_TWIN_H

#include <stddef.h>
#include <stdint.h>

#include "jit/code_variant.h"
#include "jit/decode.h"
#include "jit/ksyms.h"
#include "base/mitigations.h"
#include "stubbench/registry.h"

#define SB_AUTO_TWIN_MAX_MAPS 16
#define SB_AUTO_TWIN_MAX_REFS 64
#define SB_AUTO_TWIN_MAX_CALLS 32
#define SB_AUTO_TWIN_MAP_HEADER 4096u

/* A map of the program (bpf_map_info), and its contents when known. */
struct sb_auto_twin_map {
	uint32_t id, type, value_size, max_entries;
	char name[32];
	const uint8_t *contents; /* the kernel's values (value_size x entries), or NULL */
	size_t contents_len;
};

/* An immediate of the JITed code that is a map's address (from the
 * program's xlated ld_imm64: BPF_PSEUDO_MAP_VALUE or BPF_PSEUDO_MAP_FD). */
struct sb_auto_twin_ref {
	uint64_t kaddr;
	size_t map;     /* index in the maps */
	uint32_t off;   /* in the map's values */
	int is_value;   /* 0: the map itself (a helper's first argument) */
};

/* Where a word of a map buffer is that the harness writes or counts. */
struct sb_auto_twin_slot {
	int map;        /* index in the maps, -1: none */
	uint32_t off;
};

/* What a twin is made from. */
struct sb_auto_twin_spec {
	const char *name;                 /* the variant's name ("auto-twin-with_frame") */
	const struct sb_jit_image *img;
	const char *main;                 /* the function the harness calls; NULL: the first */
	const struct sb_auto_twin_map *maps;
	size_t n_maps;
	const struct sb_auto_twin_ref *refs;
	size_t n_refs;
	const struct sb_ksyms *ks;        /* names calls leaving the program; NULL: none named */
	enum sb_thunk thunk;              /* the host's return thunk */
	const struct sb_variant *tmpl;    /* shape, family, description (code_variant.h) */
	struct sb_auto_twin_slot batch_iters; /* in-loop: the loop bound the harness sets */
	struct sb_auto_twin_slot counter;     /* a u64 the program adds to per iteration */
};

/* One call leaving the program and the stub it got. */
struct sb_auto_twin_call {
	char name[112];                   /* kallsyms name, "?" without kallsyms */
	int lookup;                       /* 1: returns the map's value buffer; 0: returns 0 */
};

struct sb_auto_twin {
	struct sb_code_variant cv;        /* cv.v: what the harness runs */
	char func_name[SB_CODE_VARIANT_MAX_FUNCS][64]; /* the kernel function of each of cv's */
	uint8_t *buf[SB_AUTO_TWIN_MAX_MAPS];  /* header page + values */
	size_t buf_len[SB_AUTO_TWIN_MAX_MAPS];
	size_t n_maps;
	const struct sb_auto_twin_map *maps;
	uint8_t *scratch;                 /* unattributed kernel addresses, a page each */
	size_t n_scratch;
	void *stubs;                      /* the helper stubs' page */
	uintptr_t stub_lookup, stub_zero;
	struct sb_auto_twin_call calls[SB_AUTO_TWIN_MAX_CALLS];
	size_t n_calls;
	size_t n_private;                 /* functions with a private stack */
	struct sb_auto_twin_slot batch_iters;
	unsigned batch_size;              /* bytes of the loop bound (4 or 8) */
};

/* Makes the twin. Returns 0, or -1 with one line naming the function and
 * instruction in err. */
int sb_auto_twin_make(const struct sb_auto_twin_spec *s, struct sb_auto_twin *out, char *err, size_t errlen);
void sb_auto_twin_free(struct sb_auto_twin *t);

/* The maps' buffers zeroed (real = 0, the stubs' values) or holding the
 * maps' contents (real = 1; a map without contents stays zeroed). */
void sb_auto_twin_fill(struct sb_auto_twin *t, int real);
/* The user address of a map slot, or NULL. */
void *sb_auto_twin_slot_addr(const struct sb_auto_twin *t, struct sb_auto_twin_slot s);

/* The twin's code (the functions and the stubs), for counting what runs. */
size_t sb_auto_twin_ranges(const struct sb_auto_twin *t, uintptr_t *lo, uintptr_t *hi, size_t max);

/* Does the twin take the kernel's path? One call of its main function
 * (with the loop bound at batch, in-loop), single-stepped
 * (insn_trace.h), counting the instructions of its code and stubs: once
 * with the buffers as the stubs leave them (zeroed), once with the maps'
 * contents copied in (the loop bound then the kernel's own). Different
 * counts, or a run that faults with the real contents: the control flow
 * depends on data the stubs do not model, and the twin is not comparable.
 * The buffers are zeroed again after. */
struct sb_auto_twin_path {
	uint64_t stubbed, real;   /* instructions of one call */
	int comparable;
	char why[240];            /* when not comparable: what differed */
};
int sb_auto_twin_check_path(struct sb_auto_twin *t, uint64_t batch, struct sb_auto_twin_path *out, char *err,
			    size_t errlen);

/* One line: the helpers and their stubs, the unattributed addresses. */
void sb_auto_twin_describe(const struct sb_auto_twin *t, char *buf, size_t len);

#endif

/* cell_key.h: the structured identity of a cell, the code it measured:
 * the key every arm carries (arm.h) and every cell of a result keeps
 * (results.h). */
#ifndef STUBBENCH_CELL_KEY_H
#define STUBBENCH_CELL_KEY_H

/* Which side of the comparison a cell's code is on. */
enum sb_cell_side {
	SB_SIDE_NONE,        /* no key: the overhead arm, a result read from a file without keys */
	SB_SIDE_REPLICA,     /* asm code in user space (families replica, replica-host, others) */
	SB_SIDE_LAB,         /* a codegen lab alternative (family lab) */
	SB_SIDE_TWIN,        /* the replica of this kernel's JITed program, 64-byte aligned */
	SB_SIDE_PLACED_TWIN, /* the same placed like the kernel's loads */
	SB_SIDE_KERNEL,      /* a BPF program run in the kernel */
	SB_N_SIDES
};

/* What an arm measures, field by field: what its name says, so that no
 * reader has to take the name apart. A cell is its arm's key at one batch
 * size (sb_cell.batch). Empty strings are unknown or not applicable. */
struct sb_cell_key {
	enum sb_cell_side side;
	char family[24];   /* "replica", "replica-host", "twin", "lab" (the registry's), "kernel",
			    * "htab", "user-obj" */
	char codegen[48];  /* what the code does: "baseline", "private", "hybrid", a lab
			    * alternative ("mainline", "callee-saved" ...), an htab program
			    * ("private-no-helpers", "syscall-path"), a --obj program's name */
	char flavour[40];  /* asm code: the kernel flavour it is written in ("v6.18-noibt-srso");
			    * BPF programs: "" (the JIT's, in the run's kernel_run) */
	char ret[16];      /* how its functions return: "ret", "rethunk" (jmp to the return
			    * thunk; which one the run's return_thunk says), "calldepth", "srso",
			    * "srso-alias"; "" for BPF programs */
	char shape[16];    /* "per-run", "in-loop", "htab"; "" when not one of them */
	int placement;     /* -1: the code where it was built; j >= 0: copy j at a random
			    * placement (--placements) */
	char origin[96];   /* the name of the arm whose code this is a copy of (its own name
			    * when placement is -1); not written out */
};

/* "replica", "lab", "twin", "placed-twin", "kernel"; NULL for SB_SIDE_NONE. */
const char *sb_cell_side_name(enum sb_cell_side side);
/* The side a name of sb_cell_side_name() stands for; SB_SIDE_NONE when NULL or unknown. */
enum sb_cell_side sb_cell_side_from_name(const char *name);
/* A key with these fields (NULL: ""), at no placement, copying origin. */
void sb_cell_key_set(struct sb_cell_key *k, enum sb_cell_side side, const char *family, const char *codegen,
		     const char *flavour, const char *ret, const char *shape, const char *origin);
/* The same code: every field but placement and origin equal (both keyed). */
int sb_cell_key_same_code(const struct sb_cell_key *a, const struct sb_cell_key *b);
/* An order of keys by their code, field by field (placement not
 * included): 0 for keys of the same code, as sb_cell_key_same_code says
 * (keys of no side included). */
int sb_cell_key_cmp_code(const struct sb_cell_key *a, const struct sb_cell_key *b);
/* The same cell identity: the same code at the same placement. */
int sb_cell_key_equal(const struct sb_cell_key *a, const struct sb_cell_key *b);

#endif

/* kernel_obj_twins.h: the auto-twins of `stubbench kernel --obj` (auto_twin.h):
 * for each program, a twin made from its JIT image (of the load of the
 * first batch), checked for the kernel's path (not comparable: no arm),
 * placed like each load of each batch (every function at the page offset
 * the kernel gave it), and harness arms running the placed copies beside
 * the kernel's runs, a block's load its state; then each twin's cost
 * against the kernel's. Internal to src/commands. */
#ifndef STUBBENCH_KERNEL_OBJ_TWINS_H
#define STUBBENCH_KERNEL_OBJ_TWINS_H

#include <stdio.h>

#include "twins/auto_twin.h"
#include "kernel/auto_twin_source.h"
#include "harness/harness.h"
#include "stubbench/parse.h"
#include "jit/placement.h"
#include "stubbench/results.h"
#include "session/session.h"
#include "harness/variant_arms.h"
#include "kernel/user_obj.h"

struct sb_obj_twin {
	const char *prog;
	struct sb_auto_twin_source src;
	struct sb_auto_twin twin;
	int made;                       /* the twin exists */
	struct sb_auto_twin_path path;  /* made: its path check */
	struct sb_placed_variant placed[SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES]; /* [load * n_batches + batch] */
	size_t n_placed;
	char why[400];                  /* not made, or not placed: why */
	char desc[400];                 /* made: its helpers and buffers */
	char arm_name[80];
	char twin_name[80];             /* the unplaced twin: "PROG-twin" */
	/* A twin with a private stack: the same program de-privatized
	 * (deprivatize.h: each r9-frame function as the JIT emits it without
	 * one), made like the twin, for the private stack's cost at
	 * identical layout. */
	struct sb_jit_image depriv_img, padded_img;
	struct sb_auto_twin depriv;
	int has_depriv;
	char depriv_name[96];           /* "PROG-twin:deprivatized" */
	/* The de-privatized code at the twin's layout (sb_deprivatize_padded):
	 * the twin's padded baseline, for its codegen and layout costs. */
	struct sb_auto_twin padded;
	int has_padded;
	char padded_name[96];           /* "PROG-twin:padded" */
	char padded_why[300];           /* no padded form: why */
	char depriv_why[300];           /* a private stack but no de-privatized twin: why */
};

struct sb_obj_twins {
	struct sb_obj_twin t[SB_USER_MAX_PROGS];
	size_t n;
	struct sb_arm arms[1 + SB_USER_MAX_PROGS];
	size_t n_arms;
	struct sb_obj_twin_ctx {
		struct sb_obj_twin *t;      /* NULL: the overhead arm (the empty stub) */
		const uint64_t *batches;
		size_t n_batches;
		int in_loop;
		size_t n_loads, load;       /* the loads, and the one this block's copy is placed like */
	} ctx[1 + SB_USER_MAX_PROGS];
	int percpu_ready;
};

/* Makes, checks and places the twins of progs; one line per program into
 * info. The arms (t->arms, n_arms: the overhead arm first) run only the
 * comparable ones; n_arms is 0 when none is. */
void sb_obj_twins_make(struct sb_obj_twins *t, struct sb_user_obj *const *objs, size_t n_loads,
		       const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
		       int has_batch_iters, FILE *info);
void sb_obj_twins_free(struct sb_obj_twins *t);

/* The private stack's cost of each twin that has one: the twin against its
 * de-privatized self at identical layout (--padded), one group per such
 * twin into groups (with arms and res of its own; padded[i]: the twin's
 * padded baseline, or NULL; twin_of[i]: the twin), at most max. Returns
 * how many. */
size_t sb_obj_twins_private_groups(struct sb_obj_twins *t, struct sb_group *groups,
				   struct sb_variant_arms *arms, struct sb_results *res,
				   const struct sb_variant **others, const struct sb_variant **padded,
				   const struct sb_obj_twin **twin_of, size_t max);

/* Each twin against its program, batch by batch (cycles per iteration,
 * the kernel's verdict rule), or why it has no figure: the member
 * "auto_twins" of uo (json_doc.h), or (uo NULL) lines into f. */
struct sb_doc;
void sb_obj_twins_report(const struct sb_obj_twins *t, const struct sb_results *kernel,
			 const struct sb_results *twins, FILE *f, struct sb_doc *uo);

#endif

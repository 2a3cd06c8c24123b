/* kernel_obj.h: one run of `stubbench kernel --obj=FILE --prog=NAME,...`
 * (kernel_obj_run.h): its state, and its stages each in a file of its own:
 * loading and measuring (kernel_obj_run.c), the programs' JIT read back
 * (kernel_obj_jit.c), the kernel's own A/B (kernel_obj_syscall.c), the
 * run's own JSON members and table lines (kernel_obj_report.c), and the
 * private stack's cost from the programs' auto-twins (kernel_obj_private.c,
 * kernel_obj_parts.c, kernel_obj_twins.c: built with SB_AUTO_TWINS, the
 * STUBBENCH_DEPRIVATIZE part; without it those stages do nothing).
 * Internal to src/commands. */
#ifndef STUBBENCH_KERNEL_OBJ_H
#define STUBBENCH_KERNEL_OBJ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stubbench/config.h"
#include "harness/harness.h"
#include "kernel/loader.h"
#include "base/mitigations.h"
#include "stubbench/results.h"
#include "base/rng.h"
#include "session/session.h"
#include "kernel/user_obj.h"

/* The auto-twins' part of a run (kernel_obj_private.c). */
struct sb_obj_private;

struct sb_obj_run {
	const struct sb_config *cfg;  /* the command's configuration */
	int dump_failed;              /* a --dump-jit file was refused or not written */
	int driver_option;            /* --driver: an enum sb_kernel_driver, or SB_KERNEL_DRIVER_AUTO */
	/* How --prog's programs are loaded and run: raw_tp, BPF_PROG_TEST_RUN of
	 * their own types; perf_event, loaded as perf_event programs, each run
	 * by a page fault (the empty driver too). */
	enum sb_kernel_driver driver;
	char driver_note[200];        /* why perf_event, for the summary and JSON */
	/* With perf_event: --prog's programs run by page faults (arms), and
	 * its syscall programs, which stay syscall programs run with
	 * BPF_PROG_TEST_RUN, in a part of their own (sc_arms, the empty
	 * syscall program its overhead, results scres). */
	const char *pf_progs[SB_USER_MAX_PROGS], *sc_progs[SB_USER_MAX_PROGS];
	size_t n_pf_progs, n_sc_progs;
	int sc_empty_fds[SB_KERNEL_MAX_LOADS];
	struct sb_user_arms sc_arms;
	struct sb_results scres;
	struct sb_user_obj *objs[SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES]; /* [load * n_batches + batch] */
	size_t n_objs, n_loads;
	struct sb_kernel_obj *empty[SB_KERNEL_MAX_LOADS]; /* the empty driver, loaded once per load */
	int empty_fds[SB_KERNEL_MAX_LOADS];
	uint64_t batches[SB_MAX_BATCHES];
	size_t n_batches;
	int has_batch_iters;
	struct sb_doc *jit_doc; /* what the JIT check found: the document's "user_object", its start */
	/* The first function with an rbp frame of 64 bytes or more of stack,
	 * where upstream gives a private stack ("" : none), and what the run
	 * then could not measure (the summary's line). */
	char no_priv_what[256];
	char not_measured[256];
	/* The kernel's own A/B: the programs with a private stack, loaded
	 * again as syscall programs (none), one object per load and batch. */
	const char *private_progs[SB_USER_MAX_PROGS];
	size_t n_private_progs;
	struct sb_user_obj *sys[SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES];
	size_t n_sys;
	int empty_sys_fds[SB_KERNEL_MAX_LOADS]; /* the empty syscall program, once per load (0: none) */
	int has_ab;            /* the syscall copies are measured */
	/* A spacer before each load (src/kernel/spacer.c), kept loaded with it:
	 * the loads would otherwise sit a fixed distance apart and share page
	 * offsets (docs/kernel-run.md). */
	int spacers[2 * SB_KERNEL_MAX_LOADS * SB_MAX_BATCHES];
	size_t n_spacers;
	struct sb_rng spacer_rng;
	/* The run's configuration: the command's with the object's batch
	 * sizes and the programs (progs) as its variants. */
	struct sb_config run_cfg;
	char progs[SB_CONFIG_MAX_PROGS * 64];
	struct sb_user_arms arms;     /* the programs */
	struct sb_user_arms sys_arms; /* their syscall copies */
	struct sb_results res;
	struct sb_results sres; /* the syscall copies (the kernel's A/B) */
	struct sb_return_thunk host;  /* where this host's returns go */
	struct sb_obj_private *priv;  /* the auto-twins (NULL: none) */
	int has_results;              /* measured to the end: the run has a report */
	int twins_failed;             /* the twins' private stacks: a measurement failed */
};

/* kernel_obj_jit.c: each program's JIT (of the first load): its flavour,
 * and per function its size and whether it sets up r9 (a private stack),
 * --dump-jit. Lines into info; the member "user_object" into doc
 * (json_doc.h); sets r->private_progs and r->no_priv_what. Returns 0, or
 * -1 when a JIT could not be read or dumped (said in info). */
struct sb_doc;
int sb_obj_check_jit(struct sb_obj_run *r, FILE *info, struct sb_doc *doc);
/* 1 when a function of prog's JIT in obj sets up r9 (a private stack), 0
 * when none does, -1 when the JIT cannot be read. */
int sb_obj_jit_private(struct sb_user_obj *obj, const char *prog);

/* kernel_obj_syscall.c: the kernel's own A/B of the programs with a
 * private stack: each loaded again as a syscall program, which the JIT
 * gives none, once per load and batch, with an empty syscall program per
 * load for its test-run path. One line into info; without it the run goes
 * on. Returns 1 when there is an A/B. */
int sb_obj_load_syscall_copies(struct sb_obj_run *r, int cpu, FILE *info);
/* A spacer of 0-4 KB of JITed code before the next load, so that it
 * starts at a page offset of its own (kernel_obj_run.c). 0, or -1 with why
 * (sized errlen). */
int sb_obj_spacer(struct sb_obj_run *r, char *why, size_t errlen);

/* kernel_obj_report.c: what the session writes beside the results (ctx:
 * the struct sb_obj_run): the document's member "user_object" (the JIT,
 * the cost per run, the twins, the private stack) and the parts' member
 * "annotate"; and the cost per run under the table. */
void sb_obj_members(struct sb_doc *doc, const void *ctx);
void sb_obj_after_report(FILE *info, const char *format, const struct sb_results *all, const void *ctx);

#ifdef SB_AUTO_TWINS
/* kernel_obj_private.c: makes the programs' auto-twins (one line each into
 * info) and, for each twin with a private stack, its group against its
 * de-privatized self; r->priv. Returns how many such groups, 0 without. */
size_t sb_obj_private_make(struct sb_obj_run *r, FILE *info);
/* The placed twins' part of the kernel's run, added to parts (at *n), with
 * the options ro (the kernel run's, contained: filled in before it runs). */
void sb_obj_private_add_part(struct sb_obj_run *r, struct sb_arm_set *parts, size_t *n,
			     const struct sb_run_opts *ro);
/* Measures each twin against its de-privatized self at identical layout,
 * then the first one's parts, with the run configuration cfg. Returns 0,
 * or non-zero for a failed measurement. */
int sb_obj_private_measure(struct sb_obj_run *r, const struct sb_config *cfg, FILE *info);
/* The twins', the private stack's and the parts' results as sections of s. */
void sb_obj_private_sections(struct sb_obj_run *r, struct sb_session *s);
/* The twins against the kernel and the private stack's figures: members
 * of "user_object" uo (json_doc.h), or (uo NULL) table lines into f. */
void sb_obj_private_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *uo);
/* The parts of the private stack: doc's member "annotate" (after
 * "user_object"), or (doc NULL) the annotate summary and listing. */
void sb_obj_private_parts_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *doc);
/* Each function of prog that got a private stack, de-privatized, against
 * the same function as the JIT emitted it in the syscall copy sys,
 * addresses masked: one line each into info. */
void sb_obj_compare_deprivatized(struct sb_user_obj *raw, struct sb_user_obj *sys, const char *prog, FILE *info);
void sb_obj_private_free(struct sb_obj_run *r);

/* kernel_obj_parts.c: the first twin of t with a private stack, part by
 * part (stubbench annotate): its parts against its de-privatized self,
 * each NOPed and removed, at identical layout, with the run configuration
 * cfg, into *out (NULL: no twin has parts). One line into info where there
 * are none, or the other twins' parts are not measured. Returns 0, or
 * non-zero for a failed measurement. */
struct sb_obj_parts;
struct sb_obj_twins;
int sb_obj_parts_measure(struct sb_obj_parts **out, const struct sb_obj_twins *t, const struct sb_config *cfg,
			 FILE *info);
/* The parts' results as a section of s, where they have figures. */
void sb_obj_parts_section(struct sb_obj_parts *p, struct sb_session *s);
/* doc's member "annotate", or (doc NULL) the annotate summary and
 * listing, where the parts have figures; nothing otherwise (p NULL too). */
void sb_obj_parts_report(const struct sb_obj_parts *p, FILE *f, struct sb_doc *doc);
void sb_obj_parts_free(struct sb_obj_parts *p);
#else
static inline size_t sb_obj_private_make(struct sb_obj_run *r, FILE *info)
{
	(void)r, (void)info;
	return 0;
}
static inline void sb_obj_private_add_part(struct sb_obj_run *r, struct sb_arm_set *parts, size_t *n,
					   const struct sb_run_opts *ro)
{
	(void)r, (void)parts, (void)n, (void)ro;
}
static inline int sb_obj_private_measure(struct sb_obj_run *r, const struct sb_config *cfg, FILE *info)
{
	(void)r, (void)cfg, (void)info;
	return 0;
}
static inline void sb_obj_private_sections(struct sb_obj_run *r, struct sb_session *s)
{
	(void)r, (void)s;
}
static inline void sb_obj_private_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *uo)
{
	(void)r, (void)f, (void)uo;
}
static inline void sb_obj_private_parts_report(const struct sb_obj_run *r, FILE *f, struct sb_doc *doc)
{
	(void)r, (void)f, (void)doc;
}
static inline void sb_obj_compare_deprivatized(struct sb_user_obj *raw, struct sb_user_obj *sys, const char *prog,
					       FILE *info)
{
	(void)raw, (void)sys, (void)prog, (void)info;
}
static inline void sb_obj_private_free(struct sb_obj_run *r)
{
	(void)r;
}
#endif

#endif

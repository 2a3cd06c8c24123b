/* htab.h: `stubbench kernel --shape=htab`, seed 003's v1 map-helper
 * program (bench/bpf/htab_shape.bpf.c) in the kernel: the same global
 * function htab_body() JITed with a private stack (raw_tp driver) and
 * without (syscall driver, a type that never gets one), run with
 * BPF_PROG_TEST_RUN, its JIT checked, and the delta reported. */
#ifndef STUBBENCH_HTAB_H
#define STUBBENCH_HTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/harness.h"
#include "kernel/loader.h"

enum sb_htab_prog {
	SB_HTAB_BASELINE,       /* htab_baseline (syscall) -> htab_body, rbp frame */
	SB_HTAB_PRIVATE,        /* htab_private (raw_tp) -> htab_body, r9 frame */
	SB_HTAB_NOHELP,         /* htab_nohelp (raw_tp) -> htab_body_nohelp: no helper calls */
	SB_HTAB_EMPTY_SYSCALL,  /* the syscall test-run path alone */
	SB_HTAB_EMPTY_RAW_TP,   /* the raw_tp test-run path alone: the overhead arm */
	SB_HTAB_N_PROGS
};

const char *sb_htab_prog_name(enum sb_htab_prog p);  /* "htab_private" */
/* The JITed function holding the body ("htab_body"), NULL for the empty drivers. */
const char *sb_htab_body_name(enum sb_htab_prog p);

struct sb_htab_obj;
/* Loads every program with batch_iters iterations per run; NULL with a
 * one-line reason in err and the exit status in *status. */
struct sb_htab_obj *sb_htab_load(uint32_t batch_iters, enum sb_kernel_status *status, char *err, size_t errlen);
/* The same with the raw_tp programs (private, no helpers, the empty
 * raw_tp driver) loaded as driver's type: perf_event programs, each run by
 * a page fault, where only that type gets a private stack. The syscall
 * programs stay syscall programs, run with BPF_PROG_TEST_RUN. */
struct sb_htab_obj *sb_htab_load_as(uint32_t batch_iters, enum sb_kernel_driver driver,
				    enum sb_kernel_status *status, char *err, size_t errlen);
enum sb_kernel_driver sb_htab_driver(const struct sb_htab_obj *o);
/* One untimed run of p by its driver: 0, or -errno. */
int sb_htab_run_once(const struct sb_htab_obj *o, enum sb_htab_prog p);
void sb_htab_unload(struct sb_htab_obj *o);
int sb_htab_prog_fd(const struct sb_htab_obj *o, enum sb_htab_prog p);
/* Runs of the body of p so far (the seed's hits; baseline and private share
 * one counter), or 0 for the empty drivers. */
uint64_t sb_htab_runs(const struct sb_htab_obj *o, enum sb_htab_prog p);
/* Loop iterations of the body without helpers. */
uint64_t sb_htab_nohelp_iters(const struct sb_htab_obj *o);

/* Harness arms: the raw_tp empty driver as overhead, then baseline,
 * private, the body without helpers and the syscall empty driver (whose
 * cost, with the raw_tp path removed, is the difference between the two
 * test-run paths). One object per batch (batch_iters is frozen at load). */
struct sb_htab_arms {
	struct sb_arm arms[SB_HTAB_N_PROGS];
	size_t n;
	/* Where the private programs run by page faults: arms[0..n_first)
	 * are one part (the empty syscall program its overhead, the baseline),
	 * the rest another (the empty perf_event program its overhead, the
	 * private programs), each with its own driver's path removed; 0: one
	 * part. */
	size_t n_first;
	struct sb_htab_arm_ctx {
		struct sb_htab_obj *const *objs;
		const uint64_t *batches;
		size_t n_batches;
		enum sb_htab_prog prog;
		uint64_t runs[32];
		int last_error;
	} ctx[SB_HTAB_N_PROGS];
};
/* with_private 0: without the private programs (the kernel gave them no
 * private stack), the baseline and the syscall path alone. The objects'
 * driver sets the parts (n_first). */
void sb_htab_arms_build(struct sb_htab_arms *a, struct sb_htab_obj *const *objs, const uint64_t *batches,
			size_t n_batches, int with_private);
/* Counters before a run: runs of the body and iterations without helpers
 * per object (2 values per batch). */
void sb_htab_read_counters(const struct sb_htab_arms *a, uint64_t *out);
/* The body ran exactly once per test run of baseline and private, and the
 * helper-less loop exactly runs x batch_iters times. 0, or -1 with err. */
int sb_htab_check_counters(const struct sb_htab_arms *a, const uint64_t *before, char *err, size_t errlen);

/* JIT check: the r9 frame (r9 setup, push/pop r9) is in htab_private's
 * htab_body and in no other function of the programs; with dump_dir every
 * function is written out. Returns SB_KERNEL_OK, SB_KERNEL_NO_CAP (bytes
 * unreadable) or SB_KERNEL_FAILED, with one line in why; or
 * SB_KERNEL_NO_PRIV_STACK, every other function as it should be, with what
 * has no private stack in why ("htab_private.htab_body, a raw_tp
 * program's function with 96 bytes of stack"; perf_event where it ran as
 * one). */
enum sb_kernel_status sb_htab_check_jit(const struct sb_htab_obj *o, const char *dump_dir, FILE *f, char *why,
					size_t whylen);

/* Per batch: baseline and private cycles per iteration, private - baseline
 * with its 95 % CI (as the other shapes), the body without helpers and the
 * share of an iteration spent in the helpers, and the syscall path's extra
 * cost per iteration. driver: how the private programs ran (the overhead
 * removed is its empty program's). */
void sb_htab_report(FILE *f, const struct sb_results *r, enum sb_kernel_driver driver);

#endif

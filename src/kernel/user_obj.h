/* user_obj.h: a user's BPF object (`stubbench kernel --obj=FILE
 * --prog=NAME,...`): opened and loaded with libbpf, once per load and batch
 * size when it has a `batch_iters` read-only global (set before load, as the
 * project's own programs do), and its programs run with BPF_PROG_TEST_RUN
 * through harness arms. */
#ifndef STUBBENCH_USER_OBJ_H
#define STUBBENCH_USER_OBJ_H

#include <stddef.h>
#include <stdint.h>

#include "harness/harness.h"
#include "kernel/loader.h"

#define SB_USER_MAX_PROGS 8

struct sb_user_obj;

/* Opens path without loading it and checks that every name in progs is a
 * program of it. *has_batch_iters: whether it has the global, a const
 * volatile 4- or 8-byte integer; one of another type, or not read-only,
 * is an error naming the type found. Returns 0, or -1 with one line
 * naming the file or the program (and the programs it has) in err. */
int sb_user_obj_check(const char *path, const char *const *progs, size_t n_progs, int *has_batch_iters,
		      char *err, size_t errlen);

/* Opens and loads path with batch_iters set (when it has the global).
 * Returns NULL with one line in err and the status to exit with; a
 * rejection by the verifier gives the verifier's log in short (its first
 * and last lines, verifier_log.h) and SB_KERNEL_USAGE. */
struct sb_user_obj *sb_user_obj_load(const char *path, uint32_t batch_iters, enum sb_kernel_status *status,
				     char *err, size_t errlen);
/* The same with each of progs loaded as a syscall program (sleepable),
 * which the JIT never gives a private stack: the same function without
 * one, for the kernel's own A/B. */
struct sb_user_obj *sb_user_obj_load_as_syscall(const char *path, uint32_t batch_iters, const char *const *progs,
						size_t n_progs, enum sb_kernel_status *status, char *err,
						size_t errlen);
/* The same with each of progs loaded as a perf_event program, run by a
 * page fault (src/kernel/run_once.c), where only that type gets a private
 * stack; a program the verifier refuses as one fails the load (err). A
 * syscall program (which never gets one) stays a syscall program. */
struct sb_user_obj *sb_user_obj_load_as_perf_event(const char *path, uint32_t batch_iters,
						   const char *const *progs, size_t n_progs,
						   enum sb_kernel_status *status, char *err, size_t errlen);
void sb_user_obj_unload(struct sb_user_obj *o);
/* Runs each of progs once with BPF_PROG_TEST_RUN (on cpu, -1: any).
 * Returns SB_KERNEL_OK, or with err naming the program and its type:
 * SB_KERNEL_USAGE for a type the test run cannot run (kprobe,
 * tracepoint: error 524) or for a run longer than max_run_s (> 0: a
 * program that would hold the measurement far past --time),
 * SB_KERNEL_FAILED for another error. */
enum sb_kernel_status sb_user_obj_check_runs(const struct sb_user_obj *o, const char *const *progs, size_t n_progs,
					     int cpu, double max_run_s, char *err, size_t errlen);
/* The same, each run by driver (perf_event: one page fault). */
enum sb_kernel_status sb_user_obj_check_runs_as(const struct sb_user_obj *o, const char *const *progs,
						size_t n_progs, enum sb_kernel_driver driver, int cpu, double max_run_s,
						char *err, size_t errlen);
/* The fd of program name, or -1. */
int sb_user_obj_prog_fd(const struct sb_user_obj *o, const char *name);

/* Harness arms: the overhead arm (an empty raw_tp program's test run: the
 * syscall and dispatch cost) and one arm per program; sample(ctx, batch)
 * runs the program of the object loaded for that batch once. With n_loads
 * > 1 the objects are n_loads loads of each batch's, empty_fds n_loads
 * empty programs, and every arm takes the load as its re-rolled state: a
 * block runs one load of each. */
#define SB_USER_MAX_ARMS (2 + 2 * SB_USER_MAX_PROGS)
struct sb_user_arms {
	struct sb_arm arms[SB_USER_MAX_ARMS];
	size_t n;
	char names[SB_USER_MAX_ARMS][80];
	struct sb_user_arm_ctx {
		struct sb_user_obj *const *objs;   /* one per load and batch: [load * n_batches + batch] */
		const uint64_t *batches;
		size_t n_batches;
		size_t n_loads, load;              /* the loads, and the one this block runs (its state) */
		const int *empty_fds;              /* the overhead arm: one empty program per load; else NULL */
		const char *prog;
		int cpu;
		int mode;                          /* how its test run is asked for (0: not known yet) */
		enum sb_kernel_driver driver;      /* raw_tp: BPF_PROG_TEST_RUN; perf_event: a page fault */
		uint64_t runs;                     /* runs made (perf_event: retried ones too) */
		int last_error;
	} ctx[SB_USER_MAX_ARMS];
};
void sb_user_arms_build(struct sb_user_arms *a, struct sb_user_obj *const *objs, size_t n_loads,
			const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
			const int *empty_fds, int cpu);
/* Every arm of a run by driver (the programs loaded as its type, the
 * empty programs too). */
void sb_user_arms_set_driver(struct sb_user_arms *a, enum sb_kernel_driver driver);
/* The kernel's own A/B, as arms of a part of their own: the overhead arm
 * the empty syscall program's test run (its path is not raw_tp's), then
 * "PROG@syscall" running each of progs of objs_sys
 * (sb_user_obj_load_as_syscall, one per load and batch), the first the part's
 * baseline. */
void sb_user_arms_build_syscall(struct sb_user_arms *a, struct sb_user_obj *const *objs_sys, size_t n_loads,
				const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
				const int *empty_syscall_fds, int cpu);
/* An empty syscall program (sleepable), loaded: its fd, or -1 with err. */
int sb_user_obj_empty_syscall(char *err, size_t errlen);

#endif

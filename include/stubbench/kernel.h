/* kernel.h: the kernel side of stubbench. The programs of
 * bench/bpf/private_stack_shapes.bpf.c loaded with libbpf, run with
 * BPF_PROG_TEST_RUN, their counters read back, and what the machine lacks
 * for it detected and named.
 *
 * Nothing is ever pinned: every program lives only as long as the file
 * descriptors of a struct sb_kernel_obj, so a crash or a Ctrl-C unloads it.
 */
#ifndef STUBBENCH_KERNEL_H
#define STUBBENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stubbench/harness.h"
#include "stubbench/parse.h"
#include "stubbench/placement.h"
#include "stubbench/thunks.h"
#include "stubbench/variants.h"

/* Loads of the programs a run may hold (--loads), each at its own code
 * address: the kernel side's re-rolled states. */
#define SB_KERNEL_MAX_LOADS 8

/* Exit statuses of `stubbench kernel` (documented in README.md). */
enum sb_kernel_status {
	SB_KERNEL_OK = 0,
	SB_KERNEL_FAILED = 1,           /* an error, or a JIT mismatch */
	SB_KERNEL_USAGE = 2,            /* bad input */
	SB_KERNEL_NO_CAP = 3,           /* neither CAP_BPF nor CAP_SYS_ADMIN */
	SB_KERNEL_NO_JIT = 4,           /* BPF JIT off or absent: programs interpreted */
	SB_KERNEL_NO_TEST_RUN = 5,      /* BPF_PROG_TEST_RUN refused for raw_tp */
	SB_KERNEL_NO_PRIV_STACK = 6,    /* kernel JIT has no private stack (< v6.13, non-x86) */
	SB_KERNEL_INTERRUPTED = 130,    /* SIGINT/SIGTERM: programs unloaded, then exit */
};

/* Iterations per BPF_PROG_TEST_RUN (batch_iters, --batch of `stubbench
 * kernel`): the loop bound is frozen at load and the verifier walks every
 * iteration. On Linux 6.18 a load of 16384 takes about a second; 65536
 * runs into the verifier's 1M-instruction limit (E2BIG) after 20 s. */
#define SB_KERNEL_MAX_BATCH 16384u

enum sb_kernel_shape { SB_SHAPE_PER_RUN, SB_SHAPE_IN_LOOP, SB_N_SHAPES };
enum sb_kernel_variant { SB_KV_BASELINE, SB_KV_PRIVATE, SB_KV_HYBRID, SB_N_KVARIANTS };

const char *sb_kernel_shape_name(enum sb_kernel_shape s);     /* "per-run", "in-loop" */
const char *sb_kernel_variant_name(enum sb_kernel_variant v); /* "baseline", ... */
const char *sb_kernel_variant_seed_name(enum sb_kernel_variant v); /* "no-private-stack", ... */
/* The one name of a kernel-run arm, in every format:
 * "<variant>-<shape>[-<side>]", side NULL for the kernel's programs, "twin"
 * for their replicas, "twin@loads" for the replicas placed like the loads:
 * "private-per-run", "private-per-run-twin", "private-per-run-twin@loads".
 * seed: the seeds' variant name instead ("private-stack-per-run-twin"),
 * to which --format=seed appends "-<batch>" as upstream does. */
void sb_kernel_arm_name(enum sb_kernel_variant v, enum sb_kernel_shape s, const char *side, int seed, char *buf,
			size_t len);
/* The BPF program name: "run_private", "loop_hybrid". */
const char *sb_kernel_prog_name(enum sb_kernel_shape s, enum sb_kernel_variant v);

/* Does this process hold CAP_BPF or CAP_SYS_ADMIN, and is the JIT on?
 * Returns SB_KERNEL_OK or the status, with one line saying why in why. */
enum sb_kernel_status sb_kernel_probe(char *why, size_t whylen);

/* libbpf's own messages (the verifier log on a failed load) only with
 * STUBBENCH_BPF_VERBOSE=1 in the environment: our one line says what failed. */
void sb_kernel_libbpf_quiet(void);

/* One loaded copy of the object, with batch_iters fixed at load. */
struct sb_kernel_obj;

/* Loads every program with batch_iters iterations per run. Returns NULL with
 * a one-line reason in err (and the status to exit with in *status). */
struct sb_kernel_obj *sb_kernel_load(uint32_t batch_iters, enum sb_kernel_status *status,
				     char *err, size_t errlen);
/* Unloads (closes every fd). NULL is fine. */
void sb_kernel_unload(struct sb_kernel_obj *o);

uint32_t sb_kernel_batch_iters(const struct sb_kernel_obj *o);
int sb_kernel_prog_fd(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v);
int sb_kernel_empty_fd(const struct sb_kernel_obj *o);
/* The kernel's id of a loaded program (0 when it cannot be read). */
uint32_t sb_kernel_prog_id(int prog_fd);
/* The program's hit counter, read from the mmapped .bss. */
uint64_t sb_kernel_hits(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v);

/* Does the seed's exact fentry shape (bench/bpf/fentry_shape.bpf.c) load
 * here? Returns 1 or 0, with one line saying which in why. Nothing stays
 * loaded. */
int sb_kernel_fentry_available(char *why, size_t whylen);

/* One BPF_PROG_TEST_RUN of prog_fd, on cpu (>= 0: BPF_F_TEST_RUN_ON_CPU) or
 * on the current CPU (-1). Returns 0, or -errno. */
int sb_kernel_test_run(int prog_fd, int cpu);

/* Ctrl-C: sb_kernel_install_signals() makes SIGINT/SIGTERM set a flag
 * instead of killing; long loops poll sb_kernel_interrupted() and unwind,
 * unloading everything. */
void sb_kernel_install_signals(void);
int sb_kernel_interrupted(void);

/* Harness arms running the BPF programs (kernel_arms.c). One loaded object
 * per load and batch size (batch_iters is frozen at load); sample(ctx,
 * batch) runs the program of the current load's object whose batch_iters
 * == batch once with BPF_PROG_TEST_RUN and returns the TSC ticks around
 * the syscall (timed with the harness's timer, sb_time_calls). The loads
 * are the arms' re-rolled states: the harness moves every arm to the next
 * load block by block, so each cell is measured over all loads. The
 * overhead arm runs the empty driver: the syscall and dispatch cost,
 * removed by the harness. */
struct sb_kernel_arms {
	struct sb_arm arms[1 + SB_N_KVARIANTS];
	size_t n;
	struct sb_kernel_arm_ctx {
		struct sb_kernel_obj *const (*objs)[SB_MAX_BATCHES]; /* [load][batch] */
		size_t n_loads, load;              /* load: the current state */
		const uint64_t *batches;
		size_t n_batches;
		int empty;                         /* the overhead arm */
		enum sb_kernel_shape shape;
		enum sb_kernel_variant variant;
		int cpu;
		uint64_t runs[SB_KERNEL_MAX_LOADS][SB_MAX_BATCHES]; /* test runs per load and batch */
		int last_error;                    /* -errno of a failed run */
	} ctx[1 + SB_N_KVARIANTS];
	char names[SB_N_KVARIANTS][2][48];    /* sb_kernel_arm_name(): name, seed name */
};

/* Builds the overhead arm and one arm per selected variant (baseline first,
 * always), named by sb_kernel_arm_name(). */
void sb_kernel_arms_build(struct sb_kernel_arms *a, struct sb_kernel_obj *const (*objs)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS], int cpu);
/* Every program's counter advanced by exactly runs x batch_iters. Returns 0,
 * or -1 naming the first program that did not. */
int sb_kernel_arms_check_counters(const struct sb_kernel_arms *a, const uint64_t *hits_before,
				  char *err, size_t errlen);
/* The counters of the arms' programs in every object, before a run
 * (n_loads x n_batches x SB_N_KVARIANTS values). */
void sb_kernel_arms_read_counters(const struct sb_kernel_arms *a, uint64_t *out);

/* JIT check (kernel_jit_check.c): reads every selected program's JIT,
 * names the flavour, compares each function with its twin and, with dir,
 * dumps it. Prints what it finds to f. Returns SB_KERNEL_OK,
 * SB_KERNEL_FAILED (a real mismatch or an unreadable JIT) or
 * SB_KERNEL_NO_PRIV_STACK (no r9 setup where 64 bytes of stack should give
 * one), with one line in why. */
enum sb_kernel_status sb_kernel_check_jit(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
					  const int want[SB_N_KVARIANTS], const char *dump_dir, FILE *f,
					  char *why, size_t whylen);

/* Return thunk (return_thunk.c): resolves every call/jmp rel32 of the
 * selected programs' JITed functions through jited_ksyms and
 * /proc/kallsyms (printing them to stderr with verbose) and names the thunk
 * their returns reach; without kernel pointers it says so in one line on f
 * and infers the thunk from sysfs. rt also gets the sysfs mitigations. */
void sb_kernel_return_thunk(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
			    const int want[SB_N_KVARIANTS], int verbose, FILE *f, struct sb_return_thunk *rt);
/* Compares each return thunk replica with the kernel's own code of the
 * same name, read through BPF; one line on f, saying so when refused. */
void sb_kernel_check_thunks(FILE *f);

/* Twins placed like a kernel load (kernel_twin_placement.c): copies of the
 * twins of one shape whose functions start at the same page offset (hence
 * the same offset in their 64-byte cache lines) as the kernel put that
 * load's JITed functions (bpf_jit_binary_pack_alloc() starts every image at
 * a random offset of its first 64-byte chunk), as registry-like variants
 * the replica harness can run. */
struct sb_twin_placement {
	struct sb_placed_variant copies[SB_N_KVARIANTS]; /* made by sb_place() */
	struct sb_variant variants[SB_N_KVARIANTS];  /* main = the placed entry */
	char names[SB_N_KVARIANTS][64];              /* "twin-in-loop-private@load2" */
	int have[SB_N_KVARIANTS];
	unsigned offsets[SB_N_KVARIANTS][2];         /* entry and subprog page offsets */
};
int sb_twin_place_like(const struct sb_kernel_obj *o, enum sb_kernel_shape shape, const int want[SB_N_KVARIANTS],
		       int load, struct sb_twin_placement *out, char *err, size_t errlen);
void sb_twin_placement_free(struct sb_twin_placement *p);

/* Harness arms over placed twins: an overhead arm (the empty stub, as the
 * replica harness's) and one arm per variant; sample(ctx, batch) runs the
 * twins placed like the current load's kernel object of that batch
 * (placed[load][batch index]); the loads are the arms' re-rolled states,
 * as for the kernel arms. */
struct sb_placed_arms {
	struct sb_arm arms[1 + SB_N_KVARIANTS];
	size_t n;
	struct sb_placed_arm_ctx {
		struct sb_twin_placement (*placed)[SB_MAX_BATCHES]; /* [load][batch] */
		size_t n_loads, load;
		const uint64_t *batches;
		size_t n_batches;
		int empty, in_loop;
		enum sb_kernel_variant variant;
		uint64_t iterations, counter_start;
	} ctx[1 + SB_N_KVARIANTS];
	char names[SB_N_KVARIANTS][2][64];    /* "private-in-loop-twin@loads", seed name */
};
void sb_placed_arms_build(struct sb_placed_arms *a, struct sb_twin_placement (*placed)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS]);
/* Each variant's twin counter advanced by exactly the iterations run. */
int sb_placed_arms_check_counters(const struct sb_placed_arms *a, char *err, size_t errlen);

/* Side-by-side report (kernel_report.c): per batch, replica twin delta vs
 * kernel delta (private and hybrid against baseline) in core cycles per
 * iteration with their 95 % CIs, and a verdict. With several loads of the
 * programs (kernel[0..n_loads-1], each at its own code address), the
 * kernel's range over the loads is shown and the verdict is whether the
 * twin falls inside it. placed (may be NULL): the twins placed like each
 * load (same order as kernel), shown as a range and compared load by load. */
void sb_kernel_report_side_by_side(FILE *f, enum sb_kernel_shape shape,
				   const struct sb_results *const *kernel, size_t n_loads,
				   const struct sb_results *twin, const struct sb_results *const *placed);

/* The same comparison as JSON objects (appended to an array; *first says
 * whether one was written yet): per variant and batch, the delta in core
 * cycles per iteration with its CI of the twin, the placed twin and the
 * kernel (null where missing), and the verdict ("agree": the placed twin's
 * and the kernel's CIs overlap; "disagree"; null without both CIs). */
void sb_kernel_report_json(FILE *f, enum sb_kernel_shape shape, const struct sb_results *kernel,
			   const struct sb_results *twin, const struct sb_results *placed, int *first);

/* `stubbench kernel ...` (argv[0] == "kernel"). Returns the exit status. */
int sb_kernel_main(int argc, char **argv);

#endif

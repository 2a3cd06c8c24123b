/* loader.h: the kernel side's programs. Those of
 * bench/bpf/private_stack_shapes.bpf.c loaded with libbpf, run with
 * BPF_PROG_TEST_RUN and their counters read back; the exit statuses of
 * `stubbench kernel` and the names of its shapes, variants and arms.
 *
 * Nothing is ever pinned: every program lives only as long as the file
 * descriptors of a struct sb_kernel_obj, so a crash or a Ctrl-C unloads it. */
#ifndef STUBBENCH_LOADER_H
#define STUBBENCH_LOADER_H

#include <stddef.h>
#include <stdint.h>

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
	SB_KERNEL_NO_PRIV_STACK = 6,    /* measured in part: the kernel gave the private programs no
					 * private stack (private_stack_probe.h says why) */
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

/* libbpf's own messages (the verifier log on a failed load) only with
 * STUBBENCH_BPF_VERBOSE=1 in the environment: our one line says what failed. */
void sb_kernel_libbpf_quiet(void);

/* One loaded copy of the object, with batch_iters fixed at load. */
struct sb_kernel_obj;

/* How the programs are loaded and run: raw_tp programs run with
 * BPF_PROG_TEST_RUN, or perf_event programs, each attached to a software
 * page-fault event of the sampling thread and run by touching a page
 * (run_once.c): for kernels that give only perf_event programs a
 * private stack. */
enum sb_kernel_driver { SB_DRIVER_RAW_TP, SB_DRIVER_PERF_EVENT };
const char *sb_kernel_driver_name(enum sb_kernel_driver d); /* "raw_tp", "perf_event" */

/* Loads every program with batch_iters iterations per run, after a spacer
 * program of about spacer_bytes of JITed code (0: none) that stays loaded
 * with them, so that the copy starts at a code address of its own
 * (src/kernel/spacer.c). Returns NULL with a one-line reason in err (and
 * the status to exit with in *status). */
struct sb_kernel_obj *sb_kernel_load(uint32_t batch_iters, size_t spacer_bytes, enum sb_kernel_status *status,
				     char *err, size_t errlen);
/* The same, every program loaded as driver's type. */
struct sb_kernel_obj *sb_kernel_load_as(uint32_t batch_iters, size_t spacer_bytes, enum sb_kernel_driver driver,
					enum sb_kernel_status *status, char *err, size_t errlen);
enum sb_kernel_driver sb_kernel_obj_driver(const struct sb_kernel_obj *o);
/* Runs of the empty driver so far (its counter). */
uint64_t sb_kernel_empty_hits(const struct sb_kernel_obj *o);
/* Runs program prog_fd of o once on the calling thread's CPU (raw_tp:
 * BPF_PROG_TEST_RUN on cpu; perf_event: one page fault, src/kernel/
 * run_once.c), timing the run itself with the harness's timer: returns
 * the ticks, or UINT64_MAX with -errno in *rc. hits(o, hits_arg): how many
 * times the program has run, to see a perf_event program ran exactly once
 * (a run in which it did not is retried untimed); *runs grows by every run
 * made, the retried ones too, for the counters' check. */
uint64_t sb_kernel_run_timed(const struct sb_kernel_obj *o, int prog_fd, int cpu,
			     uint64_t (*hits)(const struct sb_kernel_obj *o, const void *arg), const void *hits_arg,
			     uint64_t *runs, int *rc);
/* The same for any loaded program, run as driver's type (raw_tp: any
 * program BPF_PROG_TEST_RUN runs on cpu with no input). hits(hits_arg):
 * how many times it has run; NULL for a program without a counter: a
 * perf_event run then takes the event's own count (each fault it counted
 * ran the program once). */
uint64_t sb_bpf_run_timed(enum sb_kernel_driver driver, int prog_fd, int cpu, uint64_t (*hits)(const void *arg),
			  const void *hits_arg, uint64_t *runs, int *rc);
/* The message and status for a skeleton load that failed with rc (< 0): a
 * rejection by the verifier gives its log in short (verifier_log.h;
 * SB_KERNEL_FAILED), a refusal without a log names the capabilities
 * (SB_KERNEL_NO_CAP), anything else points at the verifier log
 * (SB_KERNEL_FAILED). what: "BPF program", ... */
enum sb_kernel_status sb_kernel_load_failed(int rc, const char *what, uint32_t batch_iters, char *err,
					    size_t errlen);
/* Unloads (closes every fd). NULL is fine. */
void sb_kernel_unload(struct sb_kernel_obj *o);

uint32_t sb_kernel_batch_iters(const struct sb_kernel_obj *o);
int sb_kernel_prog_fd(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v);
int sb_kernel_empty_fd(const struct sb_kernel_obj *o);
/* The kernel's id of a loaded program (0 when it cannot be read). */
uint32_t sb_kernel_prog_id(int prog_fd);
/* The program's hit counter, read from the mmapped .bss. */
uint64_t sb_kernel_hits(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v);

/* One BPF_PROG_TEST_RUN of prog_fd, on cpu (>= 0: BPF_F_TEST_RUN_ON_CPU) or
 * on the current CPU (-1). Returns 0, or -errno. */
int sb_kernel_test_run(int prog_fd, int cpu);

#endif

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

enum sb_kernel_shape { SB_SHAPE_PER_RUN, SB_SHAPE_IN_LOOP, SB_N_SHAPES };
enum sb_kernel_variant { SB_KV_BASELINE, SB_KV_PRIVATE, SB_KV_HYBRID, SB_N_KVARIANTS };

const char *sb_kernel_shape_name(enum sb_kernel_shape s);     /* "per-run", "in-loop" */
const char *sb_kernel_variant_name(enum sb_kernel_variant v); /* "baseline", ... */
const char *sb_kernel_variant_seed_name(enum sb_kernel_variant v); /* "no-private-stack", ... */
/* The BPF program name: "run_private", "loop_hybrid". */
const char *sb_kernel_prog_name(enum sb_kernel_shape s, enum sb_kernel_variant v);

/* Does this process hold CAP_BPF or CAP_SYS_ADMIN, and is the JIT on?
 * Returns SB_KERNEL_OK or the status, with one line saying why in why. */
enum sb_kernel_status sb_kernel_probe(char *why, size_t whylen);

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
/* The program's hit counter, read from the mmapped .bss. */
uint64_t sb_kernel_hits(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v);

/* One BPF_PROG_TEST_RUN of prog_fd, on cpu (>= 0: BPF_F_TEST_RUN_ON_CPU) or
 * on the current CPU (-1). Returns 0, or -errno. */
int sb_kernel_test_run(int prog_fd, int cpu);

/* Ctrl-C: sb_kernel_install_signals() makes SIGINT/SIGTERM set a flag
 * instead of killing; long loops poll sb_kernel_interrupted() and unwind,
 * unloading everything. */
void sb_kernel_install_signals(void);
int sb_kernel_interrupted(void);

/* `stubbench kernel ...` (argv[0] == "kernel"). Returns the exit status. */
int sb_kernel_main(int argc, char **argv);

#endif

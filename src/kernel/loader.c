/* loader.c: loads the embedded BPF object (bpftool skeleton of
 * bench/bpf/private_stack_shapes.bpf.c) with batch_iters set, runs its
 * programs with BPF_PROG_TEST_RUN and reads their counters. */
#include "kernel/loader.h"
#include "base/error.h"
#include "kernel/verifier_log.h"
#include "kernel/spacer.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "private_stack_shapes.skel.h"

struct sb_kernel_obj {
	struct private_stack_shapes *skel;
	uint32_t batch_iters;
	int spacer_fd; /* -1: none */
	enum sb_kernel_driver driver;
};

const char *sb_kernel_driver_name(enum sb_kernel_driver d)
{
	return d == SB_DRIVER_PERF_EVENT ? "perf_event" : "raw_tp";
}

static const char *const shape_names[SB_N_SHAPES] = {"per-run", "in-loop"};
static const char *const variant_names[SB_N_KVARIANTS] = {"baseline", "private", "hybrid"};
static const char *const variant_seed_names[SB_N_KVARIANTS] = {"no-private-stack", "private-stack",
							       "hybrid"};
static const char *const prog_names[SB_N_SHAPES][SB_N_KVARIANTS] = {
	{"run_baseline", "run_private", "run_hybrid"},
	{"loop_baseline", "loop_private", "loop_hybrid"},
};

const char *sb_kernel_shape_name(enum sb_kernel_shape s) { return shape_names[s]; }
const char *sb_kernel_variant_name(enum sb_kernel_variant v) { return variant_names[v]; }
const char *sb_kernel_variant_seed_name(enum sb_kernel_variant v) { return variant_seed_names[v]; }
void sb_kernel_arm_name(enum sb_kernel_variant v, enum sb_kernel_shape s, const char *side, int seed, char *buf,
			size_t len)
{
	snprintf(buf, len, "%s-%s%s%s", seed ? variant_seed_names[v] : variant_names[v], shape_names[s],
		 side ? "-" : "", side ? side : "");
}

const char *sb_kernel_prog_name(enum sb_kernel_shape s, enum sb_kernel_variant v)
{
	return prog_names[s][v];
}

/* libbpf prints the verifier log on failures: kept in short for the error
 * (verifier_log.h), printed whole with STUBBENCH_BPF_VERBOSE=1. */
static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBBPF_WARN)
		return 0;
	va_list copy;
	va_copy(copy, ap);
	sb_verifier_log_capture(fmt, copy);
	va_end(copy);
	if (getenv("STUBBENCH_BPF_VERBOSE"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

void sb_kernel_libbpf_quiet(void)
{
	libbpf_set_print(quiet_print);
	sb_verifier_log_reset();
}

enum sb_kernel_status sb_kernel_load_failed(int rc, const char *what, uint32_t batch_iters, char *err,
					    size_t errlen)
{
	int e = -rc;
	char log[1024];
	/* Out of descriptors or memory: the cause, whatever libbpf logged (the
	 * verifier may have passed the program before its descriptor failed). */
	if (e != ENOMEM && e != ENFILE && !sb_fd_headroom(8))
		e = EMFILE;
	if (e == EMFILE || e == ENFILE || e == ENOMEM) {
		sb_set_err(err, errlen, "%s load failed with batch_iters=%u: %s", what, batch_iters, sb_errno_cause(e));
		return SB_KERNEL_FAILED;
	}
	if (sb_verifier_log_summary(log, sizeof(log)) == 0) {
		sb_set_err(err, errlen, "%s load failed with batch_iters=%u: the verifier rejected %s", what,
			   batch_iters, log);
		return SB_KERNEL_FAILED;
	}
	if (e == EPERM || e == EACCES) {
		sb_set_err(err, errlen, "BPF program load refused (%s): need root or CAP_BPF+CAP_PERFMON",
			   sb_errno_cause(e));
		return SB_KERNEL_NO_CAP;
	}
	sb_set_err(err, errlen, "%s load failed with batch_iters=%u: %s "
		   "(set STUBBENCH_BPF_VERBOSE=1 for the verifier log)", what, batch_iters, sb_errno_cause(e));
	return SB_KERNEL_FAILED;
}

struct sb_kernel_obj *sb_kernel_load(uint32_t batch_iters, size_t spacer_bytes, enum sb_kernel_status *status,
				     char *err, size_t errlen)
{
	return sb_kernel_load_as(batch_iters, spacer_bytes, SB_DRIVER_RAW_TP, status, err, errlen);
}

struct sb_kernel_obj *sb_kernel_load_as(uint32_t batch_iters, size_t spacer_bytes, enum sb_kernel_driver driver,
					enum sb_kernel_status *status, char *err, size_t errlen)
{
	*status = SB_KERNEL_FAILED;
	sb_kernel_libbpf_quiet();
	struct sb_kernel_obj *o = calloc(1, sizeof(*o));
	if (!o) {
		sb_set_err(err, errlen, "out of memory");
		return NULL;
	}
	o->batch_iters = batch_iters;
	o->spacer_fd = -1;
	o->driver = driver;
	if (spacer_bytes) {
		o->spacer_fd = sb_kernel_spacer_load(spacer_bytes);
		if (o->spacer_fd < 0) {
			*status = sb_kernel_load_failed(o->spacer_fd, "spacer program", batch_iters, err, errlen);
			free(o);
			return NULL;
		}
	}
	o->skel = private_stack_shapes__open();
	if (!o->skel) {
		sb_set_err(err, errlen, "cannot open the embedded BPF object: %s", sb_errno_cause(errno));
		sb_kernel_unload(o);
		return NULL;
	}
	o->skel->rodata->batch_iters = batch_iters;
	if (driver == SB_DRIVER_PERF_EVENT) {
		struct bpf_program *prog;
		bpf_object__for_each_program(prog, o->skel->obj)
		{
			bpf_program__set_type(prog, BPF_PROG_TYPE_PERF_EVENT);
			bpf_program__set_expected_attach_type(prog, 0);
		}
	}
	int rc = private_stack_shapes__load(o->skel);
	if (rc) {
		*status = sb_kernel_load_failed(rc, "BPF program", batch_iters, err, errlen);
		sb_kernel_unload(o);
		return NULL;
	}
	*status = SB_KERNEL_OK;
	return o;
}

void sb_kernel_unload(struct sb_kernel_obj *o)
{
	if (!o)
		return;
	private_stack_shapes__destroy(o->skel); /* NULL is fine */
	if (o->spacer_fd >= 0)
		close(o->spacer_fd);
	free(o);
}

uint32_t sb_kernel_batch_iters(const struct sb_kernel_obj *o) { return o->batch_iters; }

static struct bpf_program *prog_of(const struct sb_kernel_obj *o, enum sb_kernel_shape s,
				   enum sb_kernel_variant v)
{
	struct bpf_program *const table[SB_N_SHAPES][SB_N_KVARIANTS] = {
		{o->skel->progs.run_baseline, o->skel->progs.run_private, o->skel->progs.run_hybrid},
		{o->skel->progs.loop_baseline, o->skel->progs.loop_private, o->skel->progs.loop_hybrid},
	};
	return table[s][v];
}

int sb_kernel_prog_fd(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v)
{
	return bpf_program__fd(prog_of(o, s, v));
}

int sb_kernel_empty_fd(const struct sb_kernel_obj *o)
{
	return bpf_program__fd(o->skel->progs.empty_driver);
}

uint64_t sb_kernel_hits(const struct sb_kernel_obj *o, enum sb_kernel_shape s, enum sb_kernel_variant v)
{
	const volatile __u64 *const table[SB_N_SHAPES][SB_N_KVARIANTS] = {
		{&o->skel->bss->hits_baseline, &o->skel->bss->hits_private, &o->skel->bss->hits_hybrid},
		{&o->skel->bss->loop_hits_baseline, &o->skel->bss->loop_hits_private,
		 &o->skel->bss->loop_hits_hybrid},
	};
	return *table[s][v];
}

enum sb_kernel_driver sb_kernel_obj_driver(const struct sb_kernel_obj *o) { return o->driver; }

uint64_t sb_kernel_empty_hits(const struct sb_kernel_obj *o) { return o->skel->bss->empty_hits; }

uint32_t sb_kernel_prog_id(int prog_fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.id;
}

int sb_kernel_test_run(int prog_fd, int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	if (cpu >= 0) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = (__u32)cpu;
	}
	int rc = bpf_prog_test_run_opts(prog_fd, &opts);
	if (rc < 0)
		return errno ? -errno : rc;
	return 0;
}

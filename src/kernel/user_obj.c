/* user_obj.c: a user's BPF object, loaded with libbpf; see user_obj.h. */
#include "harness/harness.h"
#include "kernel/user_obj.h"
#include "kernel/signals.h"
#include "base/error.h"
#include "base/safe_file.h"
#include "stubbench/timer.h"
#include "kernel/verifier_log.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sb_user_obj {
	struct bpf_object *obj;
};

static struct bpf_object *open_obj(const char *path, char *err, size_t errlen)
{
	/* libbpf would wait on a FIFO for ever: regular files only. */
	char why[256];
	if (sb_safe_file_check_input(path, why, sizeof(why)) != 0) {
		sb_set_err(err, errlen, "--obj: %s: %s", path, why);
		return NULL;
	}
	sb_kernel_libbpf_quiet();
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	long e = libbpf_get_error(obj);
	if (!obj || e) {
		int code = obj ? (int)-e : errno;
		sb_set_err(err, errlen, "--obj: %s: %s", path,
			   code == ENOENT || code == EACCES ? sb_errno_cause(code) : "not a BPF object libbpf can open");
		return NULL;
	}
	return obj;
}

/* The type of a BTF variable in words ("a 1-byte integer (unsigned char)",
 * "an array of 2 elements"), its qualifiers into *is_const, *is_volatile;
 * the size of the integer it is into *int_size (0: not an integer). */
static void describe_type(const struct btf *btf, __u32 id, char *buf, size_t len, int *is_const,
			  int *is_volatile, size_t *int_size)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	*is_const = *is_volatile = 0;
	*int_size = 0;
	while (t && (btf_is_const(t) || btf_is_volatile(t) || btf_is_typedef(t) || btf_is_restrict(t))) {
		*is_const |= btf_is_const(t);
		*is_volatile |= btf_is_volatile(t);
		t = btf__type_by_id(btf, t->type);
	}
	if (t && btf_is_int(t)) {
		*int_size = t->size;
		snprintf(buf, len, "a %u-byte integer (%s)", t->size, btf__name_by_offset(btf, t->name_off));
	} else if (t && btf_is_array(t)) {
		snprintf(buf, len, "an array of %u elements", btf_array(t)->nelems);
	} else if (t && (btf_is_struct(t) || btf_is_union(t))) {
		snprintf(buf, len, "a %s", btf_is_struct(t) ? "struct" : "union");
	} else if (t && btf_is_ptr(t)) {
		snprintf(buf, len, "a pointer");
	} else if (t && btf_is_any_enum(t)) {
		snprintf(buf, len, "an enum of %u bytes", t->size);
	} else {
		snprintf(buf, len, "of BTF kind %u", t ? btf_kind(t) : 0);
	}
}

/* The internal map of the object whose name ends in sec (".rodata"). */
static struct bpf_map *internal_map(struct bpf_object *obj, const char *sec)
{
	struct bpf_map *map;
	size_t k = strlen(sec);
	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);
		size_t n = strlen(name);
		if (bpf_map__is_internal(map) && n >= k && strcmp(name + n - k, sec) == 0)
			return map;
	}
	return NULL;
}

#define BATCH_ITERS_WANTED "a const volatile __u32 or __u64 (the loader sets it to each batch size)"

/* The global batch_iters: 1 with its map (.rodata), offset and size when
 * it is a read-only 4- or 8-byte integer, 0 when the object has none, -1
 * with why ("batch_iters is a 1-byte integer ...") when it has one of
 * another type or in a writable section. */
static int batch_iters_slot(struct bpf_object *obj, struct bpf_map **map, size_t *offset, size_t *size,
			    char *why, size_t whylen)
{
	const struct btf *btf = bpf_object__btf(obj);
	for (__u32 id = 1; btf && id < btf__type_cnt(btf); id++) {
		const struct btf_type *sec = btf__type_by_id(btf, id);
		if (!btf_is_datasec(sec))
			continue;
		const char *sec_name = btf__name_by_offset(btf, sec->name_off);
		const struct btf_var_secinfo *vs = btf_var_secinfos(sec);
		for (unsigned i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			if (!var || strcmp(btf__name_by_offset(btf, var->name_off), "batch_iters") != 0)
				continue;
			char type[96];
			int is_const, is_volatile;
			size_t int_size;
			describe_type(btf, var->type, type, sizeof(type), &is_const, &is_volatile, &int_size);
			if (strcmp(sec_name, ".rodata") != 0) {
				sb_set_err(why, whylen, "batch_iters is %s in %s, which the program may write: it must "
					   "be " BATCH_ITERS_WANTED, type, sec_name);
				return -1;
			}
			if (int_size != 4 && int_size != 8) {
				sb_set_err(why, whylen, "batch_iters is %s: it must be " BATCH_ITERS_WANTED, type);
				return -1;
			}
			if (!is_volatile) {
				sb_set_err(why, whylen, "batch_iters is const but not volatile, so the compiler may "
					   "fold its value: it must be " BATCH_ITERS_WANTED);
				return -1;
			}
			*map = internal_map(obj, ".rodata");
			size_t data_size;
			const void *data = *map ? bpf_map__initial_value(*map, &data_size) : NULL;
			if (!data || vs->offset + vs->size > data_size) {
				sb_set_err(why, whylen, "batch_iters: its .rodata map is not where BTF says");
				return -1;
			}
			*offset = vs->offset;
			*size = vs->size;
			return 1;
		}
	}
	return 0;
}

int sb_user_obj_check(const char *path, const char *const *progs, size_t n_progs, int *has_batch_iters,
		      char *err, size_t errlen)
{
	struct bpf_object *obj = open_obj(path, err, errlen);
	if (!obj)
		return -1;
	size_t offset, size;
	struct bpf_map *map;
	char why[256];
	int slot = batch_iters_slot(obj, &map, &offset, &size, why, sizeof(why));
	*has_batch_iters = slot == 1;
	int rc = 0;
	if (slot < 0) {
		sb_set_err(err, errlen, "--obj: %s: %s", path, why);
		rc = -1;
	}
	for (size_t i = 0; i < n_progs && rc == 0; i++) {
		if (bpf_object__find_program_by_name(obj, progs[i]))
			continue;
		char have[512] = "";
		struct bpf_program *p;
		bpf_object__for_each_program(p, obj) {
			size_t used = strlen(have);
			snprintf(have + used, sizeof(have) - used, "%s%s", used ? ", " : "", bpf_program__name(p));
		}
		sb_set_err(err, errlen, "--prog: %s has no program '%s' (it has: %s)", path, progs[i],
			   have[0] ? have : "none");
		rc = -1;
	}
	bpf_object__close(obj);
	return rc;
}

static struct sb_user_obj *load_typed(const char *path, uint32_t batch_iters, const char *const *progs,
				       size_t n_progs, enum bpf_prog_type type, enum sb_kernel_status *status,
				       char *err, size_t errlen);

struct sb_user_obj *sb_user_obj_load(const char *path, uint32_t batch_iters, enum sb_kernel_status *status,
				     char *err, size_t errlen)
{
	return load_typed(path, batch_iters, NULL, 0, BPF_PROG_TYPE_SYSCALL, status, err, errlen);
}

struct sb_user_obj *sb_user_obj_load_as_syscall(const char *path, uint32_t batch_iters, const char *const *progs,
						size_t n_progs, enum sb_kernel_status *status, char *err,
						size_t errlen)
{
	return load_typed(path, batch_iters, progs, n_progs, BPF_PROG_TYPE_SYSCALL, status, err, errlen);
}

struct sb_user_obj *sb_user_obj_load_as_perf_event(const char *path, uint32_t batch_iters,
						   const char *const *progs, size_t n_progs,
						   enum sb_kernel_status *status, char *err, size_t errlen)
{
	return load_typed(path, batch_iters, progs, n_progs, BPF_PROG_TYPE_PERF_EVENT, status, err, errlen);
}

/* The object with each of progs loaded as a program of type (syscall or
 * perf_event; n_progs 0: as it is). */
static struct sb_user_obj *load_typed(const char *path, uint32_t batch_iters, const char *const *progs,
				       size_t n_progs, enum bpf_prog_type type, enum sb_kernel_status *status,
				       char *err, size_t errlen)
{
	*status = SB_KERNEL_USAGE;
	struct bpf_object *obj = open_obj(path, err, errlen);
	if (!obj)
		return NULL;
	const char *type_name = type == BPF_PROG_TYPE_SYSCALL ? "syscall" : "perf_event";
	for (size_t i = 0; i < n_progs; i++) {
		/* A syscall program is sleepable (the verifier refuses it
		 * otherwise); the JIT never gives one a private stack. */
		struct bpf_program *p = bpf_object__find_program_by_name(obj, progs[i]);
		/* A syscall program never gets a private stack (the user's
		 * baseline): it stays one. */
		if (p && type == BPF_PROG_TYPE_PERF_EVENT && bpf_program__type(p) == BPF_PROG_TYPE_SYSCALL)
			continue;
		if (!p || bpf_program__set_type(p, type) || bpf_program__set_expected_attach_type(p, 0) ||
		    (type == BPF_PROG_TYPE_SYSCALL &&
		     bpf_program__set_flags(p, bpf_program__flags(p) | BPF_F_SLEEPABLE))) {
			sb_set_err(err, errlen, "--obj: %s: '%s' cannot be made a %s program", path, progs[i],
				   type_name);
			bpf_object__close(obj);
			return NULL;
		}
	}
	size_t offset, size, data_size;
	struct bpf_map *rodata = NULL;
	char why[256];
	int rc = 0;
	if (batch_iters_slot(obj, &rodata, &offset, &size, why, sizeof(why)) == 1) {
		/* A copy of the initial value with batch_iters set, given back. */
		const void *init = bpf_map__initial_value(rodata, &data_size);
		uint8_t *data = malloc(data_size);
		if (!data) {
			bpf_object__close(obj);
			*status = SB_KERNEL_FAILED;
			sb_set_err(err, errlen, "out of memory");
			return NULL;
		}
		memcpy(data, init, data_size);
		uint64_t v64 = batch_iters;
		uint32_t v32 = batch_iters;
		memcpy(data + offset, size == 4 ? (void *)&v32 : (void *)&v64, size);
		rc = bpf_map__set_initial_value(rodata, data, data_size);
		free(data);
	}
	if (rc == 0)
		rc = bpf_object__load(obj);
	if (rc) {
		int e = -rc;
		char log[1024];
		/* libbpf may lose EMFILE on the way (a map it could not make,
		 * then a program the verifier rejects for lack of it). */
		struct bpf_map *m;
		struct bpf_program *pr;
		int want = 2;
		bpf_object__for_each_map(m, obj)
			want++;
		bpf_object__for_each_program(pr, obj)
			want++;
		if (e != ENOMEM && e != ENFILE && !sb_fd_headroom(want))
			e = EMFILE;
		if (e == EMFILE || e == ENFILE || e == ENOMEM) {
			/* The cause, not the verifier's log: it may have passed the
			 * program before its descriptor could not be made. */
			*status = SB_KERNEL_FAILED;
			sb_set_err(err, errlen, "--obj: %s: load failed with batch_iters=%u: %s", path, batch_iters,
				   sb_errno_cause(e));
		} else if (sb_verifier_log_summary(log, sizeof(log)) == 0) {
			*status = SB_KERNEL_USAGE;
			sb_set_err(err, errlen, "--obj: %s: load failed with batch_iters=%u%s%s%s: the verifier rejected %s",
				   path, batch_iters, n_progs ? " (as " : "", n_progs ? type_name : "",
				   n_progs ? " programs)" : "", log);
		} else {
			*status = e == EPERM || e == EACCES ? SB_KERNEL_NO_CAP : SB_KERNEL_USAGE;
			sb_set_err(err, errlen, "--obj: %s: load failed with batch_iters=%u: %s%s", path, batch_iters,
				   sb_errno_cause(e), *status == SB_KERNEL_NO_CAP ? " (need root or CAP_BPF+CAP_PERFMON)"
									 : " (set STUBBENCH_BPF_VERBOSE=1 for the verifier log)");
		}
		bpf_object__close(obj);
		return NULL;
	}
	struct sb_user_obj *o = calloc(1, sizeof(*o));
	if (!o) {
		bpf_object__close(obj);
		*status = SB_KERNEL_FAILED;
		sb_set_err(err, errlen, "out of memory");
		return NULL;
	}
	o->obj = obj;
	*status = SB_KERNEL_OK;
	return o;
}

void sb_user_obj_unload(struct sb_user_obj *o)
{
	if (!o)
		return;
	bpf_object__close(o->obj);
	free(o);
}

int sb_user_obj_prog_fd(const struct sb_user_obj *o, const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(o->obj, name);
	return p ? bpf_program__fd(p) : -1;
}

/* sb_time_calls() times a stub: the test run goes through this one. */
static int run_fd = -1, run_cpu = -1, run_rc, *run_mode;
static uint8_t packet[64];

/* How a program's test run is asked for: on the CPU (raw_tp, tracing),
 * with no options (syscall programs take no flags), with a packet (xdp,
 * tc, socket filters). */
enum { MODE_UNKNOWN, MODE_ON_CPU, MODE_PLAIN, MODE_PACKET };

static int test_run_as(int fd, int cpu, int mode)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	if (mode == MODE_ON_CPU && cpu >= 0) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = (__u32)cpu;
	} else if (mode == MODE_PACKET) {
		opts.data_in = packet;
		opts.data_size_in = sizeof(packet);
	}
	return bpf_prog_test_run_opts(fd, &opts) < 0 ? -errno : 0;
}

/* One BPF_PROG_TEST_RUN of fd: 0, or -errno. *mode: how to ask, found
 * (the first that the kernel does not refuse with EINVAL) where unknown. */
static int test_run(int fd, int cpu, int *mode)
{
	if (*mode != MODE_UNKNOWN)
		return test_run_as(fd, cpu, *mode);
	int rc = -EINVAL;
	for (int m = MODE_ON_CPU; m <= MODE_PACKET && rc == -EINVAL; m++)
		if ((rc = test_run_as(fd, cpu, m)) != -EINVAL)
			*mode = m;
	return rc;
}

static int test_run_stub(void)
{
	run_rc = test_run(run_fd, run_cpu, run_mode);
	return 0;
}

/* The kernel's ENOTSUPP (not in libc's errno.h): no test run for the type. */
#define KERNEL_ENOTSUPP 524

enum sb_kernel_status sb_user_obj_check_runs(const struct sb_user_obj *o, const char *const *progs, size_t n_progs,
					     int cpu, double max_run_s, char *err, size_t errlen)
{
	return sb_user_obj_check_runs_as(o, progs, n_progs, SB_DRIVER_RAW_TP, cpu, max_run_s, err, errlen);
}

enum sb_kernel_status sb_user_obj_check_runs_as(const struct sb_user_obj *o, const char *const *progs,
						size_t n_progs, enum sb_kernel_driver driver, int cpu, double max_run_s,
						char *err, size_t errlen)
{
	for (size_t i = 0; i < n_progs; i++) {
		struct bpf_program *p = bpf_object__find_program_by_name(o->obj, progs[i]);
		int mode = MODE_UNKNOWN;
		struct timespec t0, t1;
		uint64_t runs = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		int rc = -ENOENT;
		if (p && driver == SB_DRIVER_PERF_EVENT)
			sb_bpf_run_timed(SB_DRIVER_PERF_EVENT, bpf_program__fd(p), cpu, NULL, NULL, &runs, &rc);
		else if (p)
			rc = test_run(bpf_program__fd(p), cpu, &mode);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
		if (rc == 0 && max_run_s > 0 && took > max_run_s) {
			sb_set_err(err, errlen, "--prog: one run of '%s' took %.2f s, more than the %.2f s a run may take "
				   "in --time (an eighth of it): a shorter program or batch, or a longer --time",
				   progs[i], took, max_run_s);
			return SB_KERNEL_USAGE;
		}
		if (rc == 0)
			continue;
		const char *type = p ? libbpf_bpf_prog_type_str(bpf_program__type(p)) : NULL;
		if (rc == -KERNEL_ENOTSUPP) {
			sb_set_err(err, errlen, "--prog: '%s' is a %s program, a type BPF_PROG_TEST_RUN cannot run "
				   "(error 524, ENOTSUPP); raw_tp, tracing, xdp, tc and socket filter programs can",
				   progs[i], type ? type : "?");
			return SB_KERNEL_USAGE;
		}
		sb_set_err(err, errlen, "--prog: %s of '%s' (a %s program) failed: %s",
			   driver == SB_DRIVER_PERF_EVENT ? "a run by a page fault" : "BPF_PROG_TEST_RUN", progs[i],
			   type ? type : "?", sb_errno_cause(-rc));
		return SB_KERNEL_FAILED;
	}
	return SB_KERNEL_OK;
}

static uint64_t run_arm(void *ctx, uint64_t batch)
{
	struct sb_user_arm_ctx *c = ctx;
	long bi = sb_batch_index(c->batches, c->n_batches, batch);
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	run_fd = c->empty_fds ? c->empty_fds[c->load]
			      : sb_user_obj_prog_fd(c->objs[c->load * c->n_batches + bi], c->prog);
	run_cpu = c->cpu;
	run_mode = &c->mode;
	if (c->driver == SB_DRIVER_PERF_EVENT) {
		/* No counter of the user's: the event's own count says it ran once. */
		int rc;
		uint64_t t = sb_bpf_run_timed(SB_DRIVER_PERF_EVENT, run_fd, c->cpu, NULL, NULL, &c->runs, &rc);
		if (rc != 0)
			c->last_error = rc;
		return rc ? UINT64_MAX : t;
	}
	uint64_t t = sb_time_calls(test_run_stub, 1);
	if (run_rc != 0) {
		c->last_error = run_rc;
		return UINT64_MAX;
	}
	return t;
}

/* A block's state: the load its programs run. */
static void select_load(void *ctx, size_t state)
{
	struct sb_user_arm_ctx *c = ctx;
	c->load = state % c->n_loads;
}

void sb_user_arms_build(struct sb_user_arms *a, struct sb_user_obj *const *objs, size_t n_loads,
			const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
			const int *empty_fds, int cpu)
{
	memset(a, 0, sizeof(*a));
	for (long i = -1; i < (long)n_progs && a->n < SB_USER_MAX_ARMS; i++) {
		struct sb_user_arm_ctx *c = &a->ctx[a->n];
		struct sb_arm *arm = &a->arms[a->n];
		c->objs = objs;
		c->batches = batches;
		c->n_batches = n_batches;
		c->n_loads = n_loads ? n_loads : 1;
		c->empty_fds = i < 0 ? empty_fds : NULL;
		c->prog = i < 0 ? NULL : progs[i];
		c->cpu = cpu;
		arm->ctx = c;
		arm->sample = run_arm;
		if (c->n_loads > 1) {
			arm->n_states = c->n_loads;
			arm->set_state = select_load;
		}
		arm->name = arm->seed_name = i < 0 ? "empty-driver" : progs[i];
		arm->is_overhead = i < 0;
		/* The first program is the one the others are compared with. */
		arm->is_baseline = i == 0;
		if (i >= 0)
			sb_cell_key_set(&arm->key, SB_SIDE_KERNEL, "user-obj", progs[i], NULL, NULL, NULL, progs[i]);
		a->n++;
	}
}

void sb_user_arms_set_driver(struct sb_user_arms *a, enum sb_kernel_driver driver)
{
	for (size_t i = 0; i < a->n; i++)
		a->ctx[i].driver = driver;
}

void sb_user_arms_build_syscall(struct sb_user_arms *a, struct sb_user_obj *const *objs_sys, size_t n_loads,
				const uint64_t *batches, size_t n_batches, const char *const *progs, size_t n_progs,
				const int *empty_syscall_fds, int cpu)
{
	sb_user_arms_build(a, objs_sys, n_loads, batches, n_batches, progs, n_progs, empty_syscall_fds, cpu);
	for (size_t i = 0; i < a->n; i++) {
		struct sb_arm *arm = &a->arms[i];
		snprintf(a->names[i], sizeof(a->names[i]), "%.60s", i ? a->ctx[i].prog : "empty-syscall");
		if (i)
			strcat(a->names[i], "@syscall");
		arm->name = arm->seed_name = a->names[i];
		if (i)
			sb_cell_key_set(&arm->key, SB_SIDE_KERNEL, "user-obj", a->names[i], NULL, NULL, NULL, a->names[i]);
	}
}

int sb_user_obj_empty_syscall(char *err, size_t errlen)
{
	static const struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
		{.code = BPF_JMP | BPF_EXIT},
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SYSCALL, "empty_syscall", "GPL", insns, 2, &opts);
	if (fd < 0)
		sb_set_err(err, errlen, "an empty syscall program: load failed: %s", sb_errno_cause(errno));
	return fd < 0 ? -1 : fd;
}

/* user_obj.c: a user's BPF object, loaded with libbpf; see user_obj.h. */
#include "stubbench/user_obj.h"
#include "stubbench/signals.h"
#include "stubbench/error.h"
#include "stubbench/safe_file.h"
#include "stubbench/timer.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
			   code == ENOENT || code == EACCES ? strerror(code) : "not a BPF object libbpf can open");
		return NULL;
	}
	return obj;
}

/* The read-only global batch_iters: its map (.rodata), offset and size
 * (NULL when the object has none). */
static struct bpf_map *batch_iters_slot(struct bpf_object *obj, size_t *offset, size_t *size)
{
	struct btf *btf = bpf_object__btf(obj);
	struct bpf_map *map;
	if (!btf)
		return NULL;
	bpf_object__for_each_map(map, obj) {
		const char *name = bpf_map__name(map);
		size_t n = strlen(name);
		if (!bpf_map__is_internal(map) || n < 7 || strcmp(name + n - 7, ".rodata") != 0)
			continue;
		int id = btf__find_by_name_kind(btf, ".rodata", BTF_KIND_DATASEC);
		if (id < 0)
			return NULL;
		const struct btf_type *sec = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *vs = btf_var_secinfos(sec);
		for (unsigned i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);
			if (strcmp(btf__name_by_offset(btf, var->name_off), "batch_iters") != 0)
				continue;
			size_t data_size;
			const void *data = bpf_map__initial_value(map, &data_size);
			if (!data || vs->offset + vs->size > data_size || (vs->size != 4 && vs->size != 8))
				return NULL;
			*offset = vs->offset;
			*size = vs->size;
			return map;
		}
	}
	return NULL;
}

int sb_user_obj_check(const char *path, const char *const *progs, size_t n_progs, int *has_batch_iters,
		      char *err, size_t errlen)
{
	struct bpf_object *obj = open_obj(path, err, errlen);
	if (!obj)
		return -1;
	size_t offset, size;
	*has_batch_iters = batch_iters_slot(obj, &offset, &size) != NULL;
	int rc = 0;
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

struct sb_user_obj *sb_user_obj_load(const char *path, uint32_t batch_iters, enum sb_kernel_status *status,
				     char *err, size_t errlen)
{
	*status = SB_KERNEL_USAGE;
	struct bpf_object *obj = open_obj(path, err, errlen);
	if (!obj)
		return NULL;
	size_t offset, size, data_size;
	struct bpf_map *rodata = batch_iters_slot(obj, &offset, &size);
	int rc = 0;
	if (rodata) {
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
		*status = e == EPERM || e == EACCES ? SB_KERNEL_NO_CAP : SB_KERNEL_USAGE;
		sb_set_err(err, errlen, "--obj: %s: load failed with batch_iters=%u: %s%s", path, batch_iters, strerror(e),
			   *status == SB_KERNEL_NO_CAP ? " (need root or CAP_BPF+CAP_PERFMON)"
						       : " (set STUBBENCH_BPF_VERBOSE=1 for the verifier log)");
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
static int run_fd = -1, run_cpu = -1, run_rc;
static uint8_t packet[64];

static int test_run_stub(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	if (run_cpu >= 0) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = (__u32)run_cpu;
	}
	int rc = bpf_prog_test_run_opts(run_fd, &opts);
	if (rc < 0 && errno == EINVAL) {
		/* Not a raw_tp or tracing program: those that take a packet get one. */
		LIBBPF_OPTS(bpf_test_run_opts, pkt, .data_in = packet, .data_size_in = sizeof(packet));
		rc = bpf_prog_test_run_opts(run_fd, &pkt);
	}
	run_rc = rc < 0 ? -errno : 0;
	return 0;
}

static uint64_t sample(void *ctx, uint64_t batch)
{
	struct sb_user_arm_ctx *c = ctx;
	long bi = -1;
	for (size_t i = 0; i < c->n_batches; i++)
		if (c->batches[i] == batch)
			bi = (long)i;
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	run_fd = c->empty_fd >= 0 ? c->empty_fd : sb_user_obj_prog_fd(c->objs[bi], c->prog);
	run_cpu = c->cpu;
	uint64_t t = sb_time_calls(test_run_stub, 1);
	if (run_rc != 0) {
		c->last_error = run_rc;
		return UINT64_MAX;
	}
	return t;
}

void sb_user_arms_build(struct sb_user_arms *a, struct sb_user_obj *const *objs, const uint64_t *batches,
			size_t n_batches, const char *const *progs, size_t n_progs, int empty_fd, int cpu)
{
	memset(a, 0, sizeof(*a));
	for (long i = -1; i < (long)n_progs && a->n < 1 + SB_USER_MAX_PROGS; i++) {
		struct sb_user_arm_ctx *c = &a->ctx[a->n];
		struct sb_arm *arm = &a->arms[a->n];
		c->objs = objs;
		c->batches = batches;
		c->n_batches = n_batches;
		c->empty_fd = i < 0 ? empty_fd : -1;
		c->prog = i < 0 ? NULL : progs[i];
		c->cpu = cpu;
		arm->ctx = c;
		arm->sample = sample;
		arm->name = arm->seed_name = i < 0 ? "empty-driver" : progs[i];
		arm->is_overhead = i < 0;
		/* The first program is the one the others are compared with. */
		arm->is_baseline = i == 0;
		if (i >= 0)
			sb_cell_key_set(&arm->key, SB_SIDE_KERNEL, "user-obj", progs[i], NULL, NULL, NULL, progs[i]);
		a->n++;
	}
}

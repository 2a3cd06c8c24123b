/* arms.c: harness arms that run the BPF programs with
 * BPF_PROG_TEST_RUN, timed from user space with the harness's timer. */
#include "harness/harness.h"
#include "kernel/arms.h"
#include "kernel/loader.h"
#include "kernel/signals.h"

#include <stdio.h>
#include <string.h>


/* How many times the arm's program has run: the empty driver's counter,
 * or the program's (batch_iters a run). */
static uint64_t runs_of(const struct sb_kernel_obj *o, const void *arg)
{
	const struct sb_kernel_arm_ctx *c = arg;
	if (c->empty)
		return sb_kernel_empty_hits(o);
	return sb_kernel_hits(o, c->shape, c->variant) / sb_kernel_batch_iters(o);
}

static uint64_t run_arm(void *ctx, uint64_t batch)
{
	struct sb_kernel_arm_ctx *c = ctx;
	long bi = sb_batch_index(c->batches, c->n_batches, batch);
	if (bi < 0 || sb_kernel_interrupted())
		return UINT64_MAX;
	const struct sb_kernel_obj *o = c->objs[c->load][bi];
	int fd = c->empty ? sb_kernel_empty_fd(o) : sb_kernel_prog_fd(o, c->shape, c->variant);
	int rc;
	uint64_t t = sb_kernel_run_timed(o, fd, c->cpu, runs_of, c, &c->runs[c->load][bi], &rc);
	if (rc != 0)
		c->last_error = rc;
	return t;
}

static void select_load(void *ctx, size_t state)
{
	struct sb_kernel_arm_ctx *c = ctx;
	c->load = state;
}

void sb_kernel_arms_build(struct sb_kernel_arms *a, struct sb_kernel_obj *const (*objs)[SB_MAX_BATCHES],
			  size_t n_loads, const uint64_t *batches, size_t n_batches, enum sb_kernel_shape shape,
			  const int want[SB_N_KVARIANTS], int cpu)
{
	memset(a, 0, sizeof(*a));
	for (int v = -1; v < SB_N_KVARIANTS; v++) {
		if (v > SB_KV_BASELINE && !want[v])
			continue;
		struct sb_kernel_arm_ctx *c = &a->ctx[a->n];
		struct sb_arm *arm = &a->arms[a->n];
		c->objs = objs;
		c->n_loads = n_loads;
		c->batches = batches;
		c->n_batches = n_batches;
		c->empty = v < 0;
		c->shape = shape;
		c->variant = v < 0 ? SB_KV_BASELINE : (enum sb_kernel_variant)v;
		c->cpu = cpu;
		arm->ctx = c;
		arm->sample = run_arm;
		arm->n_states = n_loads;
		arm->set_state = select_load;
		arm->ctx_size = sizeof(*c); /* runs per load and batch, checked against the maps */
		if (v < 0) {
			arm->name = arm->seed_name = "empty-driver";
			arm->is_overhead = 1;
		} else {
			sb_kernel_arm_name(v, shape, NULL, 0, a->names[v][0], sizeof(a->names[v][0]));
			sb_kernel_arm_name(v, shape, NULL, 1, a->names[v][1], sizeof(a->names[v][1]));
			arm->name = a->names[v][0];
			arm->seed_name = a->names[v][1];
			arm->is_baseline = v == SB_KV_BASELINE;
			sb_cell_key_set(&arm->key, SB_SIDE_KERNEL, "kernel", sb_kernel_variant_name(v), NULL, NULL,
					sb_kernel_shape_name(shape), arm->name);
		}
		a->n++;
	}
}

void sb_kernel_arms_read_counters(const struct sb_kernel_arms *a, uint64_t *out)
{
	const struct sb_kernel_arm_ctx *c = &a->ctx[0];
	for (size_t l = 0; l < c->n_loads; l++)
		for (size_t b = 0; b < c->n_batches; b++)
			for (int v = 0; v < SB_N_KVARIANTS; v++)
				out[(l * c->n_batches + b) * SB_N_KVARIANTS + v] =
					sb_kernel_hits(c->objs[l][b], c->shape, v);
}

int sb_kernel_arms_check_counters(const struct sb_kernel_arms *a, const uint64_t *before, char *err,
				  size_t errlen)
{
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_kernel_arm_ctx *c = &a->ctx[i];
		if (c->empty)
			continue;
		for (size_t l = 0; l < c->n_loads; l++)
			for (size_t b = 0; b < c->n_batches; b++) {
				uint64_t now = sb_kernel_hits(c->objs[l][b], c->shape, c->variant);
				uint64_t want = c->runs[l][b] * c->batches[b];
				uint64_t got = now - before[(l * c->n_batches + b) * SB_N_KVARIANTS + c->variant];
				if (got != want) {
					snprintf(err, errlen,
						 "%s (load %zu, batch %llu): counter advanced by %llu, expected %llu runs x %llu",
						 sb_kernel_prog_name(c->shape, c->variant), l + 1,
						 (unsigned long long)c->batches[b], (unsigned long long)got,
						 (unsigned long long)c->runs[l][b], (unsigned long long)c->batches[b]);
					return -1;
				}
			}
	}
	return 0;
}

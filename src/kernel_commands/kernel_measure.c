/* kernel_measure.c: the measurement of `stubbench kernel`'s built-in
 * shapes (kernel_run_state.h): per shape, the kernel's programs (over all
 * loads), the twins placed like the loads, and the aligned twins, measured
 * in one run so that their processes take turns, then every counter
 * checked against the iterations run. */
#include "base/error.h"
#include "kernel_run_state.h"

#include <string.h>

#include "stats/blocks_log.h"
#include "variants/percpu.h"
#include "kernel/signals.h"
#include "variants/twin_variants.h"

/* The twins and the twins placed like the loads run the same code, so
 * they count on the same counters, and their processes take turns: each
 * counter must have advanced by the iterations of both (the placed arms
 * are copies of the twins' variants). In each fresh process, after its
 * blocks (with the private stacks' guard words), and at the end (the
 * guards then checked once by the caller). */
struct twin_sides {
	const struct sb_variant_arms *twins;
	const struct sb_placed_arms *placed; /* NULL: not measured */
};

static int twin_sides_counters(const struct twin_sides *t, char *err, size_t errlen)
{
	return sb_variant_arms_check_counters_with(t->twins, t->placed ? sb_placed_arms_iterations_on : NULL,
						   t->placed, err, errlen);
}

static int twin_sides_check(void *ctx, char *err, size_t errlen)
{
	if (twin_sides_counters(ctx, err, errlen) != 0)
		return -1;
	return sb_percpu_guards_intact(err, errlen);
}

/* The parts of one run, measured in one sb_run_arm_sets so that the
 * processes of each take turns and every part spans the whole run: per
 * shape, the kernel's programs, the twins placed like the loads, the
 * aligned twins. */
struct kernel_parts {
	struct sb_arm_set part[3 * SB_N_SHAPES];
	struct sb_run_opts opts[3 * SB_N_SHAPES];
	size_t n;
	/* The kernel programs' counters before the run, per shape. */
	uint64_t before[SB_N_SHAPES][SB_MAX_COPIES * SB_MAX_BATCHES * SB_N_KVARIANTS];
	struct twin_sides sides[SB_N_SHAPES];
};

static void add_part(struct kernel_parts *kp, const struct sb_arm *arms, size_t n_arms,
		     const struct sb_run_opts *ro, int (*child_check)(void *, char *, size_t), void *check_ctx,
		     struct sb_results *out)
{
	struct sb_run_opts *o = &kp->opts[kp->n];
	*o = *ro;
	o->child_check = child_check;
	o->check_ctx = check_ctx;
	kp->part[kp->n++] = (struct sb_arm_set){.arms = arms, .n_arms = n_arms, .opts = o, .out = out};
}

static void add_kernel(struct kernel_run *r, enum sb_kernel_shape s, int cpu, const struct sb_run_opts *ro,
		       struct kernel_parts *kp)
{
	struct sb_kernel_arms *ka = &r->karms[s];
	sb_kernel_arms_build(ka, r->objs, (size_t)r->cfg.kernel.loads, r->cfg.measure.batches, r->cfg.measure.n_batches, s, r->kwant[s],
			     cpu);
	sb_kernel_arms_read_counters(ka, kp->before[s]);
	add_part(kp, ka->arms, ka->n, ro, NULL, NULL, &r->kres[s]);
}

/* The placed twins' normal stack: their rbp frame at the page offset of
 * the kernel's, as the driver runs its programs (stack_offset_probe.h),
 * in every block; where that offset is not known (not read, or not the
 * same in every run), at a random pad per block like the other parts. The
 * kernel's arms and the aligned twins keep the random pad: the aligned
 * twins stand for the codegen at any stack placement, as the replicas do,
 * and the kernel arms' own user stack is not the kernel's. */
static void place_stack(struct kernel_run *r, enum sb_kernel_shape s, struct sb_run_opts *po, FILE *info)
{
	const struct sb_stack_offset_probe *p = &r->stack_probe;
	r->placed_frame[s] = -1;
	if (!r->stack_probed || p->page_offset < 0) {
		fprintf(info, "placed twins (%s): normal stack at a random page offset per block "
			"(the kernel's not known)\n", sb_kernel_shape_name(s));
		return;
	}
	unsigned got;
	po->stack_rsp_offset = sb_placed_stack_target((unsigned)p->page_offset, &got);
	po->fixed_stack = 1;
	r->placed_frame[s] = (int)got;
	if (got == (unsigned)p->page_offset)
		fprintf(info, "placed twins (%s): rbp frame at page offset %#x, the kernel's\n",
			sb_kernel_shape_name(s), got);
	else
		fprintf(info, "placed twins (%s): rbp frame at page offset %#x, %d bytes below the kernel's %#x\n",
			sb_kernel_shape_name(s), got, (p->page_offset - (int)got) & 4095, (unsigned)p->page_offset);
}

static int add_placed(struct kernel_run *r, enum sb_kernel_shape s, const struct sb_run_opts *ro,
		      struct kernel_parts *kp, FILE *info)
{
	char err[512];
	for (int copy = 0; copy < (int)r->cfg.kernel.loads; copy++)
		for (size_t b = 0; b < r->cfg.measure.n_batches; b++)
			if (sb_twin_place_like(r->objs[copy][b], s, r->kwant[s], copy + 1, &r->placed[s][copy][b], err,
					       sizeof(err)) != 0) {
				fprintf(stderr, "stubbench kernel: placing the twins like load %d: %s\n", copy + 1, err);
				return SB_KERNEL_FAILED;
			}
	struct sb_placed_arms *pa = &r->parms[s];
	sb_placed_arms_build(pa, r->placed[s], (size_t)r->cfg.kernel.loads, r->cfg.measure.batches, r->cfg.measure.n_batches, s,
			     r->kwant[s]);
	kp->sides[s].placed = pa;
	struct sb_run_opts po = *ro;
	place_stack(r, s, &po, info);
	add_part(kp, pa->arms, pa->n, &po, twin_sides_check, &kp->sides[s], &r->pres[s]);
	return SB_KERNEL_OK;
}

static int add_twins(struct kernel_run *r, enum sb_kernel_shape s, const struct sb_run_opts *ro,
		     struct kernel_parts *kp)
{
	char err[512];
	const struct sb_variant *base = sb_twin_variant(sb_kernel_shape_name(s), "baseline");
	const struct sb_variant *others[SB_N_KVARIANTS];
	size_t n_others = 0;
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++)
		if (r->plan.want[v])
			others[n_others++] = sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v));
	for (size_t i = 0; i < n_others; i++)
		if (!others[i] || !base) {
			fprintf(stderr, "stubbench kernel: a twin variant of the %s shape is missing from the registry\n",
				sb_kernel_shape_name(s));
			return SB_KERNEL_FAILED;
		}
	struct sb_variant_arms *ta = &r->tarms[s];
	if (sb_variant_arms_build(ta, base, others, n_others, err, sizeof(err)) != 0) {
		fprintf(stderr, "stubbench kernel: %s twins: %s\n", sb_kernel_shape_name(s), err);
		return SB_KERNEL_FAILED;
	}
	/* The twins' arms carry the kernel run's names ("private-per-run-twin"). */
	for (size_t i = 0; i < ta->n; i++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			if (ta->ctx[i].v && ta->ctx[i].v == sb_twin_variant(sb_kernel_shape_name(s), sb_kernel_variant_name(v))) {
				sb_kernel_arm_name(v, s, "twin", 0, r->twin_names[s][v][0], sizeof(r->twin_names[s][v][0]));
				sb_kernel_arm_name(v, s, "twin", 1, r->twin_names[s][v][1], sizeof(r->twin_names[s][v][1]));
				ta->arms[i].name = r->twin_names[s][v][0];
				ta->arms[i].seed_name = r->twin_names[s][v][1];
			}
	kp->sides[s].twins = ta;
	add_part(kp, ta->arms, ta->n, ro, twin_sides_check, &kp->sides[s], &r->tres[s]);
	return SB_KERNEL_OK;
}

/* Every part of every shape, then their counters: the kernel programs'
 * advanced by exactly runs x batch_iters, the twins' (copied back from the
 * processes) by the iterations they ran. */
int kernel_run_measure(struct kernel_run *r, int cpu, int can_place, const struct sb_run_opts *ro, FILE *info)
{
	static struct kernel_parts kp;
	char err[512];
	memset(&kp, 0, sizeof(kp));
	for (int s = 0; s < SB_N_SHAPES; s++) {
		if (!r->plan.shapes[s])
			continue;
		add_kernel(r, s, cpu, ro, &kp);
		int arc = can_place ? add_placed(r, s, ro, &kp, info) : SB_KERNEL_OK;
		if (arc == SB_KERNEL_OK)
			arc = add_twins(r, s, ro, &kp);
		if (arc != SB_KERNEL_OK)
			return arc;
	}
	/* The kept blocks, for the figures load by load. */
	sb_blocks_log_collect(&r->blocks);
	int rrc = sb_run_arm_sets(kp.part, kp.n, err, sizeof(err));
	sb_blocks_log_collect(NULL);
	if (sb_blocks_log_collect_failed()) {
		fprintf(stderr, "stubbench kernel: out of memory collecting the blocks: no figures load by load\n");
		sb_block_table_free(&r->blocks);
	}
	if (rrc != 0) {
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
		if (rrc == SB_RUN_TOO_SHORT) {
			fprintf(stderr, "stubbench kernel: --time: %s\n", err);
			return SB_KERNEL_USAGE;
		}
		for (int s = 0; s < SB_N_SHAPES; s++)
			for (size_t i = 0; r->plan.shapes[s] && i < r->karms[s].n; i++)
				if (r->karms[s].ctx[i].last_error)
					snprintf(err, sizeof(err), "BPF_PROG_TEST_RUN failed: %s",
						 sb_errno_cause(-r->karms[s].ctx[i].last_error));
		fprintf(stderr, "stubbench kernel: measurement failed: %s\n", err);
		return SB_KERNEL_FAILED;
	}
	for (int s = 0; s < SB_N_SHAPES; s++) {
		if (!r->plan.shapes[s])
			continue;
		if (sb_kernel_arms_check_counters(&r->karms[s], kp.before[s], err, sizeof(err)) != 0 ||
		    twin_sides_counters(&kp.sides[s], err, sizeof(err)) != 0) {
			fprintf(stderr, "stubbench kernel: %s\n", err);
			return SB_KERNEL_FAILED;
		}
		fprintf(info, "counters: every %s program of %d load%s advanced by exactly runs x batch_iters\n",
			sb_kernel_shape_name(s), (int)r->cfg.kernel.loads, (int)r->cfg.kernel.loads == 1 ? "" : "s");
	}
	return SB_KERNEL_OK;
}

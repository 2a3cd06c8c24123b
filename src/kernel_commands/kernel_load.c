/* kernel_load.c: the built-in programs of `stubbench kernel` loaded
 * (bench/bpf/private_stack_shapes.bpf.c, --loads copies per batch size),
 * tried once, their JIT checked against the twins, where their returns go
 * read, and all of it unloaded (kernel_run_state.h). */
#include "base/error.h"
#include "kernel_run_state.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/jit_check.h"
#include "kernel/jit_read.h"
#include "base/mitigations.h"
#include "kernel/private_stack_probe.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "kernel/return_thunk_resolve.h"
#include "jit/return_thunks.h"
#include "base/rng.h"
#include "session/session.h"
#include "kernel/signals.h"
#include "kernel/spacer.h"

/* Where the JIT put each function (offset in its page), and each private
 * frame (its page offset): both differ from load to load. */
static void print_placement(const struct sb_kernel_obj *obj, uint64_t batch, int copy)
{
	fprintf(stderr, "stubbench kernel: placement of load %d, batch_iters=%llu (page offset):", copy + 1,
		(unsigned long long)batch);
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++) {
			struct sb_jit_image img;
			char err[256];
			if (sb_jit_read(sb_kernel_prog_fd(obj, s, v), &img, err, sizeof(err)))
				continue;
			for (size_t f = 0; f < img.n; f++) {
				uint64_t imm;
				fprintf(stderr, " %s.%s+%llu", img.prog_name, img.funcs[f].name,
					(unsigned long long)(img.funcs[f].ksym % 4096));
				/* Its private frame's page offset, which the placed twin's takes. */
				if (sb_jit_r9_setup(img.funcs[f].bytes, img.funcs[f].len, &imm) >= 0)
					fprintf(stderr, "(frame+%llu)", (unsigned long long)(imm % 4096));
			}
			sb_jit_image_free(&img);
		}
	fputc('\n', stderr);
}

/* --verbose: the ids of one loaded copy's programs, and where they sit. */
static void print_loaded(const struct sb_kernel_obj *obj, uint64_t batch, int copy)
{
	fprintf(stderr, "stubbench kernel: loaded batch_iters=%llu:", (unsigned long long)batch);
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			fprintf(stderr, " %s id=%u", sb_kernel_prog_name(s, v),
				sb_kernel_prog_id(sb_kernel_prog_fd(obj, s, v)));
	fprintf(stderr, " empty_driver id=%u\n", sb_kernel_prog_id(sb_kernel_empty_fd(obj)));
	print_placement(obj, batch, copy);
}

static uint64_t empty_runs(const struct sb_kernel_obj *o, const void *arg)
{
	(void)arg;
	return sb_kernel_empty_hits(o);
}

/* The programs, loads copies of them per batch size, each copy after a
 * spacer of 0-4 KB of JITed code, so that every load starts at a page
 * offset of its own (src/kernel/spacer.c). */
static enum sb_kernel_status load_copies(struct kernel_run *r)
{
	const struct sb_config *cfg = &r->cfg;
	char why[512];
	enum sb_kernel_status st;
	struct sb_rng rng;
	sb_rng_seed(&rng, sb_seed_stream(cfg->measure.seed, SB_SEED_SPACER, 0));
	for (int c = 0; c < (int)cfg->kernel.loads; c++)
	for (size_t i = 0; i < cfg->measure.n_batches; i++) {
		size_t spacer = (size_t)sb_rng_below(&rng, SB_KERNEL_SPACER_MAX_BYTES + 1);
		r->objs[c][i] = sb_kernel_load_as((uint32_t)cfg->measure.batches[i], spacer, r->driver, &st, why, sizeof(why));
		if (!r->objs[c][i]) {
			fprintf(stderr, "stubbench kernel: %s\n", why);
			return st;
		}
		r->n_objs[c]++;
		if (cfg->out.verbose)
			print_loaded(r->objs[c][i], cfg->measure.batches[i], c);
		if (sb_kernel_interrupted())
			return SB_KERNEL_INTERRUPTED;
	}
	return SB_KERNEL_OK;
}

enum sb_kernel_status kernel_run_check_jit(struct kernel_run *r, FILE *info, int *fatal)
{
	char why[512];
	size_t text_len;
	FILE *jit_text = open_memstream(&r->jit_check, &text_len);
	enum sb_kernel_status st = sb_kernel_check_jit(r->objs[0][0], r->plan.shapes, r->plan.want, r->cfg.kernel.dump_dir,
						       jit_text ? jit_text : info, r->no_priv, why, sizeof(why));
	/* Its lines are in the JSON; on the terminal with --verbose alone. */
	if (jit_text) {
		fclose(jit_text);
		if (r->cfg.out.verbose)
			fputs(r->jit_check, info);
	}
	/* A mismatch or unreadable bytes still measure, no JIT does not.
	 * Programs the kernel gave no private stack are left out of the
	 * kernel's arms, their twins still measured, and the probe says why
	 * in one line (private_stack_probe.h). */
	*fatal = st == SB_KERNEL_NO_JIT;
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			r->kwant[s][v] = (v == SB_KV_BASELINE || r->plan.want[v]) && !r->no_priv[s][v];
	if (st == SB_KERNEL_NO_PRIV_STACK) {
		r->probed = sb_kernel_say_no_private_stack(why, info, sb_session_notes(&r->cfg), &r->probe);
		sb_kernel_not_measured(r->no_priv, r->plan.shapes, r->probed ? &r->probe : NULL, r->not_measured,
				       sizeof(r->not_measured));
	} else if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
	}
	return st;
}

void kernel_run_unload(struct kernel_run *r)
{
	for (int c = 0; c < SB_MAX_COPIES; c++) {
		for (size_t i = 0; i < r->n_objs[c]; i++)
			sb_kernel_unload(r->objs[c][i]);
		r->n_objs[c] = 0;
	}
	free(r->jit_check);
	r->jit_check = NULL;
	r->not_measured[0] = 0;
	r->probed = 0;
}

/* One run of the empty driver (raw_tp: BPF_PROG_TEST_RUN; perf_event: a
 * page fault's event), to see the kernel runs the programs. */
static enum sb_kernel_status try_empty_driver(const struct kernel_run *r, int cpu)
{
	const struct sb_kernel_obj *obj = r->objs[0][0];
	if (r->driver == SB_DRIVER_RAW_TP) {
		int trc = sb_kernel_test_run(sb_kernel_empty_fd(obj), cpu);
		if (trc != 0) {
			fprintf(stderr, "stubbench kernel: BPF_PROG_TEST_RUN of a raw_tp program refused on CPU %d: %s\n",
				cpu, sb_errno_cause(-trc));
			return SB_KERNEL_NO_TEST_RUN;
		}
		return SB_KERNEL_OK;
	}
	uint64_t runs = 0;
	int rc;
	sb_kernel_run_timed(obj, sb_kernel_empty_fd(obj), cpu, empty_runs, NULL, &runs, &rc);
	if (rc != 0) {
		fprintf(stderr, "stubbench kernel: a perf_event program on a page-fault event does not run: %s\n",
			sb_errno_cause(-rc));
		return SB_KERNEL_NO_TEST_RUN;
	}
	return SB_KERNEL_OK;
}

enum sb_kernel_status kernel_run_load(struct kernel_run *r, int cpu)
{
	enum sb_kernel_status st = load_copies(r);
	if (st != SB_KERNEL_OK)
		return st;
	return try_empty_driver(r, cpu);
}

void kernel_run_aim_returns(struct kernel_run *r, FILE *info, struct sb_return_thunk *thunk)
{
	const struct sb_config *cfg = &r->cfg;
	sb_kernel_return_thunk(r->objs[0][0], r->plan.shapes, r->plan.want, cfg->out.verbose, info, thunk);
	fprintf(info, "returns: %s (%s)\n", sb_thunk_name(thunk->thunk), thunk->how);
	if (cfg->out.verbose)
		fprintf(stderr, "stubbench kernel: mitigations: spectre_v2 \"%s\"; retbleed \"%s\"; "
			"spec_rstack_overflow \"%s\"; indirect_target_selection \"%s\"\n", thunk->mit.spectre_v2,
			thunk->mit.retbleed, thunk->mit.spec_rstack_overflow, thunk->mit.indirect_target_selection);
	/* The thunk replicas against the kernel's own code. */
	sb_kernel_check_thunks(info);
	sb_session_aim_twin_returns(cfg, "stubbench kernel", thunk, info);
}

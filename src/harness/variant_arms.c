/* variant_arms.c: arms that time asm variants; see variant_arms.h. */
#include "harness/variant_arms.h"

#include <stdio.h>
#include <string.h>

#include "base/code_symbols.h"
#include "variants/percpu.h"
#include "stubbench/timer.h"

int sb_variant_arms_mark_copy(struct sb_variant_arms *a, const struct sb_variant *copy,
			      const struct sb_variant *original, unsigned index)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->ctx[i].v == copy) {
			sb_variant_key(original, &a->arms[i].key);
			a->arms[i].key.placement = (int)index;
			return 0;
		}
	return -1;
}

static uint64_t sample_variant(void *p, uint64_t batch)
{
	struct sb_variant_arm_ctx *c = p;
	c->iterations += batch;
	return sb_time_variant(c->cur, batch);
}

static void select_copy(void *p, size_t state)
{
	struct sb_variant_arm_ctx *c = p;
	c->cur = c->copies[state];
}

int sb_variant_arms_set_states(struct sb_variant_arms *a, const struct sb_variant *v,
			       const struct sb_variant *const *copies, size_t n)
{
	for (size_t i = 0; i < a->n; i++)
		if (a->ctx[i].v == v) {
			a->ctx[i].copies = copies;
			a->arms[i].n_states = n;
			a->arms[i].set_state = n ? select_copy : NULL;
			return 0;
		}
	return -1;
}

static uint64_t sample_overhead(void *p, uint64_t batch)
{
	struct sb_variant_arm_ctx *c = p;
	return sb_time_calls(sb_empty_stub, c->in_loop ? 1 : batch);
}

static int add(struct sb_variant_arms *a, const struct sb_variant *v, int in_loop, int baseline)
{
	if (a->n > SB_MAX_ARMS)
		return -1;
	struct sb_variant_arm_ctx *c = &a->ctx[a->n];
	struct sb_arm *arm = &a->arms[a->n];
	memset(c, 0, sizeof(*c));
	memset(arm, 0, sizeof(*arm));
	c->v = v;
	c->cur = v;
	c->in_loop = in_loop;
	arm->ctx = c;
	if (v) {
		c->counter_start = v->counter ? *v->counter : 0;
		arm->name = v->name;
		arm->seed_name = v->seed_name;
		sb_variant_key(v, &arm->key);
		arm->sample = sample_variant;
		arm->is_baseline = baseline;
		/* The main prog's bytes, from its symbol (0, unknown, for a copy). */
		arm->code_bytes = sb_code_function_size((uintptr_t)v->main, NULL);
	} else {
		arm->name = "overhead";
		arm->seed_name = "overhead";
		arm->sample = sample_overhead;
		arm->is_overhead = 1;
	}
	a->n++;
	return 0;
}

int sb_variant_arms_build(struct sb_variant_arms *a, const struct sb_variant *baseline,
			  const struct sb_variant *const *others, size_t n_others, char *err,
			  size_t errlen)
{
	memset(a, 0, sizeof(*a));
	const struct sb_variant *first = baseline ? baseline : (n_others ? others[0] : NULL);
	if (!first) {
		snprintf(err, errlen, "no variant to measure");
		return -1;
	}
	if (n_others + 1 > SB_MAX_ARMS) {
		snprintf(err, errlen, "too many variants (at most %d)", SB_MAX_ARMS - 1);
		return -1;
	}
	int in_loop = first->batch_iters != NULL;
	for (size_t i = 0; i < n_others; i++)
		if ((others[i]->batch_iters != NULL) != in_loop) {
			snprintf(err, errlen, "variants '%s' and '%s' have different shapes (%s, %s)",
				 first->name, others[i]->name, first->shape, others[i]->shape);
			return -1;
		}
	add(a, NULL, in_loop, 0);
	if (baseline)
		add(a, baseline, in_loop, 1);
	for (size_t i = 0; i < n_others; i++)
		if (others[i] != baseline)
			add(a, others[i], in_loop, 0);
	/* Each arm's padded baseline, when it is one of the arms; a lab
	 * alternative's reference, its group's mainline (the placement
	 * control's is the baseline alone: it has the baseline's bytes). */
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_variant *p = sb_variant_padded_baseline_of(a->ctx[i].v);
		for (size_t k = 0; p && k < a->n; k++)
			if (a->ctx[k].v == p)
				a->arms[i].padded_baseline = &a->arms[k];
		const struct sb_cell_key *key = &a->arms[i].key;
		if (key->side != SB_SIDE_LAB || !strcmp(key->codegen, "mainline") || !strcmp(key->codegen, "baseline") ||
		    !strcmp(key->codegen, "placement-control"))
			continue;
		for (size_t k = 0; k < a->n; k++)
			if (k != i && a->arms[k].key.side == SB_SIDE_LAB && !strcmp(a->arms[k].key.codegen, "mainline") &&
			    !strcmp(a->arms[k].key.ret, key->ret) && !strcmp(a->arms[k].key.shape, key->shape))
				a->arms[i].reference = &a->arms[k];
	}
	return 0;
}

int sb_variant_arms_check_counters_with(const struct sb_variant_arms *a,
					uint64_t (*also)(const void *ctx, const volatile uint64_t *counter),
					const void *also_ctx, char *err, size_t errlen)
{
	/* Copies of a variant at other code placements share its counter: the
	 * counter must have advanced by the iterations of all its arms, and
	 * of the arms elsewhere that run the same code (also). */
	for (size_t i = 0; i < a->n; i++) {
		const struct sb_variant_arm_ctx *c = &a->ctx[i];
		if (!c->v || !c->v->counter) /* a twin with no counter found (diff_twin.h) */
			continue;
		int first = 1;
		uint64_t iterations = also ? also(also_ctx, c->v->counter) : 0;
		for (size_t k = 0; k < a->n; k++) {
			const struct sb_variant_arm_ctx *o = &a->ctx[k];
			if (!o->v || o->v->counter != c->v->counter)
				continue;
			if (k < i)
				first = 0;
			iterations += o->iterations;
		}
		if (!first)
			continue;
		uint64_t got = *c->v->counter - c->counter_start;
		if (got != iterations) {
			snprintf(err, errlen, "%s: counter advanced by %llu, expected %llu iterations",
				 c->v->name, (unsigned long long)got, (unsigned long long)iterations);
			return -1;
		}
	}
	return 0;
}

int sb_variant_arms_check_counters(const struct sb_variant_arms *a, char *err, size_t errlen)
{
	return sb_variant_arms_check_counters_with(a, NULL, NULL, err, errlen);
}

int sb_variant_arms_child_check(void *a, char *err, size_t errlen)
{
	if (sb_variant_arms_check_counters(a, err, errlen) != 0)
		return -1;
	return sb_percpu_guards_intact(err, errlen);
}

/* test_cell_key.c: every registry variant's arm gets the key its record
 * says (side, family, codegen, flavour, return, shape), a copy at a
 * placement its original's key with the placement, and the key
 * comparisons tell code and placement apart. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "variants/lab_variants.h"
#include "stubbench/registry.h"
#include "harness/variant_arms.h"

/* The variants that are not the lab's, and the codegen each one is. */
static const char *const seed_codegen[][2] = {
	{"baseline", "baseline"},
	{"private", "private"},
	{"hybrid", "hybrid"},
	{"host-baseline", "baseline"},
	{"host-private", "private"},
	{"host-hybrid", "hybrid"},
	{"twin-per-run-baseline", "baseline"},
	{"twin-per-run-private", "private"},
	{"twin-per-run-hybrid", "hybrid"},
	{"twin-in-loop-baseline", "baseline"},
	{"twin-in-loop-private", "private"},
	{"twin-in-loop-hybrid", "hybrid"},
};
#define N_SEED (sizeof(seed_codegen) / sizeof(seed_codegen[0]))

static void registry_keys(void)
{
	size_t n_lab = 0, n_seed = 0, rets[SB_LAB_N_RETURNS] = {0};
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		struct sb_cell_key k;
		sb_variant_key(v, &k);
		CHECK(strcmp(k.family, v->family) == 0 && strcmp(k.shape, v->shape) == 0 &&
		      strcmp(k.flavour, v->flavour_name) == 0 && k.placement == -1 && strcmp(k.origin, v->name) == 0,
		      "%s: family, shape, flavour or placement", v->name);
		const struct sb_lab_info *li = sb_lab_info_of(v);
		if (li) {
			n_lab++;
			rets[li->ret]++;
			CHECK(k.side == SB_SIDE_LAB && strcmp(k.codegen, sb_lab_alt_name(li->alt)) == 0 &&
			      strcmp(k.ret, sb_lab_return_name(li->ret)) == 0, "%s: lab key %s %s", v->name, k.codegen,
			      k.ret);
			continue;
		}
		for (size_t s = 0; s < N_SEED; s++) {
			if (strcmp(v->name, seed_codegen[s][0]) != 0)
				continue;
			n_seed++;
			int twin = strcmp(v->family, "twin") == 0;
			CHECK(strcmp(k.codegen, seed_codegen[s][1]) == 0, "%s: codegen %s", v->name, k.codegen);
			CHECK(k.side == (twin ? SB_SIDE_TWIN : SB_SIDE_REPLICA), "%s: side %d", v->name, k.side);
			/* The seed's flavour returns with ret, the v6.18 ones through a thunk. */
			CHECK(strcmp(k.ret, strcmp(v->family, "replica") == 0 ? "ret" : "rethunk") == 0, "%s: return %s",
			      v->name, k.ret);
		}
	}
	CHECK(n_seed == N_SEED, "%zu of %zu seed and twin variants found", n_seed, N_SEED);
	CHECK(n_lab == sb_lab_count() && n_lab > 0, "lab variants");
	for (int r = 0; r < SB_LAB_N_RETURNS; r++)
		CHECK(rets[r] > 0, "no lab variant returns with %s", sb_lab_return_name(r));
}

static void copies_and_comparison(void)
{
	const struct sb_variant *base = sb_variant_find("baseline"), *priv = sb_variant_find("private");
	CHECK(base && priv, "seed replicas");
	if (!base || !priv)
		return;
	/* A copy of private (its record, renamed) gets private's key at placement 2. */
	struct sb_variant copy = *priv;
	copy.name = "private@p2";
	const struct sb_variant *others[] = {&copy};
	struct sb_variant_arms a;
	char err[256];
	CHECK(sb_variant_arms_build(&a, base, others, 1, err, sizeof(err)) == 0, "%s", err);
	CHECK(a.arms[0].key.side == SB_SIDE_NONE, "the overhead arm has a key");
	CHECK(sb_variant_arms_mark_copy(&a, &copy, priv, 2) == 0, "no arm for the copy");
	CHECK(sb_variant_arms_mark_copy(&a, priv, priv, 2) == -1, "an arm for a variant not in the run");
	const struct sb_cell_key *kc = &a.arms[2].key;
	CHECK(kc->placement == 2 && strcmp(kc->codegen, "private") == 0 && strcmp(kc->origin, "private") == 0,
	      "copy key: %s %d %s", kc->codegen, kc->placement, kc->origin);
	struct sb_cell_key kp;
	sb_variant_key(priv, &kp);
	CHECK(sb_cell_key_same_code(kc, &kp) && !sb_cell_key_equal(kc, &kp), "copy vs original");
	CHECK(!sb_cell_key_same_code(&a.arms[1].key, &kp), "baseline and private the same code");
	struct sb_cell_key none = {0};
	CHECK(!sb_cell_key_same_code(&none, &none), "two cells without keys the same");
	/* Side names go both ways. */
	for (int s = SB_SIDE_NONE + 1; s < SB_N_SIDES; s++)
		CHECK(sb_cell_side_from_name(sb_cell_side_name(s)) == (enum sb_cell_side)s, "side %d", s);
	CHECK(sb_cell_side_from_name("nope") == SB_SIDE_NONE && sb_cell_side_name(SB_SIDE_NONE) == NULL, "no side");
}

int main(void)
{
	registry_keys();
	copies_and_comparison();
	return check_report("cell_key");
}

/* kernel_report.c: replica twin vs kernel, like with like. For each batch
 * size, the cost that private and hybrid add to baseline, in core cycles
 * per iteration, with 95 % CIs, from the twin (user space) and from the
 * kernel (BPF_PROG_TEST_RUN, syscall removed), and whether they agree. */
#include "stubbench/kernel_report.h"
#include "stubbench/loader.h"

#include "stubbench/json_writer.h"

#include <math.h>
#include <string.h>

/* The cell of r at batch whose arm is variant v of shape on side. */
static const struct sb_cell *find(const struct sb_results *r, enum sb_cell_side side, enum sb_kernel_shape shape,
				  int v, uint64_t batch)
{
	for (size_t i = 0; r && i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->batch == batch && c->arm && c->arm->key.side == side &&
		    strcmp(c->arm->key.shape, sb_kernel_shape_name(shape)) == 0 &&
		    strcmp(c->arm->key.codegen, sb_kernel_variant_name(v)) == 0)
			return c;
	}
	return NULL;
}

/* Variant v's cost added to the baseline of the same side, cycles per
 * iteration: its delta (% of the baseline) scaled by the baseline's mean. */
static struct sb_estimate side_delta(const struct sb_results *r, enum sb_cell_side side, enum sb_kernel_shape shape,
				     int v, uint64_t batch)
{
	const struct sb_cell *c = find(r, side, shape, v, batch), *base = find(r, side, shape, SB_KV_BASELINE, batch);
	if (!c || !base)
		return sb_estimate_absent("not measured");
	return sb_estimate_pct_to_cycles(&c->delta_pct, base->cycles.mean);
}

struct range {
	double min, max;
	int n;
};

static void range_add(struct range *r, double d)
{
	if (!r->n || d < r->min)
		r->min = d;
	if (!r->n || d > r->max)
		r->max = d;
	r->n++;
}

static void fmt_delta(char *buf, size_t len, const struct sb_estimate *e)
{
	if (sb_estimate_known(e))
		snprintf(buf, len, "%+6.2f [%+.2f, %+.2f]", e->value, e->lo, e->hi);
	else
		snprintf(buf, len, "n/a");
}

static void fmt_range(char *buf, size_t len, const struct range *r)
{
	if (r->n > 1)
		snprintf(buf, len, "%+.2f .. %+.2f", r->min, r->max);
	else
		snprintf(buf, len, "-");
}

void sb_kernel_report_side_by_side(FILE *f, enum sb_kernel_shape shape,
				   const struct sb_results *const *kernel, size_t n_loads,
				   const struct sb_results *t, const struct sb_results *const *placed)
{
	const char *sh = sb_kernel_shape_name(shape);
	fprintf(f, "\n# %s shape: cost added to baseline, core cycles per iteration (95 %% CI)\n", sh);
	fprintf(f, "# twin: 64-byte aligned; placed: twin copies at the page offsets the kernel gave the same\n"
		   "# functions, over the loads; kernel: over the loads (each load at its own address);\n"
		   "# verdict: placed twin vs kernel (CIs overlap)\n");
	if (n_loads > 1)
		fprintf(f, "%-8s %-6s %-24s %-24s %-24s %-16s %-16s %s\n", "variant", "batch", "twin",
			"placed like load 1", "kernel load 1", "placed, range", "kernel, range", "verdict");
	else
		fprintf(f, "%-8s %-6s %-24s %-24s %-24s %s\n", "variant", "batch", "twin", "placed like the loads",
			"kernel, loads", "verdict");
	const struct sb_results *k0 = kernel[0];
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++) {
		for (size_t b = 0; b < k0->n_batches; b++) {
			uint64_t batch = k0->cells[b].batch;
			struct sb_estimate td = side_delta(t, SB_SIDE_TWIN, shape, v, batch);
			struct range kr = {0, 0, 0}, pr = {0, 0, 0};
			struct sb_estimate k1 = sb_estimate_absent(NULL), p1 = sb_estimate_absent(NULL);
			int agree = 0, compared = 0;
			double gap_max = 0;
			for (size_t l = 0; l < n_loads; l++) {
				struct sb_estimate kd = side_delta(kernel[l], SB_SIDE_KERNEL, shape, v, batch);
				struct sb_estimate pd = placed && placed[l]
								? side_delta(placed[l], SB_SIDE_PLACED_TWIN, shape, v, batch)
								: sb_estimate_absent("not measured");
				int kok = sb_estimate_known(&kd), pok = sb_estimate_known(&pd);
				if (kok)
					range_add(&kr, kd.value);
				if (pok)
					range_add(&pr, pd.value);
				if (l == 0)
					k1 = kd, p1 = pd;
				if (kok && pok) {
					compared++;
					if (kd.lo <= pd.hi && pd.lo <= kd.hi)
						agree++;
					else
						gap_max = fmax(gap_max, pd.lo > kd.hi ? pd.lo - kd.hi : kd.lo - pd.hi);
				}
			}
			char ts[48], ps[48], ks[48], prs[32], krs[32], verdict[128] = "-";
			fmt_delta(ts, sizeof(ts), &td);
			fmt_delta(ps, sizeof(ps), &p1);
			fmt_delta(ks, sizeof(ks), &k1);
			fmt_range(prs, sizeof(prs), &pr);
			fmt_range(krs, sizeof(krs), &kr);
			/* Over several loads also: do the two ranges overlap? */
			char ranges[48] = "";
			if (kr.n > 1 && pr.n > 1)
				snprintf(ranges, sizeof(ranges), "; ranges %s",
					 kr.min <= pr.max && pr.min <= kr.max ? "overlap" : "DO NOT overlap");
			if (compared == agree && compared)
				snprintf(verdict, sizeof(verdict), "agree%s", ranges);
			else if (compared)
				snprintf(verdict, sizeof(verdict), "DISAGREE (by %.2f cycles)%s", gap_max, ranges);
			if (n_loads > 1)
				fprintf(f, "%-8s %-6llu %-24s %-24s %-24s %-16s %-16s %s\n", sb_kernel_variant_name(v),
					(unsigned long long)batch, ts, ps, ks, prs, krs, verdict);
			else
				fprintf(f, "%-8s %-6llu %-24s %-24s %-24s %s\n", sb_kernel_variant_name(v),
					(unsigned long long)batch, ts, ps, ks, verdict);
		}
	}
}

static void json_delta(FILE *f, const char *key, const struct sb_estimate *e)
{
	fprintf(f, ", \"%s\": ", key);
	if (!sb_estimate_known(e)) {
		fputs("null", f);
		return;
	}
	fputs("{\"delta_cycles\": ", f);
	sb_json_number(f, e->value);
	fputs(", \"ci95\": [", f);
	sb_json_number(f, e->lo);
	fputs(", ", f);
	sb_json_number(f, e->hi);
	fputs("]}", f);
}

void sb_kernel_report_json(FILE *f, enum sb_kernel_shape shape, const struct sb_results *kernel,
			   const struct sb_results *t, const struct sb_results *placed, int *first)
{
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++)
		for (size_t b = 0; b < kernel->n_batches && b < kernel->n_cells; b++) {
			uint64_t batch = kernel->cells[b].batch;
			struct sb_estimate twin = side_delta(t, SB_SIDE_TWIN, shape, v, batch);
			struct sb_estimate pl = placed ? side_delta(placed, SB_SIDE_PLACED_TWIN, shape, v, batch)
						       : sb_estimate_absent("not measured");
			struct sb_estimate k = side_delta(kernel, SB_SIDE_KERNEL, shape, v, batch);
			fprintf(f, "%s{\"shape\": \"%s\", \"variant\": \"%s\", \"batch\": %llu", *first ? "\n      " : ",\n      ",
				sb_kernel_shape_name(shape), sb_kernel_variant_name(v), (unsigned long long)batch);
			*first = 0;
			json_delta(f, "twin", &twin);
			json_delta(f, "placed", &pl);
			json_delta(f, "kernel", &k);
			/* As the table's verdict: placed twin vs kernel, CIs overlap. */
			fputs(", \"verdict\": ", f);
			if (!sb_estimate_has_ci(&pl) || !sb_estimate_has_ci(&k))
				fputs("null", f);
			else
				fputs(k.lo <= pl.hi && pl.lo <= k.hi ? "\"agree\"" : "\"disagree\"", f);
			fputs("}", f);
		}
}

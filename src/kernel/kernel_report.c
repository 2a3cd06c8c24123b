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

/* Absolute delta to baseline (cycles per iteration) from the ratio and its
 * bootstrap CI, scaled by the baseline's mean cost. */
static int delta(const struct sb_cell *c, const struct sb_cell *base, double *d, double *lo, double *hi)
{
	if (!c || !base || !c->has_delta)
		return -1;
	double b = base->cycles.mean;
	*d = b * c->delta_pct / 100.0;
	*lo = b * c->delta_lo_pct / 100.0;
	*hi = b * c->delta_hi_pct / 100.0;
	return 0;
}

/* Variant v's delta to the baseline of the same side. */
static int side_delta(const struct sb_results *r, enum sb_cell_side side, enum sb_kernel_shape shape, int v,
		      uint64_t batch, double *d, double *lo, double *hi)
{
	return delta(find(r, side, shape, v, batch), find(r, side, shape, SB_KV_BASELINE, batch), d, lo, hi);
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

static void fmt_delta(char *buf, size_t len, int ok, double d, double lo, double hi)
{
	if (ok)
		snprintf(buf, len, "%+6.2f [%+.2f, %+.2f]", d, lo, hi);
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
			double td = 0, tlo = 0, thi = 0;
			int tok = side_delta(t, SB_SIDE_TWIN, shape, v, batch, &td, &tlo, &thi) == 0;
			struct range kr = {0, 0, 0}, pr = {0, 0, 0};
			double k1[3] = {0}, p1[3] = {0};
			int k1ok = 0, p1ok = 0, agree = 0, compared = 0;
			double gap_max = 0;
			for (size_t l = 0; l < n_loads; l++) {
				double kd, klo, khi, pd = 0, plo = 0, phi = 0;
				int kok = side_delta(kernel[l], SB_SIDE_KERNEL, shape, v, batch, &kd, &klo, &khi) == 0;
				int pok = placed && placed[l] &&
					  side_delta(placed[l], SB_SIDE_PLACED_TWIN, shape, v, batch, &pd, &plo, &phi) == 0;
				if (kok)
					range_add(&kr, kd);
				if (pok)
					range_add(&pr, pd);
				if (l == 0 && kok)
					k1[0] = kd, k1[1] = klo, k1[2] = khi, k1ok = 1;
				if (l == 0 && pok)
					p1[0] = pd, p1[1] = plo, p1[2] = phi, p1ok = 1;
				if (kok && pok) {
					compared++;
					if (klo <= phi && plo <= khi)
						agree++;
					else
						gap_max = fmax(gap_max, plo > khi ? plo - khi : klo - phi);
				}
			}
			char ts[48], ps[48], ks[48], prs[32], krs[32], verdict[128] = "-";
			fmt_delta(ts, sizeof(ts), tok, td, tlo, thi);
			fmt_delta(ps, sizeof(ps), p1ok, p1[0], p1[1], p1[2]);
			fmt_delta(ks, sizeof(ks), k1ok, k1[0], k1[1], k1[2]);
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

static void json_delta(FILE *f, const char *key, int ok, double d, double lo, double hi)
{
	fprintf(f, ", \"%s\": ", key);
	if (!ok) {
		fputs("null", f);
		return;
	}
	fputs("{\"delta_cycles\": ", f);
	sb_json_number(f, d);
	fputs(", \"ci95\": [", f);
	sb_json_number(f, lo);
	fputs(", ", f);
	sb_json_number(f, hi);
	fputs("]}", f);
}

void sb_kernel_report_json(FILE *f, enum sb_kernel_shape shape, const struct sb_results *kernel,
			   const struct sb_results *t, const struct sb_results *placed, int *first)
{
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++)
		for (size_t b = 0; b < kernel->n_batches && b < kernel->n_cells; b++) {
			uint64_t batch = kernel->cells[b].batch;
			double d[3][3] = {{0}};
			int ok[3];
			ok[0] = side_delta(t, SB_SIDE_TWIN, shape, v, batch, &d[0][0], &d[0][1], &d[0][2]) == 0;
			ok[1] = placed &&
				side_delta(placed, SB_SIDE_PLACED_TWIN, shape, v, batch, &d[1][0], &d[1][1], &d[1][2]) == 0;
			ok[2] = side_delta(kernel, SB_SIDE_KERNEL, shape, v, batch, &d[2][0], &d[2][1], &d[2][2]) == 0;
			fprintf(f, "%s{\"shape\": \"%s\", \"variant\": \"%s\", \"batch\": %llu", *first ? "\n      " : ",\n      ",
				sb_kernel_shape_name(shape), sb_kernel_variant_name(v), (unsigned long long)batch);
			*first = 0;
			json_delta(f, "twin", ok[0], d[0][0], d[0][1], d[0][2]);
			json_delta(f, "placed", ok[1], d[1][0], d[1][1], d[1][2]);
			json_delta(f, "kernel", ok[2], d[2][0], d[2][1], d[2][2]);
			/* As the table's verdict: placed twin vs kernel, CIs overlap. */
			int have = ok[1] && ok[2] && isfinite(d[1][1]) && isfinite(d[1][2]) && isfinite(d[2][1]) &&
				   isfinite(d[2][2]);
			fputs(", \"verdict\": ", f);
			if (!have)
				fputs("null", f);
			else
				fputs(d[2][1] <= d[1][2] && d[1][1] <= d[2][2] ? "\"agree\"" : "\"disagree\"", f);
			fputs("}", f);
		}
}

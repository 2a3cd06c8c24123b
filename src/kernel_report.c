/* kernel_report.c: replica twin vs kernel, like with like. For each batch
 * size, the cost that private and hybrid add to baseline, in core cycles
 * per iteration, with 95 % CIs, from the twin (user space) and from the
 * kernel (BPF_PROG_TEST_RUN, syscall removed), and whether they agree. */
#include "stubbench/kernel.h"

#include <math.h>
#include <string.h>

static const struct sb_cell *find(const struct sb_results *r, const char *prefix, uint64_t batch)
{
	size_t plen = strlen(prefix);
	for (size_t i = 0; i < r->n_cells; i++) {
		const struct sb_cell *c = &r->cells[i];
		if (c->batch == batch && c->arm && strncmp(c->arm->name, prefix, plen) == 0)
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

void sb_kernel_report_side_by_side(FILE *f, enum sb_kernel_shape shape,
				   const struct sb_results *const *kernel, size_t n_loads,
				   const struct sb_results *t)
{
	const char *sh = sb_kernel_shape_name(shape);
	char twin_prefix[SB_N_KVARIANTS][48];
	for (int v = 0; v < SB_N_KVARIANTS; v++)
		snprintf(twin_prefix[v], sizeof(twin_prefix[v]), "twin-%s-%s", sh, sb_kernel_variant_name(v));
	fprintf(f, "\n# %s shape: cost added to baseline, core cycles per iteration (95 %% CI)\n", sh);
	if (n_loads > 1)
		fprintf(f, "%-8s %-7s  %-26s %-26s %-22s  %s\n", "variant", "batch", "replica twin",
			"kernel (load 1)", "kernel over loads", "verdict");
	else
		fprintf(f, "%-8s %-7s  %-26s %-26s  %s\n", "variant", "batch", "replica twin", "kernel", "verdict");
	const struct sb_results *k0 = kernel[0];
	for (int v = SB_KV_PRIVATE; v < SB_N_KVARIANTS; v++) {
		for (size_t b = 0; b < k0->n_batches; b++) {
			uint64_t batch = k0->cells[b].batch;
			const struct sb_cell *tb = find(t, twin_prefix[SB_KV_BASELINE], batch);
			const struct sb_cell *tc = find(t, twin_prefix[v], batch);
			double td = 0, tlo = 0, thi = 0;
			int tok = delta(tc, tb, &td, &tlo, &thi) == 0;
			/* Kernel: the first load, and the range over all loads. */
			double kd = 0, klo = 0, khi = 0, rmin = INFINITY, rmax = -INFINITY, rlo = INFINITY,
			       rhi = -INFINITY;
			int kok = 0;
			for (size_t l = 0; l < n_loads; l++) {
				const struct sb_cell *kb = find(kernel[l], sb_kernel_variant_name(SB_KV_BASELINE), batch);
				const struct sb_cell *kc = find(kernel[l], sb_kernel_variant_name(v), batch);
				double d, lo, hi;
				if (delta(kc, kb, &d, &lo, &hi) != 0)
					continue;
				if (l == 0) {
					kd = d, klo = lo, khi = hi;
					kok = 1;
				}
				rmin = fmin(rmin, d), rmax = fmax(rmax, d);
				rlo = fmin(rlo, lo), rhi = fmax(rhi, hi);
			}
			if (!kok && !tok)
				continue;
			char ks[64] = "n/a", ts[64] = "n/a", rs[64] = "";
			if (kok)
				snprintf(ks, sizeof(ks), "%+7.2f [%+.2f, %+.2f]", kd, klo, khi);
			if (tok)
				snprintf(ts, sizeof(ts), "%+7.2f [%+.2f, %+.2f]", td, tlo, thi);
			if (n_loads > 1 && rmin <= rmax)
				snprintf(rs, sizeof(rs), "%+.2f .. %+.2f", rmin, rmax);
			const char *verdict = "-";
			char vbuf[128];
			if (kok && tok) {
				double lo = n_loads > 1 ? rlo : klo, hi = n_loads > 1 ? rhi : khi;
				if (lo <= thi && tlo <= hi)
					verdict = n_loads > 1 ? "agree (twin inside the kernel's range over loads)"
							      : "agree (CIs overlap)";
				else {
					double gap = tlo > hi ? tlo - hi : lo - thi;
					snprintf(vbuf, sizeof(vbuf), "DISAGREE: kernel %s by %.2f cycles%s",
						 tlo > hi ? "lower" : "higher", gap,
						 n_loads > 1 ? " beyond its range over loads" : "");
					verdict = vbuf;
				}
			}
			if (n_loads > 1)
				fprintf(f, "%-8s %-7llu  %-26s %-26s %-22s  %s\n", sb_kernel_variant_name(v),
					(unsigned long long)batch, ts, ks, rs, verdict);
			else
				fprintf(f, "%-8s %-7llu  %-26s %-26s  %s\n", sb_kernel_variant_name(v),
					(unsigned long long)batch, ts, ks, verdict);
		}
	}
}

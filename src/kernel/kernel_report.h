/* kernel_report.h: the twins' and the kernel's deltas side by side. */
#ifndef STUBBENCH_KERNEL_REPORT_H
#define STUBBENCH_KERNEL_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "harness/harness.h"
#include "kernel/loader.h"

/* The cell of r at batch whose arm is variant v (enum sb_kernel_variant)
 * of shape on side, or NULL. */
const struct sb_cell *sb_kernel_report_cell(const struct sb_results *r, enum sb_cell_side side,
					    enum sb_kernel_shape shape, int v, uint64_t batch);

/* Side-by-side report (kernel_report.c): per batch, replica twin delta vs
 * kernel delta (private and hybrid against baseline) in core cycles per
 * iteration with their 95 % CIs, and a verdict. With several loads of the
 * programs (kernel[0..n_loads-1], each at its own code address), the
 * kernel's range over the loads is shown and the verdict is whether the
 * twin falls inside it. placed (may be NULL): the twins placed like each
 * load (same order as kernel), shown as a range and compared load by load. */
void sb_kernel_report_side_by_side(FILE *f, enum sb_kernel_shape shape,
				   const struct sb_results *const *kernel, size_t n_loads,
				   const struct sb_results *twin, const struct sb_results *const *placed);

/* The same comparison as objects of array verdicts (json_doc.h), one a
 * line: per variant and batch, the delta in core cycles per iteration
 * with its CI of the twin, the placed twin and the kernel (null where
 * missing), and the verdicts of kernel_verdict.h (null without both CIs). */
struct sb_doc;
void sb_kernel_report_doc(struct sb_doc *verdicts, enum sb_kernel_shape shape, const struct sb_results *kernel,
			  const struct sb_results *t, const struct sb_results *placed);

#endif

/* kernel_probe_run.c: `stubbench kernel --probe` (kernel_run.h): which
 * program types and stack shapes this kernel gives a private stack, read
 * from their JIT (private_stack_probe.h); nothing measured. */
#include "kernel_commands/kernel_run.h"

#include <stdio.h>

#include "output/json_doc.h"
#include "output/json_doc.h"
#include "output/out_file.h"
#include "kernel/private_stack_probe.h"
#include "kernel/private_stack_reason.h"
#include "kernel/probe.h"
#include "harness/harness.h"
#include "output/reporter.h"

enum sb_kernel_status sb_kernel_probe_run(const struct sb_output_config *cfg)
{
	char why[512];
	enum sb_kernel_status st = sb_kernel_probe(why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return st;
	}
	struct sb_private_stack_probe p;
	if (sb_private_stack_probe_run(&p, why, sizeof(why)) != 0) {
		fprintf(stderr, "stubbench kernel: %s\n", why);
		return SB_KERNEL_FAILED;
	}
	/* The lines go where --output says, like every report. */
	struct sb_out out;
	if (sb_out_open(&out, cfg->output, "stubbench kernel") != 0)
		return SB_KERNEL_FAILED;
	if (sb_format_is(cfg->format, SB_OUT_JSON)) {
		struct sb_doc *doc = sb_doc_new();
		sb_private_stack_probe_doc(doc, "probe", &p);
		int failed = sb_doc_failed(doc) || sb_reporter_json_doc(out.f, doc->first) != 0;
		sb_doc_free(doc);
		if (failed) {
			fprintf(stderr, "stubbench kernel: out of memory\n");
			sb_out_close(&out);
			return SB_KERNEL_FAILED;
		}
	} else {
		sb_private_stack_probe_lines(out.f, &p);
	}
	return sb_out_close(&out) == 0 ? SB_KERNEL_OK : SB_KERNEL_FAILED;
}

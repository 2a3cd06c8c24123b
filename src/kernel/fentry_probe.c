/* fentry_probe.c: is the seed's exact fentry shape
 * (bench/bpf/fentry_shape.bpf.c) available on this kernel? It is only
 * loaded and unloaded, to say so in one line; the measured shapes are the
 * raw_tp ones, which need no trampoline. */
#include "base/error.h"
#include "kernel/probe.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "fentry_shape.skel.h"

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

int sb_kernel_fentry_available(char *why, size_t whylen)
{
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct fentry_shape *skel = fentry_shape__open();
	int rc = -1;
	if (!skel) {
		snprintf(why, whylen, "seed 001's fentry shape: not available (cannot open its object: %s)",
			 sb_errno_cause(errno));
		goto out;
	}
	skel->rodata->batch_iters = 1;
	rc = fentry_shape__load(skel);
	if (rc)
		snprintf(why, whylen, "seed 001's fentry shape: not available on this kernel (fentry load refused: %s); "
			 "measuring the raw_tp shapes", sb_errno_cause(-rc));
	else
		snprintf(why, whylen, "seed 001's fentry shape: loads on this kernel, but is not measured "
			 "(only the raw_tp shapes are)");
	fentry_shape__destroy(skel);
out:
	libbpf_set_print(old);
	return rc == 0;
}

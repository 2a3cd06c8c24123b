/* kernel_obj_spacer.c: a spacer program loaded before each load of a
 * `stubbench kernel --obj` run's programs (its own and the syscall copies),
 * of a size drawn from the spacer stream, so each load lands elsewhere;
 * see kernel_obj.h. */
#include "base/error.h"
#include "kernel_obj.h"

#include <stdio.h>
#include <string.h>

#include "base/rng.h"
#include "kernel/loader.h"
#include "kernel/spacer.h"

int sb_obj_spacer(struct sb_obj_run *r, char *why, size_t errlen)
{
	if (r->n_spacers == sizeof(r->spacers) / sizeof(r->spacers[0]))
		return 0;
	int fd = sb_kernel_spacer_load((size_t)sb_rng_below(&r->spacer_rng, SB_KERNEL_SPACER_MAX_BYTES + 1));
	if (fd < 0) {
		snprintf(why, errlen, "a spacer program before a load failed: %s", sb_errno_cause(-fd));
		return -1;
	}
	r->spacers[r->n_spacers++] = fd;
	return 0;
}

/* return_thunk_resolve.h: where the JITed returns of the loaded programs go. */
#ifndef STUBBENCH_RETURN_THUNK_RESOLVE_H
#define STUBBENCH_RETURN_THUNK_RESOLVE_H

#include <stdio.h>

#include "kernel/loader.h"
#include "base/mitigations.h"

/* Return thunk (return_thunk_resolve.c): resolves every call/jmp rel32 of the
 * selected programs' JITed functions through jited_ksyms and
 * /proc/kallsyms (printing them to stderr with verbose) and names the thunk
 * their returns reach; without kernel pointers it says so in one line on f
 * and infers the thunk from sysfs. rt also gets the sysfs mitigations. */
void sb_kernel_return_thunk(const struct sb_kernel_obj *o, const int shapes[SB_N_SHAPES],
			    const int want[SB_N_KVARIANTS], int verbose, FILE *f, struct sb_return_thunk *rt);
/* Compares each return thunk replica with the kernel's own code of the
 * same name, read through BPF; one line on f, saying so when refused. */
void sb_kernel_check_thunks(FILE *f);

#endif

/* stub.h: the one ABI every replica main prog follows. The replicas' own
 * symbols are declared beside their families (seed001.h, twin.h, lab.h);
 * front ends reach them through the registry (variants.h). */
#ifndef STUBBENCH_STUB_H
#define STUBBENCH_STUB_H

/*
 * A main prog: takes nothing, returns 0 in eax like "return 0" in BPF,
 * clobbers only SysV caller-saved registers, and needs the calling thread's
 * GS base set up by sb_percpu_thread_init() when it uses a private stack.
 */
typedef int (*sb_stub_fn)(void);

#endif

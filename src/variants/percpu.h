/* percpu.h: per-thread copies of the private stack template, reached via GS.
 *
 * The asm replicas address their private stack the way the kernel does:
 * "movabs r9, <template address>; add r9, gs:[disp]" where the qword at
 * gs:[disp] is this_cpu_off, the distance from the template (section
 * sb_percpu) to this thread's copy. sb_percpu_thread_init() allocates the
 * copy with guard pages around it, writes the kernel's guard words, maps a
 * slot holding this_cpu_off at every gs displacement the stubs use, and
 * points GS at it with arch_prctl(ARCH_SET_GS).
 */
#ifndef STUBBENCH_PERCPU_H
#define STUBBENCH_PERCPU_H

#include <stddef.h>
#include <stdint.h>

/* The kernel's guard word (arch/x86/net/bpf_jit_comp.c, PRIV_STACK_GUARD_VAL). */
#define SB_PRIV_STACK_GUARD_VAL 0xEB9F12345678eb9fULL
#define SB_PRIV_STACK_GUARD_SZ 8

/* One private stack area, as recorded by the asm PRIV_AREA macro. */
struct sb_priv_area {
	uintptr_t area; /* template address of the bottom guard */
	uintptr_t fp;   /* template address of the frame pointer (top guard) */
};

/* Sets up this thread; returns 0, or -1 with a one-line reason in err. */
int sb_percpu_thread_init(char *err, size_t errlen);
/* Undoes sb_percpu_thread_init() for this thread (GS base back to 0). */
void sb_percpu_thread_fini(void);
/* Non-zero once sb_percpu_thread_init() succeeded in this thread. */
int sb_percpu_thread_ready(void);

/* This thread's address of a template address (like per_cpu_ptr()). */
void *sb_percpu_ptr(const void *template_addr);
/* The frame pointer r9 must hold inside the function owning the area. */
uintptr_t sb_percpu_frame_pointer(const void *area_template);
/* The GS base of this thread (read back through arch_prctl). */
uintptr_t sb_percpu_gs_base(void);
/* The qword the stubs read at gs:[disp]. */
uint64_t sb_percpu_read_gs_slot(int32_t disp);

/* The areas and gs displacements the linked stubs declared. */
size_t sb_percpu_areas(const struct sb_priv_area **areas);
/* The page offset (address mod 4096) that template address t has in every
 * thread's copy: the copy ends at a page boundary, so it is fixed by the
 * link, whether or not this thread's copy is made yet. */
unsigned sb_percpu_page_offset(const void *template_addr);
size_t sb_percpu_gs_disps(const int64_t **disps);

/* Number of guard words in this thread's copy that no longer hold
 * SB_PRIV_STACK_GUARD_VAL (0 when all are intact). */
size_t sb_percpu_check_guards(void);
/* 0 when every guard word is intact, else -1 with err saying so: the guard
 * half of a child_check (sb_run_opts). */
int sb_percpu_guards_intact(char *err, size_t errlen);

#endif

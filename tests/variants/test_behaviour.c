/* Behaviour of the replicas: counters, the private frame pointer in r9, the
 * GS base across syscalls, and the guard words. */
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "percpu_threads.h"
#include "variants/percpu.h"
#include "variants/seed001.h"
#include "stubbench/registry.h"

extern volatile uint64_t sb_probe_r9[8];
extern char sb_probe_main_area[], sb_probe_sub_area[], sb_probe_v618_area[];
int sb_probe_private_main(void);
int sb_probe_v618_main(void);
uint64_t sb_probe_call_capture_r9(sb_stub_fn fn, uint64_t sentinel);

#define SENTINEL 0x5e5e5e5e5e5e5e5eULL

static void counters(void)
{
	for (size_t i = 0; i < sb_variant_count(); i++) {
		const struct sb_variant *v = sb_variant_at(i);
		uint64_t before = *v->counter;
		for (int k = 0; k < 1000; k++)
			CHECK(v->main() == 0, "%s returned non-zero", v->name);
		CHECK(*v->counter - before == 1000, "%s: counter advanced by %" PRIu64,
		      v->name, *v->counter - before);
	}
	/* Each variant has a counter of its own. */
	CHECK(sb_seed001_baseline_hits == 1000 && sb_seed001_private_hits == 1000 &&
	      sb_seed001_hybrid_hits == 1000, "counters are shared between variants");
}

static void r9_of_replicas(void)
{
	uintptr_t main_fp = sb_percpu_frame_pointer(sb_seed001_private_main_area);
	uintptr_t sub_fp = sb_percpu_frame_pointer(sb_seed001_private_sub_area);
	uintptr_t hyb_fp = sb_percpu_frame_pointer(sb_seed001_hybrid_main_area);
	CHECK(main_fp && sub_fp && hyb_fp, "frame pointers not found");
	CHECK(main_fp != sub_fp && main_fp != hyb_fp, "areas overlap");
	/* r9 is caller-saved and the last pop r9 restores the main prog's own
	 * frame pointer, so r9 after the call shows it. */
	CHECK(sb_probe_call_capture_r9(sb_seed001_private_main, SENTINEL) == main_fp,
	      "private main: r9 is not its frame pointer %#lx", (unsigned long)main_fp);
	CHECK(sb_probe_call_capture_r9(sb_seed001_private_sub, SENTINEL) == sub_fp,
	      "private sub: r9 is not its frame pointer %#lx", (unsigned long)sub_fp);
	CHECK(sb_probe_call_capture_r9(sb_seed001_hybrid_main, SENTINEL) == hyb_fp,
	      "hybrid main: r9 is not its frame pointer %#lx", (unsigned long)hyb_fp);
	CHECK(sb_probe_call_capture_r9(sb_seed001_baseline_main, SENTINEL) == SENTINEL,
	      "baseline main touched r9");
	/* The frame pointer is area + guard + round_up(depth, 8) in this thread's copy. */
	CHECK(main_fp == (uintptr_t)sb_percpu_ptr(sb_seed001_private_main_area) + 8 + 64,
	      "frame pointer is not area + 8 + 64");
}

static void r9_probes(void)
{
	memset((void *)sb_probe_r9, 0, 64);
	sb_probe_private_main();
	uintptr_t main_fp = sb_percpu_frame_pointer(sb_probe_main_area);
	uintptr_t sub_fp = sb_percpu_frame_pointer(sb_probe_sub_area);
	CHECK(sb_probe_r9[0] == main_fp, "r9 after setup %#" PRIx64 " != %#lx", sb_probe_r9[0],
	      (unsigned long)main_fp);
	CHECK(sb_probe_r9[1] == main_fp, "r9 after a callee clobbered it: %#" PRIx64, sb_probe_r9[1]);
	CHECK(sb_probe_r9[3] == sub_fp, "r9 inside the private subprog %#" PRIx64 " != %#lx",
	      sb_probe_r9[3], (unsigned long)sub_fp);
	CHECK(sb_probe_r9[2] == main_fp, "r9 after the private subprog: %#" PRIx64, sb_probe_r9[2]);
	CHECK(sub_fp == (uintptr_t)sb_percpu_ptr(sb_probe_sub_area) + 8 + 128, "sub fp layout");

	/* Kernel-address gs displacement of the v6.18 flavour. */
	sb_probe_v618_main();
	uintptr_t v618_fp = sb_percpu_frame_pointer(sb_probe_v618_area);
	CHECK(sb_probe_r9[4] == v618_fp && v618_fp == (uintptr_t)sb_percpu_ptr(sb_probe_v618_area) + 8 + 56,
	      "v6.18 flavour r9 %#" PRIx64 " != %#lx", sb_probe_r9[4], (unsigned long)v618_fp);
	CHECK(sb_probe_r9[5] == v618_fp, "v6.18 flavour r9 after call %#" PRIx64, sb_probe_r9[5]);
}

static void gs_survives_syscalls(void)
{
	uintptr_t base = sb_percpu_gs_base();
	uint64_t off = sb_percpu_read_gs_slot(0x21a00);
	uint64_t off2 = sb_percpu_read_gs_slot(-0x7c4f3fd8);
	CHECK(base != 0, "GS base is 0 after init");
	CHECK(off == (uint64_t)(uintptr_t)sb_percpu_ptr(sb_seed001_private_main_area) -
			     (uint64_t)(uintptr_t)sb_seed001_private_main_area,
	      "gs:0x21a00 does not hold this_cpu_off");
	CHECK(off2 == off, "the two gs slots disagree");
	for (int i = 0; i < 100; i++)
		getppid();
	usleep(2000); /* a sleep: the thread is descheduled and switched back */
	CHECK(sb_percpu_gs_base() == base, "GS base changed across syscalls");
	CHECK(sb_percpu_read_gs_slot(0x21a00) == off, "gs:0x21a00 changed across syscalls");
	uintptr_t fp = sb_percpu_frame_pointer(sb_seed001_private_main_area);
	CHECK(sb_probe_call_capture_r9(sb_seed001_private_main, SENTINEL) == fp,
	      "private main after syscalls: wrong r9");
}

static void guards(void)
{
	CHECK(sb_percpu_check_guards() == 0, "guards damaged after the runs");
	const struct sb_priv_area *areas;
	size_t n = sb_percpu_areas(&areas);
	CHECK(n >= 6, "only %zu areas recorded", n);
	/* The check must see a damaged guard. */
	volatile uint64_t *top = sb_percpu_ptr((void *)areas[0].fp);
	uint64_t saved = *top;
	*top = 0;
	CHECK(sb_percpu_check_guards() == 1, "a damaged top guard was not seen");
	*top = saved;
	volatile uint64_t *bottom = sb_percpu_ptr((void *)areas[1].area);
	*bottom ^= 1;
	CHECK(sb_percpu_check_guards() == 1, "a damaged bottom guard was not seen");
	*bottom ^= 1;
	CHECK(sb_percpu_check_guards() == 0, "guards not restored");
}

/* Each thread has its own copy: the same stub yields another r9 there. */
/* The seed's private main prog in another thread: its r9, its area's frame. */
static void private_main_probe(uintptr_t out[2])
{
	out[0] = sb_probe_call_capture_r9(sb_seed001_private_main, SENTINEL);
	out[1] = sb_percpu_frame_pointer(sb_seed001_private_main_area);
}

static void threads(void)
{
	check_private_stack_per_thread(private_main_probe, sb_seed001_private_main_area, "r9");
}

int main(void)
{
	char err[256];
	CHECK(!sb_percpu_thread_ready(), "ready before init");
	int rc = sb_percpu_thread_init(err, sizeof(err));
	CHECK(rc == 0, "init: %s", err);
	if (rc)
		return check_report("test_behaviour");
	counters();
	r9_of_replicas();
	r9_probes();
	gs_survives_syscalls();
	guards();
	threads();
	sb_percpu_thread_fini();
	CHECK(sb_percpu_gs_base() == 0, "GS base not cleared by fini");
	return check_report("test_behaviour");
}

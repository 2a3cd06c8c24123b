/* percpu_threads.h: the private stack is per thread, as the kernel's is
 * per CPU: a probe called in another thread (after its per-CPU set-up)
 * reports the frame pointer the code used (out[0]) and the one the area
 * gives that thread (out[1]); they must agree and differ from this
 * thread's. Shared by the replicas' and the lab's behaviour tests. */
#ifndef STUBBENCH_TEST_PERCPU_THREADS_H
#define STUBBENCH_TEST_PERCPU_THREADS_H

#include <pthread.h>
#include <stdint.h>

#include "check.h"
#include "variants/percpu.h"

struct percpu_thread_probe {
	void (*probe)(uintptr_t out[2]);
	uintptr_t out[2];
};

static void *percpu_other_thread(void *arg)
{
	struct percpu_thread_probe *p = arg;
	char err[256];
	if (sb_percpu_thread_init(err, sizeof(err)) != 0)
		return NULL;
	p->probe(p->out);
	sb_percpu_thread_fini();
	return NULL;
}

/* probe's frame pointer in another thread against area's there and here;
 * reg names the register the frame pointer is in, for the message. */
static void check_private_stack_per_thread(void (*probe)(uintptr_t out[2]), const void *area, const char *reg)
{
	struct percpu_thread_probe p = {.probe = probe};
	pthread_t t;
	CHECK(pthread_create(&t, NULL, percpu_other_thread, &p) == 0, "pthread_create");
	pthread_join(t, NULL);
	uintptr_t mine = sb_percpu_frame_pointer(area);
	CHECK(p.out[0] && p.out[0] == p.out[1], "other thread: %s %#lx, fp %#lx", reg, (unsigned long)p.out[0],
	      (unsigned long)p.out[1]);
	CHECK(p.out[0] != mine, "two threads share one private stack");
}

#endif

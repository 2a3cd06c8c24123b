/* stack_offset_probe.h: the page offset of a BPF program's rbp frame on the
 * kernel's normal stack, as the run's driver runs it (raw_tp: a
 * BPF_PROG_TEST_RUN; perf_event: a page fault), read from a program that
 * stores the address of one of its own stack slots
 * (bench/bpf/stack_offset_probe.bpf.c). The placed twins' frames are put
 * at that offset (kernel_measure.c). */
#ifndef STUBBENCH_STACK_OFFSET_PROBE_H
#define STUBBENCH_STACK_OFFSET_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/loader.h"

struct bpf_insn;

#define SB_STACK_PROBE_RUNS 8 /* runs of the probe program, each read back */

struct sb_stack_offset_probe {
	enum sb_kernel_driver driver;
	/* The page offset of the program's rbp frame, the same in every run;
	 * -1: not found (why says so in one line). */
	int page_offset;
	int n_runs;
	int offsets[SB_STACK_PROBE_RUNS]; /* each run's page offset */
	int fp_off;                       /* the slot's offset from r10 (rbp) */
	char why[200];
};

/* The offset from the BPF frame pointer r10 of the slot whose address the
 * program takes ("rX = r10; rX += imm"): 0 with *off, -1 when the
 * instructions hold no such pair or more than one. */
int sb_stack_probe_fp_offset(const struct bpf_insn *insns, size_t n, int *off);
/* The same for the embedded probe program (opened, not loaded). */
int sb_stack_probe_program_fp_offset(int *off);
/* The page offset of the rbp frame from a slot's address and its offset
 * from rbp. */
int sb_stack_probe_page_offset(uint64_t slot_addr, int fp_off);
/* Per-run page offsets into p's verdict: page_offset set when all agree,
 * else -1 and why names how many differ. */
void sb_stack_probe_settle(struct sb_stack_offset_probe *p);
/* Loads the probe program as driver's type, runs it SB_STACK_PROBE_RUNS
 * times on cpu (the calling thread's) and reads each run's frame. Returns
 * 0; p->page_offset < 0 with p->why where it could not be read. */
int sb_stack_offset_probe_run(enum sb_kernel_driver driver, int cpu, struct sb_stack_offset_probe *p);
/* One line for people (under 100 columns): "kernel stack (perf_event): a
 * program's rbp frame at page offset 0xcc0 (8 of 8 runs)", or why not. */
void sb_stack_probe_line(const struct sb_stack_offset_probe *p, char *buf, size_t len);

#endif

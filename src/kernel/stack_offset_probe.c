/* stack_offset_probe.c: where the kernel's driver puts a program's rbp
 * frame, page offset only (stack_offset_probe.h). */
#include "kernel/stack_offset_probe.h"
#include "base/error.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stack_offset_probe.skel.h"

int sb_stack_probe_fp_offset(const struct bpf_insn *insns, size_t n, int *off)
{
	int found = 0;
	for (size_t i = 0; i + 1 < n; i++) {
		const struct bpf_insn *a = &insns[i], *b = &insns[i + 1];
		if (a->code != (BPF_ALU64 | BPF_MOV | BPF_X) || a->src_reg != BPF_REG_10 || a->dst_reg == BPF_REG_10)
			continue;
		if (b->code != (BPF_ALU64 | BPF_ADD | BPF_K) || b->dst_reg != a->dst_reg || b->imm >= 0)
			continue;
		if (found && *off != b->imm)
			return -1;
		*off = b->imm;
		found = 1;
	}
	return found ? 0 : -1;
}

int sb_stack_probe_page_offset(uint64_t slot_addr, int fp_off)
{
	return (int)((slot_addr - (uint64_t)(int64_t)fp_off) & 4095);
}

void sb_stack_probe_settle(struct sb_stack_offset_probe *p)
{
	p->page_offset = -1;
	if (p->n_runs <= 0) {
		if (!p->why[0])
			snprintf(p->why, sizeof(p->why), "no run of the probe program");
		return;
	}
	int same = 0;
	for (int i = 0; i < p->n_runs; i++)
		same += p->offsets[i] == p->offsets[0];
	if (same == p->n_runs) {
		p->page_offset = p->offsets[0];
		p->why[0] = 0;
		return;
	}
	snprintf(p->why, sizeof(p->why), "differs between runs (%d of %d at %#x)", same, p->n_runs,
		 (unsigned)p->offsets[0]);
}

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

int sb_stack_probe_program_fp_offset(int *off)
{
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct stack_offset_probe *skel = stack_offset_probe__open();
	int rc = -1;
	if (skel)
		rc = sb_stack_probe_fp_offset(bpf_program__insns(skel->progs.stack_offset_probe),
					      bpf_program__insn_cnt(skel->progs.stack_offset_probe), off);
	stack_offset_probe__destroy(skel);
	libbpf_set_print(old);
	return rc;
}

struct probe_hits {
	const struct stack_offset_probe *skel;
};

static uint64_t probe_hits(const void *arg)
{
	const struct probe_hits *h = arg;
	return h->skel->bss->probe_runs;
}

static int probe_in(struct stack_offset_probe *skel, enum sb_kernel_driver driver, int cpu,
		    struct sb_stack_offset_probe *p)
{
	if (driver == SB_DRIVER_PERF_EVENT) {
		bpf_program__set_type(skel->progs.stack_offset_probe, BPF_PROG_TYPE_PERF_EVENT);
		bpf_program__set_expected_attach_type(skel->progs.stack_offset_probe, 0);
	}
	if (sb_stack_probe_fp_offset(bpf_program__insns(skel->progs.stack_offset_probe),
				     bpf_program__insn_cnt(skel->progs.stack_offset_probe), &p->fp_off) != 0) {
		snprintf(p->why, sizeof(p->why), "the probe takes no single slot's address");
		return -1;
	}
	int rc = stack_offset_probe__load(skel);
	if (rc) {
		snprintf(p->why, sizeof(p->why), "probe refused (%s): a stored stack address needs root",
			 sb_errno_cause(-rc));
		return -1;
	}
	if (!skel->bss) {
		snprintf(p->why, sizeof(p->why), "the probe's .bss is not mmapped");
		return -1;
	}
	int fd = bpf_program__fd(skel->progs.stack_offset_probe);
	struct probe_hits h = {skel};
	for (int i = 0; i < SB_STACK_PROBE_RUNS; i++) {
		uint64_t runs = 0;
		skel->bss->probe_slot_addr = 0;
		sb_bpf_run_timed(driver, fd, cpu, probe_hits, &h, &runs, &rc);
		if (rc != 0 || skel->bss->probe_slot_addr == 0) {
			snprintf(p->why, sizeof(p->why), "the probe did not run: %s",
				 rc ? sb_errno_cause(-rc) : "no address stored");
			return -1;
		}
		p->offsets[p->n_runs++] = sb_stack_probe_page_offset(skel->bss->probe_slot_addr, p->fp_off);
	}
	return 0;
}

int sb_stack_offset_probe_run(enum sb_kernel_driver driver, int cpu, struct sb_stack_offset_probe *p)
{
	memset(p, 0, sizeof(*p));
	p->driver = driver;
	p->page_offset = -1;
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct stack_offset_probe *skel = stack_offset_probe__open();
	if (!skel)
		snprintf(p->why, sizeof(p->why), "cannot open the probe program: %s", sb_errno_cause(errno));
	else if (probe_in(skel, driver, cpu, p) == 0)
		sb_stack_probe_settle(p);
	stack_offset_probe__destroy(skel);
	libbpf_set_print(old);
	return 0;
}

void sb_stack_probe_line(const struct sb_stack_offset_probe *p, char *buf, size_t len)
{
	if (p->page_offset >= 0)
		snprintf(buf, len, "kernel stack (%s): a program's rbp frame at page offset %#x (%d of %d runs)",
			 sb_kernel_driver_name(p->driver), (unsigned)p->page_offset, p->n_runs, p->n_runs);
	else
		snprintf(buf, len, "kernel stack (%s): frame page offset unknown: %s",
			 sb_kernel_driver_name(p->driver), p->why);
}

/* test_stack_offset_probe.c: the reading of the kernel's stack page
 * offset (stack_offset_probe.h) on made-up instructions and addresses: the
 * slot's offset from r10 found in "rX = r10; rX += imm" and in the
 * embedded probe program, the rbp frame's page offset from the slot's
 * address, and the verdict over runs (one offset, or none when they
 * differ). */
#include <linux/bpf.h>
#include <string.h>

#include "check.h"
#include "kernel/stack_offset_probe.h"

#define INSN(c, d, s, o, i) ((struct bpf_insn){.code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i)})

static void fp_offsets(void)
{
	int off = 0;
	struct bpf_insn one[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0), INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -16),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 1, 2, 0, 0),   INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	CHECK(sb_stack_probe_fp_offset(one, 4, &off) == 0 && off == -16, "off %d", off);
	/* Two different slots: no single answer. */
	struct bpf_insn two[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0), INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -8),
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 3, 10, 0, 0), INSN(BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -16),
	};
	CHECK(sb_stack_probe_fp_offset(two, 4, &off) == -1, "two slots taken for one");
	/* r10 copied but the add goes to another register: none. */
	struct bpf_insn other[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0), INSN(BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, -8),
	};
	CHECK(sb_stack_probe_fp_offset(other, 2, &off) == -1, "an add to another register taken");
	CHECK(sb_stack_probe_fp_offset(one, 1, &off) == -1, "a lone mov taken");
	/* The embedded program: its one slot at r10-8. */
	off = 0;
	CHECK(sb_stack_probe_program_fp_offset(&off) == 0 && off == -8, "probe program slot at %d", off);
}

static void page_offsets(void)
{
	CHECK(sb_stack_probe_page_offset(0xffffc90000447cb8ull, -8) == 0xcc0, "%#x",
	      sb_stack_probe_page_offset(0xffffc90000447cb8ull, -8));
	CHECK(sb_stack_probe_page_offset(0xffffc90000447ff8ull, -8) == 0, "page end wraps to 0");
	CHECK(sb_stack_probe_page_offset(0xffffc90000447000ull, -64) == 0x40, "-64");
}

static void verdicts(void)
{
	struct sb_stack_offset_probe p;
	char line[400];
	memset(&p, 0, sizeof(p));
	p.driver = SB_DRIVER_PERF_EVENT;
	p.n_runs = 8;
	for (int i = 0; i < 8; i++)
		p.offsets[i] = 0xcc0;
	sb_stack_probe_settle(&p);
	CHECK(p.page_offset == 0xcc0, "%d", p.page_offset);
	sb_stack_probe_line(&p, line, sizeof(line));
	CHECK(strstr(line, "kernel stack (perf_event): a program's rbp frame at page offset 0xcc0 (8 of 8 runs)") != NULL, "%s", line);
	p.offsets[5] = 0xc60;
	sb_stack_probe_settle(&p);
	CHECK(p.page_offset == -1 && strstr(p.why, "differs between runs (7 of 8 at 0xcc0)") != NULL, "%d %s", p.page_offset, p.why);
	sb_stack_probe_line(&p, line, sizeof(line));
	CHECK(strstr(line, "(perf_event): frame page offset unknown: differs") != NULL && strlen(line) <= 100, "%s", line);
	memset(&p, 0, sizeof(p));
	sb_stack_probe_settle(&p);
	CHECK(p.page_offset == -1 && p.why[0], "no runs, no offset");
}

int main(void)
{
	fp_offsets();
	page_offsets();
	verdicts();
	return check_report("stack_offset_probe");
}

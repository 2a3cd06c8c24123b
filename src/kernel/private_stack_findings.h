/* private_stack_findings.h: what the private-stack probe found, program
 * type by program shape, as plain data: private_stack_probe.h fills it in
 * by loading programs, private_stack_reason.h makes sentences and JSON of
 * it. */
#ifndef STUBBENCH_PRIVATE_STACK_FINDINGS_H
#define STUBBENCH_PRIVATE_STACK_FINDINGS_H

enum sb_probe_type {
	SB_PROBE_RAW_TP,
	SB_PROBE_TRACEPOINT,
	SB_PROBE_KPROBE,
	SB_PROBE_PERF_EVENT,
	SB_PROBE_N_TYPES
};

/* The function with the big stack: a static subprog of 64 or 256 bytes,
 * the program itself with 64, a global subprog with 64, or the program
 * with 64 and a tail call (given none upstream). */
enum sb_probe_shape {
	SB_PROBE_S64,
	SB_PROBE_S256,
	SB_PROBE_M64,
	SB_PROBE_G64,
	SB_PROBE_TAIL,
	SB_PROBE_N_SHAPES
};

/* One probe program's outcome. */
enum sb_probe_outcome {
	SB_PROBE_NOT_RUN = 0,
	SB_PROBE_PRIVATE,   /* its big function sets up r9 */
	SB_PROBE_RBP,       /* loaded, JITed, no r9 setup: an rbp frame */
	SB_PROBE_REFUSED,   /* the load failed (errno kept) */
	SB_PROBE_UNREAD,    /* loaded, but its JIT could not be read */
};

/* What bpf_jit_supports_private_stack() is in this kernel's text. */
enum sb_probe_jit_support {
	SB_JIT_SUPPORT_UNKNOWN = 0, /* not read (no kallsyms addresses, no BPF) */
	SB_JIT_SUPPORT_ABSENT,      /* no such symbol in /proc/kallsyms */
	SB_JIT_SUPPORT_TRUE,        /* its text starts with mov eax, 1 */
	SB_JIT_SUPPORT_FALSE,       /* its text starts with xor eax, eax */
	SB_JIT_SUPPORT_OTHER,       /* present, its text neither of those */
};

struct sb_private_stack_probe {
	enum sb_probe_outcome outcome[SB_PROBE_N_TYPES][SB_PROBE_N_SHAPES];
	int load_errno[SB_PROBE_N_TYPES][SB_PROBE_N_SHAPES];
	enum sb_probe_jit_support jit_support;
	char release[65]; /* uname -r */
};

#endif

/* mitigations.h: where the running kernel's function returns go, and why.
 *
 * emit_return() in arch/x86/net/bpf_jit_comp.c emits "jmp x86_return_thunk"
 * when cpu_wants_rethunk(), and x86_return_thunk is chosen at boot from the
 * CPU's bugs (arch/x86/kernel/cpu/bugs.c). Which one JITed code reaches is
 * known for sure by resolving its jmp rel32 targets through /proc/kallsyms
 * (ksyms.h); without BPF or kernel pointers it can only be inferred from the
 * sysfs lines of /sys/devices/system/cpu/vulnerabilities/, and this says
 * which of the two it was. */
#ifndef STUBBENCH_MITIGATIONS_H
#define STUBBENCH_MITIGATIONS_H

#include <stddef.h>

/* The return thunks of arch/x86/lib/retpoline.S (6.x), and plain ret. */
enum sb_thunk {
	SB_THUNK_UNKNOWN,
	SB_THUNK_RET,          /* no thunk: "ret" (c3) */
	SB_THUNK_ITS,          /* its_return_thunk (Intel ITS) */
	SB_THUNK_SRSO,         /* srso_return_thunk (AMD Safe RET: Zen 1/2, and Zen 5 here) */
	SB_THUNK_SRSO_ALIAS,   /* srso_alias_return_thunk (AMD Zen 3/4 Safe RET) */
	SB_THUNK_RETBLEED,     /* retbleed_return_thunk (AMD untrained return thunk) */
	SB_THUNK_CALL_DEPTH,   /* call_depth_return_thunk (Intel retbleed=stuff) */
	SB_THUNK_X86,          /* __x86_return_thunk: the boot-time default, ret; int3 */
	SB_N_THUNKS
};

/* The kernel's symbol ("its_return_thunk"), "ret" or "unknown". */
const char *sb_thunk_name(enum sb_thunk t);
/* What is known of code behind thunk t that no single run's CI covers
 * (states that change over longer than a run), for the CI scope line; NULL:
 * nothing measured. */
const char *sb_thunk_time_note(enum sb_thunk t);
/* The names --thunk takes, comma-separated: every thunk with a replica, then "ret". */
const char *sb_thunk_choices(void);
/* The thunk whose kernel symbol is name, or SB_THUNK_UNKNOWN. */
enum sb_thunk sb_thunk_from_symbol(const char *name);
/* A return thunk named on the command line (option opt): a kernel symbol
 * of the list above or "ret". Returns 0, or -1 with one line in err. */
int sb_thunk_check_name(const char *opt, const char *name, char *err, size_t errlen);
/* The thunk such a name stands for ("ret": SB_THUNK_RET), or SB_THUNK_UNKNOWN. */
enum sb_thunk sb_thunk_from_name(const char *name);

/* The sysfs lines that decide the thunk (empty when the file is absent). */
struct sb_mitigations {
	char spectre_v2[192];
	char retbleed[192];
	char spec_rstack_overflow[192];
	char indirect_target_selection[192];
	int n_read;            /* files read */
};
#define SB_VULN_DIR "/sys/devices/system/cpu/vulnerabilities"
/* Reads the four files of dir (SB_VULN_DIR on a real machine). Never fails:
 * a missing file leaves its line empty. */
void sb_mitigations_read(const char *dir, struct sb_mitigations *m);

/* The thunk the sysfs lines imply, as bugs.c chooses it (call depth
 * stuffing, SRSO Safe RET - the alias flavour on CPU family 0x19 -, the
 * untrained return thunk, ITS aligned thunks, else ret), with the line
 * that decided it in why. cpu_family: CPUID family (0x17, 0x19, 6 ...). */
enum sb_thunk sb_thunk_infer(const struct sb_mitigations *m, unsigned cpu_family, char *why, size_t whylen);

/* What a report says about returns: the thunk and how it was found. */
struct sb_return_thunk {
	enum sb_thunk thunk;
	char how[384];         /* "jmp target of the JITed returns, resolved through /proc/kallsyms" */
	struct sb_mitigations mit;
};
/* The host's thunk inferred from sysfs (no BPF needed). */
void sb_return_thunk_from_sysfs(struct sb_return_thunk *rt);

#endif

/* machine_name.h: a machine named as an engineer names it: the CPU's
 * microarchitecture from its CPUID vendor, family and model
 * (src/base/microarchitectures.def, with its sources), the raw fields
 * beside it, and the hypervisor a guest runs under. */
#ifndef STUBBENCH_MACHINE_NAME_H
#define STUBBENCH_MACHINE_NAME_H

#include <stddef.h>

#include "base/cpu_signature.h"

struct sb_machine_id {
	struct sb_cpu_signature sig;
	char microcode[24];   /* /proc/cpuinfo's "microcode" ("0x2b000620"); "": not said */
	char hypervisor[24];  /* "KVM", "Hyper-V", ...; "": none reported (CPUID.1:ECX[31] clear) */
	int amx;              /* CPUID.(7,0):EDX[24], AMX-TILE */
	int known;            /* 0: no CPUID fields (a run written before they were saved) */
};

/* A CPUID vendor string as people write it: "Intel", "AMD", else as given. */
const char *sb_cpu_vendor_name(const char *vendor);

/* This machine's. */
void sb_machine_id(struct sb_machine_id *out);
/* /proc/cpuinfo's microcode revision of its first CPU ("0x2b000620"), or "". */
void sb_cpu_microcode(char *buf, size_t len);

/* The microarchitecture of vendor, family and model ("Emerald Rapids",
 * "Zen 4"), or NULL when the table has no row for them. *has_amx (may be
 * NULL) is set to whether it has AMX. */
const char *sb_microarchitecture(const char *vendor, unsigned family, unsigned model, int *has_amx);

/* The microarchitecture of id, or NULL: not in the table, or a model
 * whose microarchitecture lacks AMX on a CPU that reports it. */
const char *sb_machine_microarchitecture(const struct sb_machine_id *id);

/* One line: "Intel Emerald Rapids (6/0xcf), KVM guest"; a model missing
 * from the table by its numbers ("Intel 6/0x9f"). A CPU that reports AMX
 * with the model of a microarchitecture without it (a hypervisor's choice
 * of model) is named by the feature and its numbers: "Intel with AMX,
 * KVM's 6/0xa7". Empty when id is not known. */
void sb_machine_name(const struct sb_machine_id *id, char *buf, size_t len);

#endif

/* cpu_signature.h: this CPU's vendor, family, model and stepping (CPUID
 * leaves 0 and 1), decoded once for every user: the return-thunk choice
 * (the family) and the record of quiet levels (all four). */
#ifndef STUBBENCH_CPU_SIGNATURE_H
#define STUBBENCH_CPU_SIGNATURE_H

#include <stdint.h>

struct sb_cpu_signature {
	char vendor[13];   /* "AuthenticAMD", "GenuineIntel", or "unknown" */
	unsigned family;   /* with the extended family: 0x1a on Zen 5, 6 on Intel cores */
	unsigned model;    /* with the extended model where the SDM adds it (family 6 or 0xf) */
	unsigned stepping;
};

/* The family, model and stepping a CPUID leaf 1 EAX value encodes (the
 * vendor is left alone). */
void sb_cpu_signature_decode(uint32_t leaf1_eax, struct sb_cpu_signature *out);

/* This CPU's signature; zeros and "unknown" where CPUID lacks a leaf. */
void sb_cpu_signature(struct sb_cpu_signature *out);

#endif

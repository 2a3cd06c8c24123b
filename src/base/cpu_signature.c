/* cpu_signature.c: see cpu_signature.h. */
#include "base/cpu_signature.h"

#include <cpuid.h>
#include <string.h>

void sb_cpu_signature_decode(uint32_t eax, struct sb_cpu_signature *out)
{
	unsigned family = (eax >> 8) & 0xf, model = (eax >> 4) & 0xf;
	if (family == 0xf || family == 6)
		model += ((eax >> 16) & 0xf) << 4;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	out->family = family;
	out->model = model;
	out->stepping = eax & 0xf;
}

void sb_cpu_signature(struct sb_cpu_signature *out)
{
	unsigned a = 0, b = 0, c = 0, d = 0;
	memset(out, 0, sizeof(*out));
	strcpy(out->vendor, "unknown");
	if (__get_cpuid(0, &a, &b, &c, &d)) {
		memcpy(out->vendor, &b, 4);
		memcpy(out->vendor + 4, &d, 4);
		memcpy(out->vendor + 8, &c, 4);
		out->vendor[12] = '\0';
	}
	if (__get_cpuid(1, &a, &b, &c, &d))
		sb_cpu_signature_decode(a, out);
}

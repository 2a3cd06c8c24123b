/* machine_name.c: see machine_name.h. */
#include "base/machine_name.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

struct uarch_row {
	const char *vendor;
	unsigned family, first, last;
	const char *name;
	int amx;
};

static const struct uarch_row uarch_rows[] = {
#define UARCH(vendor, family, first, last, name, amx) {vendor, family, first, last, name, amx},
#include "microarchitectures.def"
#undef UARCH
};

const char *sb_microarchitecture(const char *vendor, unsigned family, unsigned model, int *has_amx)
{
	for (size_t i = 0; i < sizeof(uarch_rows) / sizeof(uarch_rows[0]); i++) {
		const struct uarch_row *r = &uarch_rows[i];
		if (strcmp(r->vendor, vendor) == 0 && r->family == family && model >= r->first && model <= r->last) {
			if (has_amx)
				*has_amx = r->amx;
			return r->name;
		}
	}
	return NULL;
}

/* The hypervisor's CPUID signature (leaf 0x40000000) as its common name. */
static void hypervisor_name(char *buf, size_t len)
{
	static const struct { const char *sig, *name; } names[] = {
		{"KVMKVMKVM", "KVM"}, {"Microsoft Hv", "Hyper-V"}, {"VMwareVMware", "VMware"},
		{"XenVMMXenVMM", "Xen"}, {"TCGTCGTCGTCG", "QEMU TCG"}, {"ACRNACRNACRN", "ACRN"},
		{"bhyve bhyve ", "bhyve"}, {" lrpepyh  vr", "Parallels"},
	};
	unsigned a, b, c, d;
	__cpuid(0x40000000, a, b, c, d);
	char sig[13];
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = 0;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strncmp(sig, names[i].sig, strlen(names[i].sig)) == 0) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	/* An unknown signature: its printable characters, or that there is one. */
	size_t o = 0;
	for (size_t i = 0; i < 12 && o + 1 < len; i++)
		if (sig[i] > ' ' && sig[i] < 127)
			buf[o++] = sig[i];
	buf[o] = 0;
	if (!o)
		snprintf(buf, len, "a hypervisor");
}

void sb_cpu_microcode(char *buf, size_t len)
{
	buf[0] = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	char line[256];
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "microcode", 9) == 0) {
			const char *v = strchr(line, ':');
			if (v) {
				v += strspn(v + 1, " \t") + 1;
				snprintf(buf, len, "%.*s", (int)strcspn(v, " \t\n"), v);
			}
			break;
		}
	fclose(f);
}

void sb_machine_id(struct sb_machine_id *out)
{
	memset(out, 0, sizeof(*out));
	sb_cpu_signature(&out->sig);
	unsigned a, b, c, d;
	if (__get_cpuid(1, &a, &b, &c, &d) && (c >> 31) & 1)
		hypervisor_name(out->hypervisor, sizeof(out->hypervisor));
	if (__get_cpuid_max(0, NULL) >= 7) {
		__cpuid_count(7, 0, a, b, c, d);
		out->amx = (d >> 24) & 1;
	}
	sb_cpu_microcode(out->microcode, sizeof(out->microcode));
	out->known = 1;
}

const char *sb_machine_microarchitecture(const struct sb_machine_id *id)
{
	int table_amx = 0;
	const char *uarch = sb_microarchitecture(id->sig.vendor, id->sig.family, id->sig.model, &table_amx);
	return id->known && uarch && !(id->amx && !table_amx) ? uarch : NULL;
}

const char *sb_cpu_vendor_name(const char *vendor)
{
	return strcmp(vendor, "GenuineIntel") == 0 ? "Intel" : strcmp(vendor, "AuthenticAMD") == 0 ? "AMD" : vendor;
}

void sb_machine_name(const struct sb_machine_id *id, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = 0;
	if (!id->known)
		return;
	const struct sb_cpu_signature *s = &id->sig;
	const char *vendor = sb_cpu_vendor_name(s->vendor);
	int table_amx = 0;
	const char *uarch = sb_microarchitecture(s->vendor, s->family, s->model, &table_amx);
	char guest[40] = "";
	if (id->hypervisor[0])
		snprintf(guest, sizeof(guest), ", %s guest", id->hypervisor);
	if (uarch && id->amx && !table_amx && id->hypervisor[0])
		snprintf(buf, len, "%s with AMX, %s's %x/0x%02x", vendor, id->hypervisor, s->family, s->model);
	else if (uarch && id->amx && !table_amx)
		snprintf(buf, len, "%s with AMX, %x/0x%02x (not %s)", vendor, s->family, s->model, uarch);
	else if (uarch)
		snprintf(buf, len, "%s %s (%x/0x%02x)%s", vendor, uarch, s->family, s->model, guest);
	else
		snprintf(buf, len, "%s %x/0x%02x%s", vendor, s->family, s->model, guest);
}

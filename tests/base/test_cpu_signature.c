/* cpu_signature: CPUID leaf 1 EAX decoded as the SDM and the APM say, on
 * the values of machines this project has measured, and this machine's
 * own signature read without error. */
#include <string.h>

#include "check.h"
#include "base/cpu_signature.h"

static void expect(uint32_t eax, unsigned family, unsigned model, unsigned stepping, const char *what)
{
	struct sb_cpu_signature s = {.vendor = "x"};
	sb_cpu_signature_decode(eax, &s);
	CHECK(s.family == family && s.model == model && s.stepping == stepping,
	      "%s (EAX %#x): family %#x model %#x stepping %u, want %#x %#x %u", what, eax, s.family, s.model,
	      s.stepping, family, model, stepping);
	CHECK(strcmp(s.vendor, "x") == 0, "%s: the decode changed the vendor", what);
}

int main(void)
{
	/* Extended family and model: family 0xf + extended family. */
	expect(0x00B00F21, 0x1a, 0x02, 1, "AMD Zen 5 VM");
	expect(0x00A10F11, 0x19, 0x11, 1, "AMD Zen 4 VM");
	expect(0x00800F12, 0x17, 0x01, 2, "AMD Zen 1 VM");
	/* Family 6: extended model, no extended family. */
	expect(0x000606A6, 6, 0x6a, 6, "Intel Ice Lake-SP");
	expect(0x000C06F2, 6, 0xcf, 2, "Intel Emerald Rapids (0xcf)");
	/* Family 5: neither extension counts. */
	expect(0x00F30543, 5, 0x4, 3, "family 5 with extension bits set");

	struct sb_cpu_signature me;
	sb_cpu_signature(&me);
	CHECK(me.vendor[0] && strlen(me.vendor) <= 12, "this CPU's vendor: '%s'", me.vendor);
	CHECK(me.family >= 5, "this CPU's family %#x: an x86-64 CPU reports 6 or more", me.family);
	return check_report("cpu_signature");
}

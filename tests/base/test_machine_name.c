/* test_machine_name.c: the microarchitecture a CPUID signature names
 * (src/base/microarchitectures.def), the machine's one-line name, and
 * the summary's header of a saved run with and without its "cpuid".
 * usage: test_machine_name DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "answer/answer.h"
#include "base/machine_name.h"

static void table(void)
{
	static const struct { const char *vendor; unsigned family, model; const char *want; } rows[] = {
		{"GenuineIntel", 6, 0xcf, "Emerald Rapids"}, {"GenuineIntel", 6, 0x8f, "Sapphire Rapids"},
		{"GenuineIntel", 6, 0x6a, "Ice Lake-SP"},    {"GenuineIntel", 6, 0x55, "Skylake-SP/Cascade Lake"},
		{"GenuineIntel", 6, 0xad, "Granite Rapids"}, {"GenuineIntel", 6, 0xa7, "Rocket Lake"},
		{"AuthenticAMD", 0x17, 0x01, "Zen 1"},       {"AuthenticAMD", 0x17, 0x31, "Zen 2"},
		{"AuthenticAMD", 0x17, 0x71, "Zen 2"},       {"AuthenticAMD", 0x19, 0x01, "Zen 3"},
		{"AuthenticAMD", 0x19, 0x21, "Zen 3"},       {"AuthenticAMD", 0x19, 0x11, "Zen 4"},
		{"AuthenticAMD", 0x19, 0xa0, "Zen 4"},       {"AuthenticAMD", 0x1a, 0x02, "Zen 5"},
		{"AuthenticAMD", 0x1a, 0x44, "Zen 5"},       {"GenuineIntel", 6, 0x01, NULL},
		{"AuthenticAMD", 0x17, 0x80, NULL},          {"AuthenticAMD", 6, 0xcf, NULL},
		{"HygonGenuine", 0x18, 0x01, NULL},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *got = sb_microarchitecture(rows[i].vendor, rows[i].family, rows[i].model, NULL);
		CHECK(rows[i].want ? got && strcmp(got, rows[i].want) == 0 : got == NULL, "%s %x/0x%02x: %s, want %s",
		      rows[i].vendor, rows[i].family, rows[i].model, got ? got : "NULL",
		      rows[i].want ? rows[i].want : "NULL");
	}
}

static void name_of(const char *vendor, unsigned family, unsigned model, const char *hv, int amx, const char *want)
{
	struct sb_machine_id id = {.known = 1, .amx = amx};
	snprintf(id.sig.vendor, sizeof(id.sig.vendor), "%s", vendor);
	id.sig.family = family;
	id.sig.model = model;
	snprintf(id.hypervisor, sizeof(id.hypervisor), "%s", hv);
	char buf[160];
	sb_machine_name(&id, buf, sizeof(buf));
	CHECK(strcmp(buf, want) == 0, "'%s', want '%s'", buf, want);
}

static void names(void)
{
	name_of("GenuineIntel", 6, 0xcf, "KVM", 1, "Intel Emerald Rapids (6/0xcf), KVM guest");
	name_of("AuthenticAMD", 0x19, 0x11, "", 0, "AMD Zen 4 (19/0x11)");
	name_of("GenuineIntel", 6, 0x9d, "", 0, "Intel 6/0x9d");
	/* A model number without AMX on a CPU with AMX: the hypervisor's. */
	name_of("GenuineIntel", 6, 0xa7, "KVM", 1, "Intel with AMX, KVM's 6/0xa7");
	name_of("GenuineIntel", 6, 0xa7, "", 1, "Intel with AMX, 6/0xa7 (not Rocket Lake)");
	struct sb_machine_id unknown = {0};
	char buf[64] = "x";
	sb_machine_name(&unknown, buf, sizeof(buf));
	CHECK(buf[0] == 0, "no CPUID fields: no name, got '%s'", buf);
}

/* The summary's first line of the saved run src with "cpuid" put in (cpuid
 * NULL: as saved). */
static void header(const char *src, const char *cpuid, const char *want)
{
	char tmp[] = "/tmp/test_machine_name.XXXXXX";
	int fd = mkstemp(tmp);
	FILE *in = fopen(src, "r"), *out = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!in || !out) {
		CHECK(0, "%s: cannot copy", src);
		return;
	}
	int c = fgetc(in);
	fputc(c, out);
	if (cpuid)
		fprintf(out, "\"cpuid\": %s,\n", cpuid);
	while ((c = fgetc(in)) != EOF)
		fputc(c, out);
	fclose(in);
	fclose(out);
	struct sb_run_file rf;
	char err[512], line[256] = "";
	if (sb_run_file_load(tmp, &rf, err, sizeof(err)) != 0) {
		CHECK(0, "%s", err);
		unlink(tmp);
		return;
	}
	FILE *f = fmemopen(line, sizeof(line) - 1, "w");
	sb_answer_header(f, &rf);
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	CHECK(strstr(line, want) != NULL, "%s: '%s' lacks '%s'", src, line, want);
	sb_run_file_free(&rf);
	unlink(tmp);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_machine_name DATA_DIR\n");
		return 2;
	}
	table();
	names();
	char path[1024];
	snprintf(path, sizeof(path), "%s/answer_sweep.json", argv[1]);
	header(path, "{\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": 207, \"stepping\": 2, "
		     "\"microcode\": \"0x21000283\", \"hypervisor\": \"KVM\", \"amx\": true}",
	       ": Intel Emerald Rapids (6/0xcf), CPU 1, Linux 6.18.44, returns: srso_alias_return_thunk");
	/* ", KVM guest" gives way to the kernel's version and the thunk's name. */
	/* A run saved before the fields: the model string, cleaned. */
	header(path, NULL, ": AMD EPYC, CPU ");
	/* Fields out of range are no name. */
	header(path, "{\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": 9999, \"stepping\": 2}", ": AMD EPYC, CPU ");
	return check_report("test_machine_name");
}

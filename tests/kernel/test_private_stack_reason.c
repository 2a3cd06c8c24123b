/* test_private_stack_reason.c: why a kernel gave no private stack, said
 * from what was established and nothing else (private_stack_probe.h), on
 * made-up probe findings: types that got one and types that did not, the
 * JIT's support function, the release named only where it predates v6.13,
 * the tail-call shape left out of a type's answer, the summary's short
 * form, the JSON; and the frames of the recorded JIT of a kernel that gave
 * none (tests/data/jit_v6_18_no_private_stack: rbp frames of 64 bytes, no
 * r9 setup). usage: test_private_stack_reason DATA_DIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jit/decode.h"
#include "jit/flavour.h"
#include "jit/listing.h"
#include "output/json_doc.h"
#include "kernel/private_stack_reason.h"
#include "harness/harness.h"
#include "output/reporter.h"
#include "base/read_file.h"

/* Every shape of type t loaded with outcome o. */
static void all_shapes(struct sb_private_stack_probe *p, enum sb_probe_type t, enum sb_probe_outcome o)
{
	for (int s = 0; s < SB_PROBE_N_SHAPES; s++)
		p->outcome[t][s] = s == SB_PROBE_TAIL && o == SB_PROBE_PRIVATE ? SB_PROBE_RBP : o;
}

static void reasons(void)
{
	char buf[1024], shortr[128];
	struct sb_private_stack_probe p;
	/* The Xeon 0xcf VM's 6.18.44-fc-v1252: perf_event alone. */
	memset(&p, 0, sizeof(p));
	snprintf(p.release, sizeof(p.release), "6.18.44-fc-v1252");
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		all_shapes(&p, t, t == SB_PROBE_PERF_EVENT ? SB_PROBE_PRIVATE : SB_PROBE_RBP);
	p.jit_support = SB_JIT_SUPPORT_TRUE;
	sb_private_stack_probe_reason(&p, "run_private.prog_private", buf, sizeof(buf));
	CHECK(strstr(buf, "no private stack: run_private.prog_private has an rbp frame in its JIT; this kernel gives "
			  "perf_event programs one (so its JIT can), but gave none to raw_tp, tracepoint and kprobe "
			  "programs") && strstr(buf, "bpf_jit_supports_private_stack() returns 1"),
	      "perf_event only: %s", buf);
	CHECK(!strstr(buf, "older") && !strstr(buf, "v6.13") && !strstr(buf, "x86"), "no guess: %s", buf);
	CHECK(!strchr(buf, '\n'), "one line: %s", buf);
	sb_private_stack_probe_short(&p, shortr, sizeof(shortr));
	CHECK(strcmp(shortr, "given to perf_event programs only") == 0, "short: %s", shortr);
	CHECK(sb_private_stack_probe_type_gets(&p, SB_PROBE_PERF_EVENT) == 1 &&
	      sb_private_stack_probe_type_gets(&p, SB_PROBE_RAW_TP) == 0, "type_gets");
	/* The tail call shape alone getting none decides nothing. */
	memset(&p.outcome, 0, sizeof(p.outcome));
	p.outcome[SB_PROBE_RAW_TP][SB_PROBE_TAIL] = SB_PROBE_RBP;
	CHECK(sb_private_stack_probe_type_gets(&p, SB_PROBE_RAW_TP) == -1, "tail alone: unknown");
	/* A 6.12 kernel: no support function, none given, and the release said as a fact. */
	memset(&p, 0, sizeof(p));
	snprintf(p.release, sizeof(p.release), "6.12.41-amd64");
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		all_shapes(&p, t, SB_PROBE_RBP);
	p.jit_support = SB_JIT_SUPPORT_ABSENT;
	sb_private_stack_probe_reason(&p, "htab_private.htab_body", buf, sizeof(buf));
	CHECK(strstr(buf, "this kernel gave none to raw_tp, tracepoint, kprobe and perf_event programs of 64-256 bytes "
			  "of stack, and this kernel has no bpf_jit_supports_private_stack()") &&
	      strstr(buf, "Linux 6.12.41-amd64 predates v6.13, where the private stack landed"), "6.12: %s", buf);
	sb_private_stack_probe_short(&p, shortr, sizeof(shortr));
	CHECK(strcmp(shortr, "given to no program type tried") == 0, "short: %s", shortr);
	/* 6.18, none given, the JIT's function returns 1: the verifier's doing, no version. */
	snprintf(p.release, sizeof(p.release), "6.18.44");
	p.jit_support = SB_JIT_SUPPORT_TRUE;
	sb_private_stack_probe_reason(&p, "x.y", buf, sizeof(buf));
	CHECK(strstr(buf, "returns 1") && !strstr(buf, "predates"), "6.18, none: %s", buf);
	/* Nothing loaded: the cause not known, said so. */
	memset(&p, 0, sizeof(p));
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		all_shapes(&p, t, SB_PROBE_REFUSED);
	sb_private_stack_probe_reason(&p, "x.y", buf, sizeof(buf));
	CHECK(strstr(buf, "no probe program loaded, so the cause is not known"), "refused: %s", buf);
	/* The summary's line and the JSON. */
	int no_priv[SB_N_SHAPES][SB_N_KVARIANTS] = {{0, 1, 1}, {0, 1, 1}}, shapes[SB_N_SHAPES] = {1, 0};
	memset(&p, 0, sizeof(p));
	all_shapes(&p, SB_PROBE_PERF_EVENT, SB_PROBE_PRIVATE);
	all_shapes(&p, SB_PROBE_RAW_TP, SB_PROBE_RBP);
	sb_kernel_not_measured(no_priv, shapes, &p, buf, sizeof(buf));
	CHECK(strcmp(buf, "private, hybrid in the kernel: no private stack (given to perf_event programs only)") == 0,
	      "not measured: %s", buf);
	char *json = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&json, &len);
	struct sb_doc *doc = sb_doc_new();
	sb_kernel_private_stack_doc(doc, "private_stack", no_priv, shapes, &p);
	sb_reporter_json_doc(f, doc->first);
	sb_doc_free(doc);
	fclose(f);
	CHECK(strncmp(json, "{\"without\": [\"run_private\", \"run_hybrid\"], \"given\": false, \"probe\": {", 68) == 0 &&
	      strstr(json, "{\"type\": \"perf_event\", \"shape\": \"s64\", \"big_stack\": \"static subprog, 64 bytes\", "
			   "\"outcome\": \"private\"}"), "json: %s", json);
	free(json);
}

/* The recorded JIT of a kernel that gave no private stack: rbp frames of
 * the functions' own stack, no r9 setup. */
static void recorded(const char *dir)
{
	static const struct {
		const char *file;
		int stack;
	} funcs[] = {
		{"run_private.prog_private.bin", 64}, {"run_private.sub_big.bin", 64},
		{"run_baseline.prog_baseline.bin", 8}, {"run_baseline.sub_small.bin", 8},
	};
	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		char path[1024], err[256];
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/jit_v6_18_no_private_stack/%s", dir, funcs[i].file);
		char *code = sb_read_file(path, 1 << 16, &len, err, sizeof(err));
		struct sb_listing l;
		if (!code || sb_jit_decode((const uint8_t *)code, len, funcs[i].file, &l, err, sizeof(err))) {
			CHECK(0, "%s: %s", path, err);
			free(code);
			continue;
		}
		struct sb_jit_flavour fl;
		sb_jit_detect_flavour(&l, &fl);
		CHECK(!fl.private_stack && fl.stack_bytes == funcs[i].stack && fl.rethunk,
		      "%s: private %d, stack %d (want %d), rethunk %d", funcs[i].file, fl.private_stack, fl.stack_bytes,
		      funcs[i].stack, fl.rethunk);
		sb_listing_free(&l);
		free(code);
	}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_private_stack_reason DATA_DIR\n");
		return 2;
	}
	reasons();
	recorded(argv[1]);
	return check_report("test_private_stack_reason");
}

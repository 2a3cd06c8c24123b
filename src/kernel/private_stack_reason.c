/* private_stack_reason.c: what the private-stack probe found, said in
 * words and in JSON (private_stack_reason.h). Only what was established:
 * the types that got a private stack and those that did not, what
 * bpf_jit_supports_private_stack() returns, and the release only where it
 * predates v6.13, where the x86-64 JIT's private stack landed. */
#include "kernel/private_stack_reason.h"
#include "output/json_doc.h"
#include "kernel/loader.h"

#include <stdio.h>
#include <string.h>

static const char *const type_names[SB_PROBE_N_TYPES] = {"raw_tp", "tracepoint", "kprobe", "perf_event"};
static const char *const shape_names[SB_PROBE_N_SHAPES] = {"s64", "s256", "m64", "g64", "tail"};
static const char *const shape_texts[SB_PROBE_N_SHAPES] = {
	"static subprog, 64 bytes", "static subprog, 256 bytes", "the program, 64 bytes",
	"global subprog, 64 bytes", "the program, 64 bytes, and a tail call"};
static const char *const outcome_names[] = {"not run", "private", "rbp", "refused", "unread"};

const char *sb_probe_type_name(enum sb_probe_type t)
{
	return t < SB_PROBE_N_TYPES ? type_names[t] : "?";
}

const char *sb_probe_shape_name(enum sb_probe_shape s)
{
	return s < SB_PROBE_N_SHAPES ? shape_names[s] : "?";
}

const char *sb_probe_shape_describe(enum sb_probe_shape s)
{
	return s < SB_PROBE_N_SHAPES ? shape_texts[s] : "?";
}

int sb_private_stack_probe_type_gets(const struct sb_private_stack_probe *p, enum sb_probe_type t)
{
	int none = 0;
	for (int s = 0; s < SB_PROBE_N_SHAPES; s++) {
		if (s == SB_PROBE_TAIL)
			continue;
		if (p->outcome[t][s] == SB_PROBE_PRIVATE)
			return 1;
		none += p->outcome[t][s] == SB_PROBE_RBP;
	}
	return none ? 0 : -1;
}

/* "raw_tp, tracepoint and kprobe" of the types whose gets == want. */
static int list_types(const struct sb_private_stack_probe *p, int want, char *buf, size_t len)
{
	int idx[SB_PROBE_N_TYPES], n = 0;
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		if (sb_private_stack_probe_type_gets(p, t) == want)
			idx[n++] = t;
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ",
				      type_names[idx[i]]);
	return n;
}

/* Whether the release is a Linux before v6.13 (1), from 6.13 on (0), or
 * unreadable (-1). */
static int predates_v6_13(const char *release)
{
	int major, minor;
	if (sscanf(release, "%d.%d", &major, &minor) != 2)
		return -1;
	return major < 6 || (major == 6 && minor < 13);
}

static const char *support_text(enum sb_probe_jit_support s)
{
	switch (s) {
	case SB_JIT_SUPPORT_ABSENT:
		return "this kernel has no bpf_jit_supports_private_stack()";
	case SB_JIT_SUPPORT_TRUE:
		return "bpf_jit_supports_private_stack() returns 1";
	case SB_JIT_SUPPORT_FALSE:
		return "bpf_jit_supports_private_stack() returns 0";
	case SB_JIT_SUPPORT_OTHER:
		return "bpf_jit_supports_private_stack()'s text could not be read as a constant";
	default:
		return "whether the JIT supports it could not be read (no kernel text)";
	}
}

void sb_private_stack_probe_reason(const struct sb_private_stack_probe *p, const char *what, char *buf,
				   size_t len)
{
	char with[96], without[96];
	int n_with = list_types(p, 1, with, sizeof(with));
	int n_without = list_types(p, 0, without, sizeof(without));
	int old = predates_v6_13(p->release);
	size_t o = (size_t)snprintf(buf, len, "no private stack: %s has an rbp frame in its JIT; ", what);
	if (o >= len)
		return;
	if (n_with && n_without)
		o += (size_t)snprintf(buf + o, len - o, "this kernel gives %s programs one (so its JIT can), "
				      "but gave none to %s programs of 64-256 bytes of stack", with, without);
	else if (n_with)
		o += (size_t)snprintf(buf + o, len - o, "this kernel gives %s programs one", with);
	else if (n_without)
		o += (size_t)snprintf(buf + o, len - o, "this kernel gave none to %s programs of 64-256 bytes "
				      "of stack, and %s", without, support_text(p->jit_support));
	else
		o += (size_t)snprintf(buf + o, len - o, "no probe program loaded, so the cause is not known");
	if (o < len && n_with && p->jit_support == SB_JIT_SUPPORT_TRUE)
		o += (size_t)snprintf(buf + o, len - o, "; %s", support_text(p->jit_support));
	if (o < len && old == 1)
		snprintf(buf + o, len - o, "; Linux %s predates v6.13, where the private stack landed", p->release);
}

void sb_private_stack_probe_lines(FILE *f, const struct sb_private_stack_probe *p)
{
	for (int t = 0; t < SB_PROBE_N_TYPES; t++) {
		fprintf(f, "private-stack probe: %-10s", type_names[t]);
		for (int s = 0; s < SB_PROBE_N_SHAPES; s++)
			fprintf(f, "%s %s %s", s ? "," : "", shape_names[s], outcome_names[p->outcome[t][s]]);
		fputc('\n', f);
	}
	fprintf(f, "private-stack probe: Linux %s; %s\n", p->release[0] ? p->release : "(release unknown)",
		support_text(p->jit_support));
}

void sb_private_stack_probe_doc(struct sb_doc *parent, const char *key, const struct sb_private_stack_probe *p)
{
	static const char *const support_names[] = {"unknown", "absent", "true", "false", "other"};
	struct sb_doc *o = sb_doc_object(parent, key);
	sb_doc_string(o, "release", p->release);
	sb_doc_string(o, "jit_supports_private_stack", support_names[p->jit_support]);
	struct sb_doc *progs = sb_doc_array(o, "programs");
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		for (int s = 0; s < SB_PROBE_N_SHAPES; s++) {
			struct sb_doc *g = sb_doc_object(progs, NULL);
			sb_doc_string(g, "type", type_names[t]);
			sb_doc_string(g, "shape", shape_names[s]);
			sb_doc_string(g, "big_stack", shape_texts[s]);
			sb_doc_string(g, "outcome", outcome_names[p->outcome[t][s]]);
			if (p->outcome[t][s] == SB_PROBE_REFUSED)
				sb_doc_int(g, "errno", p->load_errno[t][s]);
		}
}

void sb_private_stack_probe_short(const struct sb_private_stack_probe *p, char *buf, size_t len)
{
	char with[96], without[96];
	int n_with = list_types(p, 1, with, sizeof(with));
	int n_without = list_types(p, 0, without, sizeof(without));
	if (n_with && n_without)
		snprintf(buf, len, "given to %s programs only", with);
	else if (n_with)
		snprintf(buf, len, "yet the probe's %s programs got one", with);
	else if (n_without)
		snprintf(buf, len, "given to no program type tried");
	else
		snprintf(buf, len, "the probe could not load its programs");
}

void sb_kernel_not_measured_as(const char *what_not, const struct sb_private_stack_probe *p, char *buf,
			       size_t len)
{
	char probe[128] = "";
	if (p)
		sb_private_stack_probe_short(p, probe, sizeof(probe));
	snprintf(buf, len, "%s: no private stack%s%s%s", what_not, probe[0] ? " (" : "", probe, probe[0] ? ")" : "");
}

void sb_kernel_not_measured(const int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], const int shapes[SB_N_SHAPES],
			    const struct sb_private_stack_probe *p, char *buf, size_t len)
{
	int any[SB_N_KVARIANTS] = {0};
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			any[v] |= shapes[s] && no_priv[s][v];
	char what[64];
	snprintf(what, sizeof(what), "%s%s%s in the kernel", any[SB_KV_PRIVATE] ? "private" : "",
		 any[SB_KV_PRIVATE] && any[SB_KV_HYBRID] ? ", " : "", any[SB_KV_HYBRID] ? "hybrid" : "");
	sb_kernel_not_measured_as(what, p, buf, len);
}

void sb_kernel_private_stack_doc(struct sb_doc *parent, const char *key,
				 const int no_priv[SB_N_SHAPES][SB_N_KVARIANTS], const int shapes[SB_N_SHAPES],
				 const struct sb_private_stack_probe *p)
{
	int given = 1;
	struct sb_doc *o = sb_doc_object(parent, key);
	struct sb_doc *without = sb_doc_array(o, "without");
	for (int s = 0; s < SB_N_SHAPES; s++)
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			if (shapes[s] && no_priv[s][v]) {
				sb_doc_string(without, NULL, sb_kernel_prog_name(s, v));
				given = 0;
			}
	sb_doc_bool(o, "given", given);
	if (p)
		sb_private_stack_probe_doc(o, "probe", p);
	else
		sb_doc_null(o, "probe");
}

/* private_stack_probe.c: loads each program of
 * bench/bpf/private_stack_probe.bpf.c on its own, reads its JIT back and
 * says whether the function with the big stack sets up r9; reads the text
 * of bpf_jit_supports_private_stack() where kallsyms gives its address.
 * The sentences made of it: private_stack_reason.c. */
#include "kernel/private_stack_probe.h"
#include "jit/decode.h"
#include "base/error.h"
#include "kernel/jit_check.h"
#include "kernel/jit_read.h"
#include "kernel/kernel_text.h"
#include "jit/ksyms.h"
#include "kernel/private_stack_reason.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "private_stack_probe.skel.h"

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* The function of program <type>_<shape> that holds the big stack. */
static void big_func(const char *prog, enum sb_probe_shape s, char *buf, size_t len)
{
	if (s == SB_PROBE_M64 || s == SB_PROBE_TAIL)
		snprintf(buf, len, "%s", prog);
	else
		snprintf(buf, len, "big_%s", sb_probe_shape_name(s));
}

/* Whether function name of the image sets up r9: 1, 0, or -1 (absent or
 * not decodable); with the test hook for type t, never 1. */
static int func_has_r9(const struct sb_jit_image *img, const char *name, enum sb_probe_type t)
{
	static const int bpf_types[SB_PROBE_N_TYPES] = {BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT,
							 BPF_PROG_TYPE_KPROBE, BPF_PROG_TYPE_PERF_EVENT};
	int r = sb_jit_func_private_stack(img, name);
	return r == 1 && sb_kernel_test_no_private_stack_for(bpf_types[t]) ? 0 : r;
}

/* Loads program t_s alone and fills in its outcome. */
static void probe_one(struct sb_private_stack_probe *p, enum sb_probe_type t, enum sb_probe_shape s)
{
	char want[64], func[64], err[256];
	snprintf(want, sizeof(want), "%s_%s", sb_probe_type_name(t), sb_probe_shape_name(s));
	struct private_stack_probe *skel = private_stack_probe__open();
	if (!skel) {
		p->outcome[t][s] = SB_PROBE_REFUSED;
		p->load_errno[t][s] = errno;
		return;
	}
	struct bpf_program *prog, *mine = NULL;
	bpf_object__for_each_program(prog, skel->obj)
	{
		int me = strcmp(bpf_program__name(prog), want) == 0;
		bpf_program__set_autoload(prog, me);
		if (me)
			mine = prog;
	}
	if (!mine || private_stack_probe__load(skel)) {
		p->outcome[t][s] = SB_PROBE_REFUSED;
		p->load_errno[t][s] = mine ? errno : ENOENT;
		private_stack_probe__destroy(skel);
		return;
	}
	struct sb_jit_image img;
	if (sb_jit_read(bpf_program__fd(mine), &img, err, sizeof(err))) {
		p->outcome[t][s] = SB_PROBE_UNREAD;
	} else {
		big_func(want, s, func, sizeof(func));
		int r9 = func_has_r9(&img, func, t);
		p->outcome[t][s] = r9 < 0 ? SB_PROBE_UNREAD : r9 ? SB_PROBE_PRIVATE : SB_PROBE_RBP;
		sb_jit_image_free(&img);
	}
	private_stack_probe__destroy(skel);
}

/* bpf_jit_supports_private_stack()'s first instruction after an endbr64
 * and the ftrace nop5 (or call): mov eax, 1 or xor eax, eax. */
static enum sb_probe_jit_support read_jit_support(void)
{
	struct sb_ksyms ks;
	char err[256];
	if (sb_ksyms_load("/proc/kallsyms", &ks, err, sizeof(err)))
		return SB_JIT_SUPPORT_UNKNOWN;
	const struct sb_ksym *k = sb_ksyms_find(&ks, "bpf_jit_supports_private_stack");
	uint64_t addr = k ? k->addr : 0;
	sb_ksyms_free(&ks);
	if (!k)
		return SB_JIT_SUPPORT_ABSENT;
	uint8_t text[32];
	if (sb_kernel_read_text(addr, text, sizeof(text), err, sizeof(err)))
		return SB_JIT_SUPPORT_UNKNOWN;
	size_t i = 0;
	if (memcmp(text, "\xf3\x0f\x1e\xfa", 4) == 0)
		i += 4;
	if (memcmp(text + i, "\x0f\x1f\x44\x00\x00", 5) == 0 || text[i] == 0xe8)
		i += 5;
	if (memcmp(text + i, "\xb8\x01\x00\x00\x00", 5) == 0)
		return SB_JIT_SUPPORT_TRUE;
	if (memcmp(text + i, "\x31\xc0", 2) == 0)
		return SB_JIT_SUPPORT_FALSE;
	return SB_JIT_SUPPORT_OTHER;
}

int sb_private_stack_probe_run(struct sb_private_stack_probe *p, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(p->release, sizeof(p->release), "%s", u.release);
	libbpf_print_fn_t old = libbpf_set_print(silent);
	int loaded = 0;
	for (int t = 0; t < SB_PROBE_N_TYPES; t++)
		for (int s = 0; s < SB_PROBE_N_SHAPES; s++) {
			probe_one(p, t, s);
			loaded += p->outcome[t][s] == SB_PROBE_PRIVATE || p->outcome[t][s] == SB_PROBE_RBP;
		}
	p->jit_support = read_jit_support();
	libbpf_set_print(old);
	if (!loaded) {
		sb_set_err(err, errlen, "private-stack probe: no probe program loaded and JITed (raw_tp: %s)",
			   sb_errno_cause(p->load_errno[SB_PROBE_RAW_TP][SB_PROBE_S64]));
		return -1;
	}
	return 0;
}

int sb_kernel_no_private_stack_reason(const char *what, struct sb_private_stack_probe *p, char *buf, size_t len,
				      FILE *info)
{
	char err[256];
	const char *e = getenv("STUBBENCH_TEST_NO_PRIV_STACK");
	char hook[160] = "";
	if (sb_kernel_test_no_private_stack())
		snprintf(hook, sizeof(hook), " [test hook STUBBENCH_TEST_NO_PRIV_STACK=%s: the JIT checks see no "
			 "private stack in %s programs]", e, strcmp(e, "1") == 0 ? "any" : e);
	if (sb_private_stack_probe_run(p, err, sizeof(err)) != 0) {
		snprintf(buf, len, "no private stack: %s has an rbp frame in its JIT; why is not known: %s%s", what,
			 err, hook);
		return -1;
	}
	if (info)
		sb_private_stack_probe_lines(info, p);
	size_t n;
	sb_private_stack_probe_reason(p, what, buf, len);
	n = strlen(buf);
	if (n < len)
		snprintf(buf + n, len - n, "%s", hook);
	return 0;
}

int sb_kernel_say_no_private_stack(const char *what, FILE *info, FILE *say, struct sb_private_stack_probe *p)
{
	char reason[1024];
	int probed = sb_kernel_no_private_stack_reason(what, p, reason, sizeof(reason), info) == 0;
	fprintf(say, "stubbench kernel: %s\n", reason);
	return probed;
}

/* kernel_text.c: bytes of the running kernel's text, copied by a raw_tp
 * program with bpf_probe_read_kernel (bench/bpf/kernel_text.bpf.c) and one
 * BPF_PROG_TEST_RUN, where there is no /proc/kcore. */
#include "kernel/kernel_text.h"
#include "base/error.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <string.h>

#include "kernel_text.skel.h"

static int silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

int sb_kernel_read_text(uint64_t addr, uint8_t *buf, size_t len, char *err, size_t errlen)
{
	if (len > SB_KERNEL_TEXT_MAX) {
		sb_set_err(err, errlen, "at most %d bytes of kernel text at a time", SB_KERNEL_TEXT_MAX);
		return -1;
	}
	libbpf_print_fn_t old = libbpf_set_print(silent);
	struct kernel_text *skel = kernel_text__open_and_load();
	int rc = -1;
	if (!skel) {
		sb_set_err(err, errlen, "reading kernel text with bpf_probe_read_kernel: the raw_tp program "
			   "does not load (%s)", sb_errno_cause(errno));
		goto out;
	}
	skel->bss->text_addr = addr;
	skel->bss->text_rc = 1;
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.read_text), &opts)) {
		sb_set_err(err, errlen, "reading kernel text: BPF_PROG_TEST_RUN refused (%s)", sb_errno_cause(errno));
		goto out;
	}
	if (skel->bss->text_rc != 0) {
		sb_set_err(err, errlen, "reading kernel text at %#llx: bpf_probe_read_kernel refused (%s)",
			   (unsigned long long)addr, sb_errno_cause((int)-skel->bss->text_rc));
		goto out;
	}
	memcpy(buf, skel->bss->text, len);
	rc = 0;
out:
	kernel_text__destroy(skel);
	libbpf_set_print(old);
	return rc;
}

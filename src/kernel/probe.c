/* probe.c: what the machine lacks for the kernel-side run, found
 * before loading anything: the capabilities (CAP_BPF or CAP_SYS_ADMIN) and
 * the JIT switch. Test-run refusal and private-stack support can only be
 * seen after a load; kernel_probe_run.c names them. */
#include "kernel/probe.h"
#include "harness/pin.h"
#include "kernel/signals.h"
#include "kernel/loader.h"

#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int has_cap(const struct __user_cap_data_struct d[2], int cap)
{
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

enum sb_kernel_status sb_kernel_probe(char *why, size_t whylen)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data) == 0 && !has_cap(data, CAP_BPF) &&
	    !has_cap(data, CAP_SYS_ADMIN)) {
		snprintf(why, whylen, "no CAP_BPF or CAP_SYS_ADMIN: run as root (or grant CAP_BPF and CAP_PERFMON)");
		return SB_KERNEL_NO_CAP;
	}
	FILE *f = fopen("/proc/sys/net/core/bpf_jit_enable", "r");
	if (f) {
		int on = -1;
		if (fscanf(f, "%d", &on) == 1 && on == 0) {
			fclose(f);
			snprintf(why, whylen, "BPF JIT is off (net.core.bpf_jit_enable=0): no JITed code to time or compare");
			return SB_KERNEL_NO_JIT;
		}
		fclose(f);
	}
	snprintf(why, whylen, "ok");
	return SB_KERNEL_OK;
}

enum sb_kernel_status sb_kernel_start(int cpu_req, int *cpu, char *why, size_t whylen)
{
	enum sb_kernel_status st = sb_kernel_probe(why, whylen);
	if (st != SB_KERNEL_OK)
		return st;
	if (sb_pin_thread(cpu_req, cpu, why, whylen) != 0)
		return SB_KERNEL_USAGE;
	sb_kernel_install_signals();
	return SB_KERNEL_OK;
}

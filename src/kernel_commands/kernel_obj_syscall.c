/* kernel_obj_syscall.c: the kernel's own A/B of a `stubbench kernel --obj`
 * run: its programs with a private stack loaded again as syscall programs,
 * which the JIT gives none; see kernel_obj.h. */
#include "kernel_obj.h"

#include "kernel/user_obj.h"

/* The syscall copies, one per load and batch, each after a spacer. 0, or
 * -1 with why (sized errlen). */
static int load_copies(struct sb_obj_run *r, char *why, size_t errlen)
{
	enum sb_kernel_status st;
	for (size_t b = 0; b < r->n_loads * r->n_batches; b++) {
		uint32_t batch = (uint32_t)r->batches[b % r->n_batches];
		if (sb_obj_spacer(r, why, errlen) != 0)
			return -1;
		r->sys[b] = sb_user_obj_load_as_syscall(r->cfg->kernel.obj, batch, r->private_progs, r->n_private_progs, &st,
							why, errlen);
		if (!r->sys[b])
			return -1;
		r->n_sys++;
	}
	return 0;
}

int sb_obj_load_syscall_copies(struct sb_obj_run *r, int cpu, FILE *info)
{
	char why[1024];
	if (!r->n_private_progs)
		return 0;
	if (load_copies(r, why, sizeof(why)) != 0) {
		fprintf(info, "kernel A/B: none: %s\n", why);
		return 0;
	}
	for (size_t i = 0; i < r->n_private_progs; i++)
		if (sb_obj_jit_private(r->sys[0], r->private_progs[i]) != 0) {
			fprintf(info, "kernel A/B: none: %s as a syscall program still has a private stack, or no JIT "
				"to read\n", r->private_progs[i]);
			return 0;
		}
	for (size_t l = 0; l < r->n_loads; l++)
		if ((r->empty_sys_fds[l] = sb_user_obj_empty_syscall(why, sizeof(why))) < 0) {
			r->empty_sys_fds[l] = 0;
			fprintf(info, "kernel A/B: none: %s\n", why);
			return 0;
		}
	enum sb_kernel_status st = sb_user_obj_check_runs(r->sys[0], r->private_progs, r->n_private_progs, cpu, 0,
							   why, sizeof(why));
	if (st != SB_KERNEL_OK) {
		fprintf(info, "kernel A/B: none: as a syscall program: %s\n", why);
		return 0;
	}
	fprintf(info, "kernel A/B: %s loaded again as syscall program%s (no private stack)\n",
		r->n_private_progs == 1 ? r->private_progs[0] : "the programs with a private stack",
		r->n_private_progs == 1 ? "" : "s");
	for (size_t i = 0; i < r->n_private_progs; i++)
		sb_obj_compare_deprivatized(r->objs[0], r->sys[0], r->private_progs[i], info);
	return 1;
}

/* pin.c: CPU pinning, the SMT sibling of a CPU and the machine description, through hwloc. */
#include "harness/pin.h"

#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>


static hwloc_topology_t topology(void)
{
	static hwloc_topology_t topo;
	static int loaded;
	if (!loaded) {
		if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
			return NULL;
		loaded = 1;
	}
	return topo;
}

/* What this process may run on (taskset, cgroups); free it. */
static hwloc_bitmap_t allowed_set(hwloc_topology_t topo)
{
	hwloc_const_cpuset_t allowed = hwloc_topology_get_allowed_cpuset(topo);
	hwloc_bitmap_t mine = hwloc_bitmap_alloc();
	if (hwloc_get_cpubind(topo, mine, HWLOC_CPUBIND_PROCESS) != 0)
		hwloc_bitmap_copy(mine, allowed);
	else
		hwloc_bitmap_and(mine, mine, allowed);
	return mine;
}

int sb_pin_thread(int cpu, int *chosen, char *err, size_t errlen)
{
	hwloc_topology_t topo = topology();
	if (!topo) {
		snprintf(err, errlen, "hwloc could not read the CPU topology");
		return -1;
	}
	hwloc_bitmap_t mine = allowed_set(topo);

	if (cpu < 0) {
		int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
		for (int i = n - 1; i >= 0 && cpu < 0; i--) {
			hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)i);
			hwloc_bitmap_t both = hwloc_bitmap_alloc();
			hwloc_bitmap_and(both, core->cpuset, mine);
			if (!hwloc_bitmap_iszero(both))
				cpu = hwloc_bitmap_first(both);
			hwloc_bitmap_free(both);
		}
		if (cpu < 0)
			cpu = hwloc_bitmap_last(mine);
		if (cpu < 0) {
			snprintf(err, errlen, "no CPU is allowed for this process");
			hwloc_bitmap_free(mine);
			return -1;
		}
	} else {
		hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
		/* A CPU the machine has but a cgroup's cpuset (or being offline)
		 * keeps out of this process's topology. */
		if (!pu && hwloc_bitmap_isset(hwloc_topology_get_complete_cpuset(topo), (unsigned)cpu)) {
			char *list = NULL;
			hwloc_bitmap_list_asprintf(&list, mine);
			snprintf(err, errlen, "--cpu=%d: CPU not in this process's allowed set (%s): a cpuset or "
				 "offline", cpu, list ? list : "?");
			free(list);
			hwloc_bitmap_free(mine);
			return -1;
		}
		if (!pu) {
			snprintf(err, errlen, "--cpu=%d: no such CPU (this machine has CPUs 0-%d)", cpu,
				 hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(topo)));
			hwloc_bitmap_free(mine);
			return -1;
		}
		if (!hwloc_bitmap_isset(mine, (unsigned)cpu)) {
			char *list = NULL;
			hwloc_bitmap_list_asprintf(&list, mine);
			snprintf(err, errlen, "--cpu=%d: CPU not in this process's allowed set (%s)", cpu,
				 list ? list : "?");
			free(list);
			hwloc_bitmap_free(mine);
			return -1;
		}
	}
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, (unsigned)cpu);
	int rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
	if (rc != 0)
		rc = hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD);
	hwloc_bitmap_free(set);
	hwloc_bitmap_free(mine);
	if (rc != 0) {
		snprintf(err, errlen, "--cpu=%d: cannot pin to it: %s", cpu, strerror(errno));
		return -1;
	}
	*chosen = cpu;
	return 0;
}

void sb_machine_description(char *buf, size_t len)
{
	hwloc_topology_t topo = topology();
	const char *model = NULL;
	int cores = 0, pus = 0;
	if (topo) {
		hwloc_obj_t pkg = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PACKAGE, 0);
		if (pkg)
			model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
		cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
		pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	}
	struct utsname u;
	if (uname(&u) != 0)
		strcpy(u.release, "?");
	snprintf(buf, len, "%s, %d cores / %d PUs, Linux %s", model ? model : "unknown CPU", cores,
		 pus, u.release);
}

int sb_has_smt_sibling(int cpu)
{
	hwloc_topology_t topo = topology();
	hwloc_obj_t me = topo && cpu >= 0 ? hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu) : NULL;
	hwloc_obj_t core = me ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, me) : NULL;
	if (!core)
		return -1;
	return hwloc_bitmap_weight(core->complete_cpuset ? core->complete_cpuset : core->cpuset) > 1;
}

int sb_smt_sibling(int cpu, int *pu, char *why, size_t whylen)
{
	hwloc_topology_t topo = topology();
	*pu = -1;
	if (!topo) {
		snprintf(why, whylen, "hwloc could not read the CPU topology");
		return -1;
	}
	hwloc_obj_t me = hwloc_get_pu_obj_by_os_index(topo, (unsigned)cpu);
	hwloc_obj_t core = me ? hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, me) : NULL;
	if (!core) {
		snprintf(why, whylen, "CPU %d has no core in hwloc's topology", cpu);
		return -1;
	}
	/* The core's PUs, those outside this process's cpuset or offline included. */
	hwloc_bitmap_t others = hwloc_bitmap_dup(core->complete_cpuset ? core->complete_cpuset : core->cpuset);
	hwloc_bitmap_clr(others, (unsigned)cpu);
	int sib = hwloc_bitmap_first(others), rc = -1;
	hwloc_bitmap_t mine = allowed_set(topo);
	if (sib < 0) {
		snprintf(why, whylen, "CPU %d has no SMT sibling in this machine's topology (hwloc: %d PU%s per core)",
			 cpu, hwloc_bitmap_weight(core->cpuset), hwloc_bitmap_weight(core->cpuset) == 1 ? "" : "s");
	} else if (!hwloc_bitmap_isset(mine, (unsigned)sib)) {
		char *list = NULL;
		hwloc_bitmap_list_asprintf(&list, mine);
		snprintf(why, whylen, "CPU %d's SMT sibling, CPU %d, is outside this process's allowed set (%s)", cpu,
			 sib, list ? list : "?");
		free(list);
	} else {
		*pu = sib;
		rc = 0;
	}
	hwloc_bitmap_free(mine);
	hwloc_bitmap_free(others);
	return rc;
}

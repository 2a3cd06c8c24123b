/* kernel_plan.c: which built-in programs `stubbench kernel` measures, read
 * from --shape and --variant (kernel_run.h). The front end reads them with
 * these to refuse bad input while parsing; the run reads them again from
 * its configuration. */
#include "kernel_commands/kernel_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stubbench/parse.h"

int sb_kernel_plan_shape(struct sb_kernel_plan *p, const char *shape, char *err, size_t errlen)
{
	const char *s = shape ? shape : "all";
	p->shapes[0] = p->shapes[1] = 0;
	p->htab = 0;
	if (strcmp(s, "htab") == 0)
		p->htab = 1;
	else if (strcmp(s, "all") == 0)
		p->shapes[0] = p->shapes[1] = 1;
	else if (strcmp(s, "per-run") == 0)
		p->shapes[SB_SHAPE_PER_RUN] = 1;
	else if (strcmp(s, "in-loop") == 0)
		p->shapes[SB_SHAPE_IN_LOOP] = 1;
	else {
		snprintf(err, errlen, "--shape: unknown shape '%s' (per-run, in-loop, all, htab)", s);
		return -1;
	}
	return 0;
}

/* One name of --variant's list: "all", or a variant by its name or seed
 * name, each at most once. Returns 0, or -1 with err. */
static int plan_variant(struct sb_kernel_plan *p, int named[SB_N_KVARIANTS], const char *t, char *err,
			size_t errlen)
{
	if (strcmp(t, "all") == 0) {
		for (int v = 0; v < SB_N_KVARIANTS; v++)
			p->want[v] = 1;
		return 0;
	}
	int found = 0, rc = 0;
	for (int v = 0; v < SB_N_KVARIANTS; v++)
		if (strcmp(t, sb_kernel_variant_name(v)) == 0 || strcmp(t, sb_kernel_variant_seed_name(v)) == 0) {
			if (named[v])
				snprintf(err, errlen, "--variant: '%s' names the variant %s again", t,
					 sb_kernel_variant_name(v));
			rc = named[v] ? -1 : 0;
			p->want[v] = named[v] = found = 1;
		}
	if (!found) {
		snprintf(err, errlen, "--variant: unknown variant '%s' (baseline, private, hybrid, all)", t);
		rc = -1;
	}
	return rc;
}

int sb_kernel_plan_variants(struct sb_kernel_plan *p, const char *variants, char *err, size_t errlen)
{
	char *buf, **items;
	int n = sb_parse_names("--variant", variants, &buf, &items, err, errlen);
	if (n < 0)
		return -1;
	memset(p->want, 0, sizeof(p->want));
	int named[SB_N_KVARIANTS] = {0}, rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		rc = plan_variant(p, named, items[i], err, errlen);
	p->want[SB_KV_BASELINE] = 1;
	free(buf);
	free(items);
	return rc;
}

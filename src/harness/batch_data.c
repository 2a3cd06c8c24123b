/* batch_data.c: room for a batch size's rounds and blocks; see batch_data.h. */
#include "batch_data.h"

#include <stdlib.h>
#include <string.h>

int sb_batch_reserve_rounds(struct batch_data *d, size_t n_arms, size_t need)
{
	if (need <= d->cap)
		return 0;
	size_t cap = d->cap ? d->cap * 2 : 4096;
	while (cap < need)
		cap *= 2;
	double *t = calloc(cap * n_arms, sizeof(*t));
	if (!t)
		return -1;
	for (size_t a = 0; a < n_arms && d->n_rounds; a++)
		memcpy(t + a * cap, d->ticks + a * d->cap, d->n_rounds * sizeof(*t));
	free(d->ticks);
	d->ticks = t;
	d->cap = cap;
	return 0;
}

int sb_batch_reserve_blocks(struct batch_data *d, size_t need)
{
	if (need <= d->blocks_cap)
		return 0;
	size_t cap = d->blocks_cap ? d->blocks_cap * 2 : 256;
	while (cap < need)
		cap *= 2;
	struct block *nb = realloc(d->blocks, cap * sizeof(*nb));
	if (!nb)
		return -1;
	d->blocks = nb;
	d->blocks_cap = cap;
	return 0;
}

void sb_batch_data_free(struct batch_data *d)
{
	free(d->ticks);
	free(d->blocks);
	memset(d, 0, sizeof(*d));
}

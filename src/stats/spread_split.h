/* spread_split.h: where the spread of a figure over re-rolled states
 * comes from: the states differing from each other, or the blocks
 * scattering within each state.
 *
 * The figure is the mean over the g states of each state's mean over its
 * blocks (a kernel run's figure over its loads). A one-way random-effects
 * split of that figure's variance:
 *   within:  the blocks' variance about their own state's mean, pooled
 *            over the states of two blocks or more (s_w^2), as it carries
 *            into the figure: s_w^2 x sum(1 / n_i) / g^2 (a state of one
 *            block has the pooled scatter too, though it cannot show it);
 *   between: the variance of the states' means over g, less that within
 *            share (0 where the blocks' scatter explains all of it; all
 *            of it where no state has two blocks: the within share is
 *            then not known).
 * Each is given as the half-width of the 95 % interval that source alone
 * would give the figure: its standard error times t(g - 1) x sqrt(g / (g -
 * 1)), the widening the bootstraps over few states use, so that the two
 * halves compare with each other and with the figure's own CI. */
#ifndef STUBBENCH_SPREAD_SPLIT_H
#define STUBBENCH_SPREAD_SPLIT_H

#include <stddef.h>

#include "stubbench/estimate.h"

struct sb_spread_split {
	size_t states;            /* states with a block */
	size_t states_of_two;     /* of them, with two blocks or more */
	/* The figure (the mean over states of their means), with the interval
	 * each source alone gives it: between absent with one state, within
	 * absent without a state of two blocks. */
	struct sb_estimate between, within;
};

/* The split of n block values x, block i in state[i]. Returns 0, or -1
 * when n is 0 or memory runs out (out's estimates absent). */
int sb_spread_split(const double *x, const size_t *state, size_t n, struct sb_spread_split *out);

#endif

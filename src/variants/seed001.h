/* seed001.h: the symbols of the seed 001 replicas
 * (asm/replicas_seed001_v2.asm), for the tests that call them by name. */
#ifndef STUBBENCH_SEED001_H
#define STUBBENCH_SEED001_H

#include <stdint.h>

int sb_seed001_baseline_sub(void);
int sb_seed001_baseline_main(void);
int sb_seed001_private_sub(void);
int sb_seed001_private_main(void);
int sb_seed001_hybrid_main(void);

extern volatile uint64_t sb_seed001_baseline_hits;
extern volatile uint64_t sb_seed001_private_hits;
extern volatile uint64_t sb_seed001_hybrid_hits;

/* Private stack areas in the per-CPU template (asm PRIV_AREA). */
extern char sb_seed001_private_sub_area[];
extern char sb_seed001_private_main_area[];
extern char sb_seed001_hybrid_main_area[];

#endif

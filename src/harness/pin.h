/* pin.h: pinning the measuring thread to one CPU, with hwloc. */
#ifndef STUBBENCH_PIN_H
#define STUBBENCH_PIN_H

#include <stddef.h>

/* Pins the calling thread to CPU cpu (an OS index), or with cpu < 0 to the
 * first PU of the last core of the allowed set. Stores the CPU in *chosen.
 * Returns 0, or -1 with a message naming the CPU in err (a CPU that does not
 * exist or is not in this process's allowed set). */
int sb_pin_thread(int cpu, int *chosen, char *err, size_t errlen);

/* A one-line description of the machine ("model, N cores / M PUs, kernel"). */
void sb_machine_description(char *buf, size_t len);

/* The SMT sibling of CPU cpu (pin.c): its OS index into *pu and 0, or -1
 * with why ("CPU 1 has no SMT sibling in this machine's topology (hwloc: 1
 * PU per core)", or outside this process's allowed set). */
int sb_smt_sibling(int cpu, int *pu, char *why, size_t whylen);

/* 1 when CPU cpu's core has another PU in this machine's topology (an SMT
 * sibling, allowed or not), 0 when it has none, -1 when hwloc cannot say. */
int sb_has_smt_sibling(int cpu);

#endif

/* parse.h: checked parsing of option values, shared by the command line and
 * the config files. Every error message names the option and the value. */
#ifndef STUBBENCH_PARSE_H
#define STUBBENCH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define SB_MAX_BATCHES 32

/* A whole number >= min. */
int sb_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t *out, char *err, size_t errlen);
/* A finite number > 0. */
int sb_parse_seconds(const char *opt, const char *s, double *out, char *err, size_t errlen);
/* A CPU number (0..4095). */
int sb_parse_cpu(const char *opt, const char *s, int *out, char *err, size_t errlen);
/* Batch sizes separated by commas or spaces, each >= 1, at most SB_MAX_BATCHES. */
int sb_parse_batches(const char *opt, const char *s, uint64_t *out, size_t *n, char *err, size_t errlen);

#endif

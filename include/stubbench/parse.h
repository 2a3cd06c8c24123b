/* parse.h: checked parsing of option values, shared by the command line and
 * the config files. Every error message names the option and the value, and
 * a value above its bound names the bound. */
#ifndef STUBBENCH_PARSE_H
#define STUBBENCH_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* At most this many batch sizes in one list. */
#define SB_MAX_BATCHES 32
/* Iterations per sample (--batch, [sweep] batches): a sample of 2^20
 * iterations of a slow variant already takes tens of milliseconds, and a
 * round holds one sample per arm. (BPF programs have a lower bound, set by
 * the verifier: SB_KERNEL_MAX_BATCH in loader.h.) */
#define SB_MAX_BATCH (UINT64_C(1) << 20)
/* Rounds per batch size (--samples, [sweep] samples). The harness keeps
 * every sample of every arm in memory; this is also the most rounds a
 * --time run takes per batch size (it says so when the cap ends a batch
 * before its time). */
#define SB_MAX_SAMPLES UINT64_C(400000)
/* Main-prog calls per variant for --calls (a few seconds at most). */
#define SB_MAX_CALLS UINT64_C(100000000)
/* --time, [sweep] time: seconds for the whole sweep (one day). */
#define SB_MAX_TIME_S 86400.0

/* A whole number >= min. */
int sb_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t *out, char *err, size_t errlen);
/* A whole number in [min, max]; above max the message names the bound. */
int sb_parse_u64_range(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out,
		       char *err, size_t errlen);
/* Rounds per batch size: a whole number in [min, SB_MAX_SAMPLES] (min is 0
 * in config files, where 0 means "use the time"). */
int sb_parse_samples(const char *opt, const char *s, uint64_t min, uint64_t *out, char *err,
		     size_t errlen);
/* --calls: a whole number in [1, SB_MAX_CALLS]. */
int sb_parse_calls(const char *opt, const char *s, uint64_t *out, char *err, size_t errlen);
/* A finite number of seconds in (0, SB_MAX_TIME_S]. */
int sb_parse_seconds(const char *opt, const char *s, double *out, char *err, size_t errlen);
/* A CPU number (0..4095). */
int sb_parse_cpu(const char *opt, const char *s, int *out, char *err, size_t errlen);
/* Batch sizes separated by commas or spaces, each in [1, SB_MAX_BATCH], at
 * most SB_MAX_BATCHES of them; the list may be of any length. */
int sb_parse_batches(const char *opt, const char *s, uint64_t *out, size_t *n, char *err, size_t errlen);
/* Names separated by commas or spaces ("a,b", "a, b", "a b"), each named
 * once, none empty: two commas or a comma at an end is an error, and so is
 * a name given twice (err names it). On success *items (n pointers into
 * *buf, a copy of s) must be freed with *buf; returns n >= 1, or -1 with
 * err "OPT: ...". */
int sb_parse_names(const char *opt, const char *s, char **buf, char ***items, char *err, size_t errlen);

#endif

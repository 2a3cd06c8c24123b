/* diff_globals.h: the values `stubbench diff --global` puts in its twins'
 * memory (docs/diff.md). A twin of a JIT image read from a file gives every
 * kernel address a movabs loads a zeroed page (diff_twin.h); a loop bound
 * or a flag the program reads there is then 0. --global=NAME=VALUE sets
 * the global NAME, its kernel address from the "# global NAME at 0xKADDR,
 * SIZE bytes" lines kernel --obj's --dump-jit writes in each .lst header;
 * --global=0xKADDR[+OFF]=VALUE sets the bytes at that kernel address (4
 * of them, 8 when VALUE does not fit in 4) wherever a side's movabs points
 * at or below it, within its page. */
#ifndef STUBBENCH_DIFF_GLOBALS_H
#define STUBBENCH_DIFF_GLOBALS_H

#include <stddef.h>
#include <stdint.h>

/* The most values a twin takes (diff.h's SB_DIFF_MAX_GLOBALS options fit). */
#define SB_TWIN_MAX_GLOBALS 16

/* One --global as given. */
struct sb_diff_global_arg {
	char name[64];       /* "" for the numeric form */
	uint64_t kaddr;      /* the numeric form's address (+OFF added) */
	uint64_t value;
};

/* arg ("NAME=VALUE", "0xKADDR[+OFF]=VALUE") into *out. Returns 0, or -1
 * with one line naming arg in err. */
int sb_diff_global_parse(const char *arg, struct sb_diff_global_arg *out, char *err, size_t errlen);

/* A global a side's files name (their "# global" header lines). */
struct sb_image_global {
	char name[64];
	uint64_t kaddr;
	unsigned size;
};

struct sb_image_globals {
	struct sb_image_global g[32];
	size_t n;
};

/* The "# global" lines of files (FILE[,FILE...], as diff's sides) into
 * *out, each name once. Returns 0, or -1 with err naming a file that
 * cannot be read. */
int sb_image_globals_read(const char *files, struct sb_image_globals *out, char *err, size_t errlen);
/* The global of out at kaddr (within its size), or NULL. */
const struct sb_image_global *sb_image_global_at(const struct sb_image_globals *g, uint64_t kaddr);

/* A value to put at a kernel address in a twin. */
struct sb_diff_set {
	uint64_t kaddr, value;
	unsigned size;       /* bytes: 1, 2, 4 or 8 */
	const char *what;    /* the --global as given, for messages */
	int named;           /* 1: a global of the side's files (else an address) */
};

/* args resolved for one side (its globals g; side "OLD" or "NEW" for
 * messages) into sets (as many as args). Returns 0, or -1 with one line
 * in err: a NAME the side's files do not name. */
int sb_diff_globals_resolve(const struct sb_diff_global_arg *args, const char *const *given, size_t n,
			    const struct sb_image_globals *g, const char *side, struct sb_diff_set *sets,
			    char *err, size_t errlen);

#endif

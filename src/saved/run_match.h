/* run_match.h: the rows of a saved run read back (run_file.h reads them):
 * one arm at one batch size each, the spreads over placements, and the
 * run's facts; and the rows found by cell (src/saved/run_match.c): the
 * indices sorted by cell key and by name, so that finding the same cell in
 * another run takes O(log n). */
#ifndef STUBBENCH_RUN_MATCH_H
#define STUBBENCH_RUN_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "output/figures.h"
#include "base/machine_name.h"
#include "stubbench/results.h"

/* One arm at one batch size. A figure the file does not carry (null or
 * missing) is absent; a CI it does not carry is NAN. */
struct sb_run_row {
	char variant[128];
	struct sb_cell_key key;           /* side SB_SIDE_NONE: the file has no keys (schema < 3) */
	uint64_t batch;
	size_t samples;
	size_t processes;                 /* the processes its blocks ran in (0: not said) */
	size_t states;                    /* the re-rolled states its kept blocks ran in (0: not said) */
	struct sb_estimate cycles;        /* core cycles per iteration, 95 % CI */
	/* Every figure of the figure table (figures.h), by its index there:
	 * figures[SB_FIGURE_DELTA] is the % vs the baseline. */
	struct sb_estimate figures[SB_MAX_FIGURES];
	size_t n_modes;                   /* steady states found over placements or loads */
	double mode_min, mode_max;        /* their cycles per iteration (NAN without) */
};

/* The spread of one variant at one batch over code placements
 * (--placements: the rows whose keys have a placement): the range of its
 * delta vs baseline. (Steady states over re-rolled placements or kernel
 * loads are each row's modes.) */
struct sb_run_spread {
	struct sb_cell_key key;           /* the copies' code, at no placement */
	uint64_t batch;
	size_t k;                         /* placements or loads */
	double min, max;                  /* of the point estimates of the delta, % */
};

struct sb_state_figures;

struct sb_run_file {
	char path[4096];    /* as given, whole (a longer one is refused) */
	char tool[64];      /* "stubbench", "stubbench lab", "stubbench kernel" */
	char machine[256], kernel[256], date[40], git[48];
	char host[72];      /* "host": the name --host gave the machine ("": none) */
	struct sb_machine_id id; /* "cpuid" (id.known 0 in a run written before it was saved) */
	/* The machine's name in the record of quiet levels (quiet_record.h):
	 * "past_runs.machine" less its kernel release; "": not said. */
	char quiet_machine[256];
	/* The core states the run saw and its figures per state (the JSON's
	 * "core_states", state_figures.h); NULL: the run has none. */
	struct sb_state_figures *states;
	int cpu;            /* the CPU the run was pinned to; -1: not said */
	uint64_t seed;      /* the --seed it ran with (1, the default, where not said) */
	char thunk[256];    /* where returns go: "return_thunk.name", else the kernel JIT's flavour */
	char not_measured[512]; /* what the run could not measure and why ("" : nothing) */
	char kernel_driver[256]; /* how the kernel's programs ran, where not as raw_tp ("": raw_tp) */
	struct sb_run_row *rows;
	size_t n_rows;
	struct sb_run_spread *spread;
	size_t n_spread;
	const char *spread_kind; /* "placements" (NULL without spread) */
	/* The indices of the first n_index rows sorted by (batch, key) and
	 * by (batch, name), for the lookups below in O(log n): they see only
	 * those rows (NULL: no index, the lookups walk every row). */
	size_t *by_key, *by_name;
	size_t n_index;
	/* The rows at no placement among those, for sb_run_file_find_code:
	 * by (batch, side, codegen, family, shape) and by (batch, side,
	 * codegen, shape, family), the file's order last; each with the
	 * least row index from each position to the end of its group
	 * (min_c: of batch, side, codegen; min_cf: and family; min_cs: and
	 * shape, in by_shape). */
	size_t *by_code, *by_shape, *min_c, *min_cf, *min_cs;
	size_t n_code;
	int host_rows;      /* some row's family is "replica-host" (set with the index) */
	/* stubbench diff's members beyond the rows (run_diff.h); NULL: none. */
	struct sb_run_diff *diff;
};

/* Sorts the index of f's rows (by_key, by_name); with_spread: also makes
 * f's spreads over placements from its copies' rows, sorted. Returns 0, or
 * -1 when out of memory. */
int sb_run_file_index(struct sb_run_file *f, int with_spread);

/* Frees what sb_run_file_index made beyond by_key and by_name. */
void sb_run_file_index_free(struct sb_run_file *f);

/* The row of variant at batch (the first in the file), or NULL. */
const struct sb_run_row *sb_run_file_find(const struct sb_run_file *f, const char *variant, uint64_t batch);
/* The first row of variant at batch for which ok is true, or NULL:
 * O(log n + rows of that name and batch) with the index. */
const struct sb_run_row *sb_run_file_find_if(const struct sb_run_file *f, const char *variant, uint64_t batch,
					     int (*ok)(const struct sb_run_row *));
/* The first row (in the file's order) at no placement of side and
 * codegen at batch, of family and of shape where they are not NULL, or
 * NULL: O(log n) with the index (sb_answer_find). */
const struct sb_run_row *sb_run_file_find_code(const struct sb_run_file *f, int side, const char *family,
					       const char *codegen, const char *shape, uint64_t batch);
/* The row of f that is the same cell as like (another file's row): the
 * same key and batch where both have keys, else the same name and batch;
 * NULL when there is none. */
const struct sb_run_row *sb_run_file_match(const struct sb_run_file *f, const struct sb_run_row *like);
/* The spread over placements of the code of row (a row at no placement), or NULL. */
const struct sb_run_spread *sb_run_file_spread_of(const struct sb_run_file *f, const struct sb_run_row *row);

#endif

/* fuzz_blocks_log: a --blocks log (report --from-blocks) read by
 * sb_block_table_read, then estimated per core state and written as the
 * report prints it. */
#include <stdio.h>

#include "fuzz_input.h"
#include "saved/state_figures.h"
#include "stats/block_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct sb_block_table t;
	char err[512];
	if (sb_block_table_read(fuzz_path(data, n), &t, err, sizeof(err)) != 0)
		return 0;
	struct sb_state_figures s;
	if (sb_state_figures_compute(&t, 4.6, 1, &s, err, sizeof(err)) == 0) {
		FILE *out = fopen("/dev/null", "w");
		if (out) {
			sb_state_figures_write(out, &s, 0, "run.json", "run.blocks.csv", NULL, "none");
			fclose(out);
		}
		sb_state_figures_free(&s);
	}
	sb_block_table_free(&t);
	return 0;
}

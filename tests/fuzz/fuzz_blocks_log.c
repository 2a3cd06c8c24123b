/* fuzz_blocks_log: a --blocks log (report --from-blocks) read by
 * sb_block_table_read. */
#include "fuzz_input.h"
#include "stats/block_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct sb_block_table t;
	char err[512];
	if (sb_block_table_read(fuzz_path(data, n), &t, err, sizeof(err)) == 0)
		sb_block_table_free(&t);
	return 0;
}

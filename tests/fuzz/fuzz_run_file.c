/* fuzz_run_file: a saved run's JSON (stubbench report, compare, plot) read
 * by sb_run_file_load, then summarized as `stubbench report` prints it. */
#include <stdio.h>

#include "fuzz_input.h"
#include "answer/answer.h"
#include "saved/run_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	struct sb_run_file f;
	char err[512];
	if (sb_run_file_load(fuzz_path(data, n), &f, err, sizeof(err)) != 0)
		return 0;
	FILE *out = fopen("/dev/null", "w");
	if (out) {
		sb_answer_write(out, &f, sb_answer_of_tool(f.tool));
		fclose(out);
	}
	sb_run_file_free(&f);
	return 0;
}

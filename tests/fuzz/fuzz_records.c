/* fuzz_records: the records a run reads back, the quiet levels
 * (sb_quiet_record_read) and the past runs (sb_past_runs_next_ranges), for
 * the machine and measurement of the seeds. */
#include "fuzz_input.h"
#include "records/past_runs.h"
#include "records/quiet_record.h"

#define MACHINE "AuthenticAMD/25/17/1/0x1000065"
/* The measurement of tests/fuzz/seeds/past-runs's lines. */
#define MEASUREMENT                                                                                               \
	"stubbench kernel variants=all batches=4,64 time=3 processes=8 cpu=1 build=3d8ca4982475-dirty states=256 " \
	"placements=0 shape=htab flavour=host,seed001 thunk=host's loads=8"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
	const char *path = fuzz_path(data, n);
	char err[512];
	struct sb_quiet_reference ref;
	size_t lines = 0;
	sb_quiet_record_read(path, MACHINE, &ref, &lines, err, sizeof(err));
	sb_past_runs_next_ranges(path, MACHINE "/6.18.44-fc-v1300", MEASUREMENT, NULL, NULL, 0, err, sizeof(err));
	return 0;
}

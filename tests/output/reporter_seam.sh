#!/bin/sh
# reporter_seam: output has one owner. Only the JSON writer and the JSON
# reporters (stubbench's own and Google Benchmark's schema) call sb_json_*; every format of --format has its reporter in src/output/
# (reporter.h), and no command outside src/output writes JSON members by
# hand ("key": text in a format string).
# usage: reporter_seam.sh SOURCE_DIR
set -u
cd "$1" || exit 1
. "$(dirname "$0")/../common/check.sh"
callers=$(grep -rl 'sb_json_' src bench | sort | tr '\n' ' ')
echo "sb_json_ callers: $callers"
# The writer's header (src/output/json_writer.h) declares them.
ok test "$callers" = "src/output/json_writer.c src/output/json_writer.h src/output/reporter_gbench.c src/output/reporter_json.c "
for fmt in table seed json csv gbench; do
	ok grep -q "^const struct sb_reporter sb_reporter_$fmt = {" "src/output/reporter_$fmt.c"
done
# Formats are decided in src/output alone: the commands ask for a kind
# (sb_format_is), never for a format by name.
asks=$(grep -rl 'SB_FORMAT_' src bench | grep -v '^src/output/\|^src/config/' | tr '\n' ' ')
echo "formats asked for by name outside src/output: ${asks:-none}"
ok test -z "$asks"
hand=$(grep -rlE '\\"[a-z_0-9]+\\": ' src bench | grep -v '^src/output/' | tr '\n' ' ')
echo "JSON members written by hand outside src/output: ${hand:-none}"
ok test -z "$hand"
checks_done reporter_seam

#!/bin/sh
# reporter_seam: output has one owner. Only the JSON writer and the JSON
# reporters (stubbench's own and Google Benchmark's schema) call sb_json_*;
# every format is a line of src/output/formats.def and a reporter of its
# own in src/output/reporter_NAME.c, and every decision on formats is in
# src/output: outside it no code names a format (SB_FORMAT_*, a format's
# name in quotes beside "format", a hand-made list of formats' names),
# picks a reporter but the session's ending, or writes a run's notes but
# through the reporters; no command outside src/output writes JSON members
# by hand ("key": text in a format string).
# usage: reporter_seam.sh SOURCE_DIR
set -u
. "$(dirname "$0")/../common/check.sh"
cd "$1" || exit 1
# Outside src/output: the library's other folders, the front ends and the
# public headers. src/gbench is left out: its formats are Google
# Benchmark's own (--benchmark_format console, json or csv).
outside() { grep -rn "$@" src bench include | grep -v '^src/output/\|^src/gbench/'; }

callers=$(grep -rl 'sb_json_' src bench | sort | tr '\n' ' ')
echo "sb_json_ callers: $callers"
# The writer's header (src/output/json_writer.h) declares them.
ok test "$callers" = "src/output/json_writer.c src/output/json_writer.h src/output/reporter_gbench.c src/output/reporter_json.c "

# One line of formats.def and one reporter file per format, both ways.
names=$(sed -n 's/^FORMAT(\([a-z0-9_]*\),.*/\1/p' src/output/formats.def)
echo "formats: $(echo $names)"
ok test -n "$names"
for fmt in $names; do
	ok grep -q "^const struct sb_reporter sb_reporter_$fmt = {" "src/output/reporter_$fmt.c"
done
for file in src/output/reporter_*.c; do
	fmt=${file#src/output/reporter_}
	ok grep -q "^FORMAT(${fmt%.c}," src/output/formats.def
done
# A format's kind is its line's, not its reporter's.
kinds=$(grep -l '^	\.kind = \|^	\.format = ' src/output/reporter_*.c | tr '\n' ' ')
echo "reporters that say their own kind or format: ${kinds:-none}"
ok test -z "$kinds"

# Formats are decided in src/output alone: the commands ask for a kind
# (sb_format_is), never for a format by name.
any=$(echo $names | tr ' ' '|')
asks=$(outside -E 'SB_FORMAT_|enum sb_format')
echo "formats named by constant outside src/output: ${asks:-none}"
ok test -z "$asks"
quoted=$(outside -E "\"($any)\"" | grep -i 'format')
echo "formats named in quotes beside 'format' outside src/output: ${quoted:-none}"
ok test -z "$quoted"
lists=$(outside -E "\\b($any)\\b(, | or | and |\\|)($any)\\b")
echo "lists of formats written by hand outside src/output: ${lists:-none}"
ok test -z "$lists"
# The session's ending picks the reporter; every note goes through it.
pickers=$(grep -rl 'sb_reporter_for' src bench | grep -v '^src/output/' | tr '\n' ' ')
echo "reporters picked outside src/output: $pickers"
ok test "$pickers" = "src/session/session.c "
notes=$(outside -E 'sb_output_[a-z_]*_line\(|sb_output_busy_report\(|sb_figure_[a-z_]*_lines\(')
echo "notes written outside the reporters: ${notes:-none}"
ok test -z "$notes"

hand=$(grep -rlE '\\"[a-z_0-9]+\\": ' src bench | grep -v '^src/output/' | tr '\n' ' ')
echo "JSON members written by hand outside src/output: ${hand:-none}"
ok test -z "$hand"
checks_done reporter_seam

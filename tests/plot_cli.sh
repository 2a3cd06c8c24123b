#!/bin/sh
# plot_cli.sh STUBBENCH DATA_DIR: `stubbench plot` on saved main, kernel and
# lab runs writes the image, the gnuplot script and the data beside it, with
# the panels, series, CIs and spreads of the run; without gnuplot, one line
# and status 1 (script and data still written); bad input, status 2.
sb=$1 data=$2
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1

# Main sweep with --placements: the copies' deltas (24 %, 26 %) are the
# spread of "private"; the row over placements carries delta 25 [24, 26].
"$sb" plot "$data/run_b.json" -o "$d/main.svg" 2>"$d/err"; rc=$?
if [ $have_gnuplot = 1 ]; then
    [ $rc = 0 ] || no "main plot exited $rc: $(cat "$d/err")"
    [ -s "$d/main.svg" ] && grep -q "private" "$d/main.svg" || no "main.svg missing or without its series"
fi
grep -qx "8 25 24 26 24 26" "$d/main.dat" || no "main.dat lacks private's delta row with the placements' spread"
grep -q "sb_output = 'main.svg'" "$d/main.gp" && grep -q "sb_data = 'main.dat'" "$d/main.gp" && grep -q "sb_data index" "$d/main.gp" || no "main.gp does not draw main.dat into main.svg"
[ "$(grep -c '^# ' "$d/main.dat")" -eq 5 ] || no "main.dat: want 4 series (baseline, private; cycles, delta) after its header"
grep -q "test machine; Linux 6.18.0; 2026-12-01T06:10:00Z" "$d/main.gp" || no "title lacks machine, kernel or date"

# Kernel: one panel per shape, the JIT's return in the title.
"$sb" plot "$data/run_kernel.json" -o "$d/kernel.png" 2>"$d/err"; rc=$?
[ $have_gnuplot = 0 ] || [ $rc = 0 ] || no "kernel plot exited $rc: $(cat "$d/err")"
grep -q "per-run: cost added to baseline" "$d/kernel.gp" || no "kernel.gp has no per-run panel"
grep -q "returns: return thunk" "$d/kernel.gp" || no "kernel title lacks the thunk"
grep -qx "64 15 10 20 5 25" "$d/kernel.dat" || no "kernel.dat lacks private-per-run's delta with its range over the loads' states"

# Lab: a panel per shape and return flavour, legend below, steady states as a band.
"$sb" plot "$data/run_lab.json" -o "$d/lab.svg" 2>"$d/err"; rc=$?
[ $have_gnuplot = 0 ] || [ $rc = 0 ] || no "lab plot exited $rc: $(cat "$d/err")"
grep -q "'perrun, rethunk'" "$d/lab.gp" && grep -q "'inloop, ret'" "$d/lab.gp" || no "lab.gp panels"
# The srso returns have panels of their own (by the key's return, not the name).
grep -q "'perrun, srso-alias'" "$d/lab.gp" || no "lab.gp has no srso-alias panel"
[ "$(grep -c "^set title 'perrun, rethunk'" "$d/lab.gp")" = 1 ] && ! grep -q "^set title 'other'" "$d/lab.gp" ||
    no "lab.gp: a cell drawn outside its return's panel"
grep -q "set key below" "$d/lab.gp" || no "lab legend not below"
grep -qx "8 12 11 13 11 13.5" "$d/lab.dat" || no "lab.dat lacks the baseline's steady-state range"

# No gnuplot: one line, status 1, the script and data still there.
rm -f "$d"/main.*
out=$(env PATH=/nonexistent "$sb" plot "$data/run_b.json" -o "$d/main.png" 2>&1); rc=$?
[ $rc = 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && printf '%s' "$out" | grep -q "gnuplot not found" ||
    no "without gnuplot: exit $rc, '$out'"
[ -s "$d/main.gp" ] && [ -s "$d/main.dat" ] && [ ! -s "$d/main.png" ] || no "without gnuplot: .gp/.dat not written or an image left"

# Bad input: status 2 and one line naming it.
out=$("$sb" plot "$data/run_b.json" -o "$d/x.txt" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "x.txt: the file name must end in .svg or .png" || no "bad extension: $rc '$out'"
out=$("$sb" plot /nonexistent/run.json -o "$d/x.png" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "/nonexistent/run.json: No such file" || no "missing run: $rc '$out'"
out=$("$sb" plot "$data/run_b.json" 2>&1); rc=$?
[ $rc = 2 ] && printf '%s' "$out" | grep -q "needs one saved run and -o" || no "no -o: $rc '$out'"
[ $fail = 0 ] && echo "plot_cli: ok"
exit $fail

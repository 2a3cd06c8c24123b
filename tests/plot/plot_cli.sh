#!/bin/sh
# plot_cli.sh STUBBENCH DATA_DIR: `stubbench plot` on saved main, kernel and
# lab runs writes the image, the gnuplot script and the data beside it, with
# the panels, series, CIs and spreads of the run; without gnuplot, one line
# and status 1 (script and data still written); bad input, status 2.
sb=$1 data=$2
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1

# Main sweep with --placements: the row over placements carries private's
# delta 25 [24, 26] (its copies are not drawn); a legend above the panels
# and one in the lower panel, the same colour for private in both.
"$sb" plot "$data/run_b.json" -o "$d/main.svg" 2>"$d/err"; rc=$?
if [ $have_gnuplot = 1 ]; then
    [ $rc = 0 ] || no "main plot exited $rc: $(cat "$d/err")"
    [ -s "$d/main.svg" ] && grep -q "private" "$d/main.svg" || no "main.svg missing or without its series"
fi
grep -qx "8 25 24 26" "$d/main.dat" || no "main.dat lacks private's delta row"
grep -q "@p" "$d/main.dat" && no "main.dat draws the copies at other placements"
grep -q "sb_output = 'main.svg'" "$d/main.gp" && grep -q "sb_data = 'main.dat'" "$d/main.gp" && grep -q "sb_data index" "$d/main.gp" || no "main.gp does not draw main.dat into main.svg"
[ "$(grep -c '^# ' "$d/main.dat")" -eq 5 ] || no "main.dat: want 3 series (baseline, private; private's delta) after its 2 header lines"
grep -q "test machine; Linux 6.18.0; 2026-12-01T06:10:00Z" "$d/main.gp" || no "title lacks machine, kernel or date"
grep -q "^set key at screen 0.5" "$d/main.gp" && ! grep -q "set key below" "$d/main.gp" || no "main.gp: the legend is not above the panels"
[ "$(grep -c "with yerrorlines lc 2 pt 5" "$d/main.gp")" = 2 ] || no "main.gp: private not in one colour in both panels"
# One legend, above the panels, over no data: none inside a panel.
grep -q "^set key inside" "$d/main.gp" && no "main.gp: a legend inside a panel, over its data"
[ "$(grep -c "^set key at screen" "$d/main.gp")" = 1 ] && [ "$(grep -c "^unset key" "$d/main.gp")" = 1 ] ||
    no "main.gp: not one legend above the panels and none in the lower one"
grep -q "filledcurves" "$d/main.gp" && no "main.gp draws a band"

# Kernel: a panel per shape and codegen, the JIT's return in the title, one
# colour per side; no delta-cycles in this run: the % is drawn.
"$sb" plot "$data/run_kernel.json" -o "$d/kernel.png" 2>"$d/err"; rc=$?
[ $have_gnuplot = 0 ] || [ $rc = 0 ] || no "kernel plot exited $rc: $(cat "$d/err")"
grep -q "^set title 'per-run, private, kernel vs twins" "$d/kernel.gp" && grep -q "^set ylabel '% added" "$d/kernel.gp" || no "kernel.gp has no per-run, private panel"
grep -q "returns: return thunk" "$d/kernel.gp" || no "kernel title lacks the thunk"
grep -qx "64 15 10 20" "$d/kernel.dat" || no "kernel.dat lacks private-per-run's delta"
grep -q "yerrorlines lc 2 pt 7 title 'kernel (test run)'" "$d/kernel.gp" || no "kernel.gp: the kernel's line is not vermillion, titled kernel (test run)"
# The driver from the run: perf_event programs run by page faults, said in
# the legend; the machine named from its CPUID as the summary names it.
python3 - "$data/run_kernel.json" "$d/kernel_pf.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["kernel_driver"] = "perf_event programs, run by page faults: this kernel gives raw_tp programs no private stack"
d["cpuid"] = {"vendor": "GenuineIntel", "family": 6, "model": 207, "stepping": 2, "microcode": "0x21000283",
              "hypervisor": "KVM", "amx": True}
json.dump(d, open(sys.argv[2], "w"))
PY
"$sb" plot "$d/kernel_pf.json" -o "$d/kernel_pf.png" 2>"$d/err"
grep -q "title 'kernel (page faults)'" "$d/kernel_pf.gp" || no "kernel_pf.gp: the page-fault driver not in the legend"
grep -q "Intel Emerald Rapids (6/0xcf), KVM guest" "$d/kernel_pf.gp" || no "kernel_pf.gp: the machine not named as the summary names it"
# Panel titles within a panel of two columns: each line at most 80
# characters, what the y axis leaves out on a second line.
"$sb" plot "$data/plot_kernel.json" -o "$d/ref_kernel.png" 2>"$d/err"
python3 - "$d/ref_kernel.gp" <<'PY' || no "ref_kernel.gp: a panel title line over 80 characters, or none on two lines"
import re, sys
titles = [l for l in open(sys.argv[1]) if l.startswith("set title ")]
parts = [p for t in titles for p in re.findall(r"'((?:[^']|'')*)'", t)]
sys.exit(0 if titles and all(len(p) <= 80 for p in parts) and any(' . "\\n" . ' in t for t in titles) else 1)
PY
# y axis from batch >= 64: 15 [10, 20] and zero, 8 % more each side.
grep -qx "set yrange \[-1.6:21.6\]" "$d/kernel.gp" || no "kernel.gp: y range not set by the data"

# Lab: ranked bars, a panel per return and shape (the srso returns their
# own), cheapest first, colours fixed per alternative, the placement
# control's CI as a band.
"$sb" plot "$data/run_lab.json" -o "$d/lab.svg" 2>"$d/err"; rc=$?
[ $have_gnuplot = 0 ] || [ $rc = 0 ] || no "lab plot exited $rc: $(cat "$d/err")"
grep -q "^set title 'per-run, rethunk, batch 8'" "$d/lab.gp" || no "lab.gp: no per-run, rethunk panel"
grep -q "^set title 'per-run, srso-alias, batch 8'" "$d/lab.gp" || no "lab.gp has no srso-alias panel"
grep -q "grey band: the placement control''s CI" "$d/lab.gp" || no "lab.gp: the band is not labelled"
grep -qx "set xtics ('placement-control' 0, 'reload' 1)" "$d/lab.gp" || no "lab.gp: rethunk's bars not sorted cheapest first"
grep -qx "0 1 -2 4 8" "$d/lab.dat" && grep -qx "1 10 5 15 2" "$d/lab.dat" && grep -qx "0 4 1 7 2" "$d/lab.dat" ||
    no "lab.dat: bars (rank, delta, CI, colour) wrong"
grep -q "set object 1 rect from graph 0, first -2 to graph 1, first 4" "$d/lab.gp" || no "lab.gp: no band for the control's CI"
grep -q "baseline" "$d/lab.dat" && no "lab.dat draws a baseline as a bar"
[ "$(grep -c "^set multiplot next" "$d/lab.gp")" = 2 ] || no "lab.gp: the empty in-loop panels do not keep the columns"

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
# More series than a plot draws (96): refused in one line, status 2,
# nothing drawn in part (no script, no data, no image).
python3 - "$data/run_b.json" "$d/many.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
row = dict(d["results"][1], placement=None)
d["results"] = [dict(copy.deepcopy(row), variant=f"v{i}", codegen=f"v{i}") for i in range(100)]
json.dump(d, open(sys.argv[2], "w"))
PY
"$sb" plot "$d/many.json" -o "$d/many.svg" 2>"$d/err"; rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$d/err")" -eq 1 ] && grep -q "many.json: more than 96 series" "$d/err" ||
    no "100 series: $rc $(cat "$d/err")"
[ ! -e "$d/many.dat" ] && [ ! -e "$d/many.svg" ] || no "100 series: a part was drawn"
# Both flavours' six variants: six colours, none orange (lc 5, beside
# host-private's vermillion); each axis says which way is faster.
"$sb" plot "$data/answer_sweep.json" -o "$d/six.svg" >/dev/null 2>&1
lcs=$(grep -o "yerrorlines lc [0-9]* pt [0-9]* title" "$d/six.gp" | awk '{print $3}' | sort -u | tr '\n' ' ')
[ "$lcs" = "1 2 3 4 6 7 " ] || no "six.gp: the six variants' colours are '$lcs', not 1 2 3 4 6 7"
grep -qF "set ylabel 'core cycles per iteration' . \"\\n\" . '(lower: faster)'" "$d/six.gp" &&
    grep -qF "set ylabel '% added to the baseline''s cycles' . \"\\n\" . '(below 0: faster)'" "$d/six.gp" ||
    no "six.gp: an axis does not say which way is faster"
checks_done plot_cli

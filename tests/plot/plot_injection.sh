#!/bin/sh
# plot_injection: no text of a saved run and no file name reaches the
# gnuplot script as code. Every string field of a run (tool, date, kernel,
# machine, git, jit_flavour, return_thunk, variant names) holds a newline
# and a gnuplot system() call, a quote, a backquote and a macro; the image
# name holds a backquote and '$(...)'. After each plot the file the calls
# would have made does not exist, and the script holds no line of the
# run's text that gnuplot would run. Without gnuplot the script and data
# are still checked.
# usage: plot_injection.sh STUBBENCH
set -u
sb=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
cd "$d" || exit 1
# The text each field gets: JSON escapes for the newline and the quotes.
bad="x\\nsystem('touch $d/PWNED')\\n\`touch $d/PWNED2\`'@x \\\" \$(touch $d/PWNED3)"
python3 - "$bad" >run.json <<'PY'
import json, sys
bad = json.loads('"' + sys.argv[1] + '"')
doc = {"tool": "stubbench " + bad, "version": "0.1.0", "schema_version": 2, "date": bad,
       "kernel": "Linux " + bad, "git": bad, "machine": bad, "jit_flavour": "a, " + bad,
       "return_thunk": bad,
       "results": [
           {"variant": "baseline", "batch": 8, "samples": 10,
            "cycles_per_iter": {"n": 10, "mean": 10.0, "ci95": [9.5, 10.5]}},
           {"variant": "private" + bad, "batch": 8, "samples": 10,
            "cycles_per_iter": {"n": 10, "mean": 12.0, "ci95": [11.5, 12.5]},
            "delta_vs_baseline_pct": 20.0, "delta_ci95_pct": [19.0, 21.0]}]}
json.dump(doc, sys.stdout)
PY
check() { # $1: image name
    for f in PWNED PWNED2 PWNED3; do
        [ ! -e "$d/$f" ] || { no "$1: $f was created: the run's text ran"; rm -f "$d/$f"; }
    done
    gp="${1%.*}.gp"
    [ -s "$gp" ] || { no "$1: no script $gp"; return; }
    # Outside its single-quoted strings ('' a quote) and comments, no line
    # of the script holds the run's text.
    python3 - "$gp" <<'PY' || no "$1: the run's text is code in $gp"
import re, sys
for n, line in enumerate(open(sys.argv[1], encoding="utf-8", errors="replace"), 1):
    code = re.sub(r"'(?:[^']|'')*'", "''", line.rstrip("\n"))
    code = code.split("#", 1)[0]
    if re.search(r"system|touch|`|PWNED|\$\(", code):
        sys.exit(f"line {n}: {code}")
PY
    grep -q "'" "${gp}" || no "$1: the script has no quoted label at all"
}
timeout 10 "$sb" plot run.json -o plain.svg 2>err.txt; rc=$?
want=1; command -v gnuplot >/dev/null && want=0
[ $rc -eq $want ] || no "plain.svg: status $rc (want $want): $(cat err.txt)"
check plain.svg
[ "$(grep -c '' plain.dat)" -ge 4 ] || no "plain.dat: fewer lines than its header and rows"
grep -v '^#' plain.dat | grep -v '^$' | grep -qv '^[0-9][0-9 .e+NaN-]*$' && no "plain.dat: a data line holds text: $(grep -v '^#' plain.dat | grep '[a-z]' | head -2)"
# A name with shell and gnuplot syntax in it (quotes and newlines are refused).
name='a`touch PWNED2`$(touch PWNED3)@b.png'
timeout 10 "$sb" plot run.json -o "$name" 2>err.txt; rc=$?
[ $rc -eq $want ] || no "$name: status $rc (want $want): $(cat err.txt)"
check "$name"
[ ! -e PWNED2 ] && [ ! -e PWNED3 ] || no "the image name ran"
# A newline in the image name: refused, nothing made.
timeout 10 "$sb" plot run.json -o "$(printf 'n\nsystem("touch PWNED").png')" 2>err.txt; rc=$?
[ $rc -eq 2 ] || no "a newline in -o: status $rc (want 2)"
[ ! -e PWNED ] || no "a newline in -o ran"
ls -a | grep -q '^\.stubbench-' && no "a temporary was left: $(ls -a | grep '^\.stubbench-')"
checks_done plot_injection

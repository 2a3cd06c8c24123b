#!/bin/sh
# plot_reference.sh STUBBENCH DATA_DIR [--update DOCS_IMAGES_DIR]: the
# plots of docs/plots.md drawn again from the recorded runs they were made
# from (DATA_DIR/plot_sweep.json, plot_kernel.json, plot_lab.json): the
# gnuplot script and data must equal DATA_DIR/plot-NAME.gp.expected and
# plot-NAME.dat.expected byte for byte, once the one thing that varies (the
# directory of the recorded run, in their comments) is masked as DATA/.
# Pixels are not compared. --update writes the expected files and the
# images (DOCS_IMAGES_DIR/plot-NAME.png) after a change to the plots that
# was looked at.
sb=$1 data=$2
update=""
[ "${3:-}" = "--update" ] && update=$4
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
. "$(dirname "$0")/../common/check.sh"
have_gnuplot=0
command -v gnuplot >/dev/null && have_gnuplot=1
# The recorded run's directory in the comments of the script and data.
mask() { sed "s#$data/#DATA/#g" "$1"; }

# The comparison itself must see a change: one byte changed is a difference.
printf 'set yrange [1:2]\n' >"$d/a"
printf 'set yrange [1:3]\n' >"$d/b"
cmp -s "$d/a" "$d/b" && no "cmp does not tell two different lines apart"

for name in sweep kernel lab; do
    json="$data/plot_$name.json" img="$d/plot-$name.png"
    "$sb" plot "$json" -o "$img" 2>"$d/err"; rc=$?
    want=1
    [ $have_gnuplot = 1 ] && want=0
    [ $rc = $want ] || no "$name: plot exited $rc (want $want): $(cat "$d/err")"
    for side in gp dat; do
        got="$d/plot-$name.$side.masked" expected="$data/plot-$name.$side.expected"
        [ -s "$d/plot-$name.$side" ] || { no "$name: no $side written"; continue; }
        mask "$d/plot-$name.$side" >"$got"
        if [ -n "$update" ]; then
            cp "$got" "$expected"
        elif ! cmp -s "$got" "$expected"; then
            no "$name: the $side differs from $expected (the plot changed: look at the image, then" \
               "rerun with --update):"
            diff "$expected" "$got" | head -20
        fi
    done
    if [ $have_gnuplot = 1 ]; then
        size=$(wc -c <"$img" 2>/dev/null || echo 0)
        [ "$size" -gt 10000 ] && [ "$size" -lt 400000 ] || no "$name: the image is $size bytes"
        [ -n "$update" ] && cp "$img" "$update/plot-$name.png"
    fi
done
checks_done plot_reference

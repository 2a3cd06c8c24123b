# hostile_files.sh: the file cases of hostile_inputs.sh (sourced by it, with
# its case_, sig_case, skip and counters): outputs written whole and never
# through a planted link, records that refuse what is not theirs and repair
# what a full disk cut short, FIFOs refused at once. Each case at most 10 s
# (the cases that measure: 60 s in a sanitized build, whose runs take ~12 s).
limit=10 measuring=10
ldd "$SB" 2>/dev/null | grep -q libasan && measuring=60
data=$(cd "$(dirname "$0")/.." && pwd)/data
h=$tmp/files
mkdir -p "$h"
export data h
ok() { passes=$((passes + 1)); }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
# unchanged NAME FILE COPY: FILE holds the bytes of COPY.
unchanged() { if cmp -s "$2" "$3"; then ok; else bad "$1: $2 was changed"; fi; }
# no_temps NAME DIR: no temporary of the tool's is left in DIR.
no_temps() {
    if ls -a "$2" | grep -q '^\.stubbench-'; then bad "$1: a temporary was left in $2"; else ok; fi
}
# ends_whole NAME FILE: FILE ends with a newline (no half line).
ends_whole() { if [ "$(tail -c1 "$2" | wc -l)" -eq 1 ]; then ok; else bad "$1: $2 ends in a half line"; fi; }
err_lacks() {
    if grep -qF -- "$2" "$tmp/err"; then bad "$1: stderr has '$2': $(grep -F -- "$2" "$tmp/err" | head -2)"
    else ok; fi
}
# A short run that is remembered in the quiet levels record (40 blocks).
export QUIET_RUN='env STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=40 --batch=64 --variant=private --past-runs=none'

# FIFOs as inputs and outputs: one line naming it, status 2, never a wait.
mkfifo "$h/fifo" "$h/fifo.png" "$h/fifo.svg" "$h/fifo.json"
mkdir -p "$h/fs/stubbench" && mkfifo "$h/fs/stubbench/past-runs"
case_ fifo_config 2 "fifo: cannot read config: it is a FIFO" '$SB --config=$h/fifo --calls=1'
case_ fifo_obj 2 "--obj: $h/fifo: it is a FIFO" '$SB kernel --obj=$h/fifo --prog=x --samples=1'
case_ fifo_compare 2 "fifo: it is a FIFO" '$SB compare $h/fifo $data/run_b.json'
case_ fifo_plot_input 2 "fifo: it is a FIFO" '$SB plot $h/fifo -o $h/x.png'
case_ fifo_diff 2 "fifo: it is a FIFO, not a regular file" '$SB diff $h/fifo $h/fifo'
case_ fifo_from_blocks 2 "fifo: it is a FIFO, not a regular file" '$SB annotate --from-blocks=$h/fifo'
printf 't_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter\n0.1,0,8,0,0,0,1,1,1,private,arm,inf\n' >"$h/inf.csv"
case_ blocks_inf 2 "inf.csv:2: a figure that is not a finite number" '$SB annotate --from-blocks=$h/inf.csv'
# A record path the system cannot take: refused when read, status 2, not a run without its record.
case_ past_runs_name_too_long 2 "File name too long" '$SB --past-runs=$h/$(printf "y%.0s" $(seq 1 300)) --samples=2 --batch=8'
case_ fifo_plot_output 2 "fifo.png' is a FIFO" '$SB plot $data/run_b.json -o $h/fifo.png'
case_ fifo_plot_option 2 "fifo.svg' is a FIFO" '$SB --plot=$h/fifo.svg --cpu=1 --samples=4 --batch=1'
case_ fifo_lab_plot 2 "fifo.svg' is a FIFO" '$SB lab --plot=$h/fifo.svg --cpu=1 --samples=4 --batch=8'
case_ fifo_blocks 2 "--blocks: '$h/fifo' is a FIFO" '$SB --blocks=$h/fifo --cpu=1 --samples=4 --batch=1'
case_ fifo_gbench_out 2 "fifo.json' is a FIFO" '$GB --benchmark_out=$h/fifo.json --benchmark_filter=^baseline/batch:1/ --benchmark_min_time=0.001'
case_ fifo_quiet_levels 2 "not a regular file" '$SB --quiet-levels=$h/fifo --cpu=1 --samples=4 --batch=1'
case_ fifo_default_record 2 "past-runs' is a FIFO" 'XDG_STATE_HOME=$h/fs $SB --cpu=1 --samples=4 --batch=1'
out_lacks fifo_default_record_nothing_measured '^(baseline|private)'

limit=$measuring
# Records: a saved run named as one is refused and kept byte for byte.
cp "$data/run_b.json" "$h/a.json" && cp "$h/a.json" "$h/a.copy"
case_ record_past_runs_json 0 "" 'env STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --variant=private --batch=64 --processes=2 --time=0.5 --quiet-levels=none --past-runs=$h/a.json'
unchanged record_past_runs_json_kept "$h/a.json" "$h/a.copy"
case_ record_quiet_json 0 "" "$QUIET_RUN --quiet-levels=\$h/a.json"
unchanged record_quiet_json_kept "$h/a.json" "$h/a.copy"
# A half line at the end (a full disk cut the last write short): not an
# error, and gone once the record is written again.
printf '# stubbench quiet levels\nM\t2026-01-01T00:00:00Z\t3.0\t80.0\nM\t2026-01-0' >"$h/half"
case_ record_half_line 0 "" "$QUIET_RUN --quiet-levels=\$h/half"
err_lacks record_half_line_read "not a record line"
if [ "$(grep -c '' "$h/half")" -gt 3 ]; then
    ends_whole record_half_line_repaired "$h/half"
    grep -q '2026-01-0$' "$h/half" && bad "record_half_line: the half line is still there"
fi
# A record past its 1 MiB read limit (900 lines of 1.2 KB): read from its
# end and cut into bounds, never refused for ever.
awk 'BEGIN { m = sprintf("%1200s", ""); gsub(/ /, "X", m); print "# stubbench quiet levels";
             for (i = 0; i < 900; i++) printf "%s\t2026-01-01T00:00:00Z\t3.0\t80.0\n", m }' >"$h/big"
case_ record_oversize 0 "" "$QUIET_RUN --quiet-levels=\$h/big"
err_lacks record_oversize_read "larger than"
if [ "$(tail -n1 "$h/big" | cut -c1)" != X ]; then
    [ "$(wc -c <"$h/big")" -le 1048576 ] && ok || bad "record_oversize: still $(wc -c <"$h/big") bytes"
fi
# Paths: 1100 characters are taken whole; past the limit, an error naming it.
long=$h
while [ ${#long} -lt 1100 ]; do long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddd; done
export long
case_ record_long_path 0 "" "$QUIET_RUN --quiet-levels=\$long/q"
[ -f "$long/q" ] && ok || bad "record_long_path: no record at the path of ${#long} characters"
limit=10
x5000=$(printf '%5000s' '' | tr ' ' a)
case_ record_path_too_long 2 "path longer than" "\$SB --cpu=1 --samples=4 --batch=1 --quiet-levels=\$h/$x5000"
case_ record_past_path_too_long 2 "path longer than" "\$SB --cpu=1 --samples=4 --batch=1 --past-runs=\$h/$x5000"

# Side files: a run that fails on its options or is interrupted leaves
# --blocks as it was; a gnuplot that fails leaves no image.
limit=$measuring
echo old >"$h/b.csv" && cp "$h/b.csv" "$h/b.copy"
case_ blocks_bad_cpu 2 "" '$SB --blocks=$h/b.csv --cpu=999 --samples=4 --batch=1'
unchanged blocks_bad_cpu_kept "$h/b.csv" "$h/b.copy"
sig_case blocks_sigint INT 1 "$SB" --cpu=1 --time=30 --quiet-levels=none --past-runs=none --blocks="$h/b.csv"
unchanged blocks_sigint_kept "$h/b.csv" "$h/b.copy"
no_temps blocks_sigint_temps "$h"
mkdir -p "$h/bin" "$h/gf"
cat >"$h/bin/gnuplot" <<'GP'
#!/bin/sh
# A gnuplot that writes half an image and fails.
for a; do case $a in *sb_output=*) out=${a##*sb_output=\'}; out=${out%%\'*} ;; esac; done
for f in *.png ${out:+"$out"}; do [ -e "$f" ] && printf '\211PNG half' >"$f"; done
exit 1
GP
chmod +x "$h/bin/gnuplot"
case_ gnuplot_fails 1 "gnuplot failed" 'PATH=$h/bin:$PATH $SB plot $data/run_b.json -o $h/gf/x.png'
[ ! -e "$h/gf/x.png" ] && ok || bad "gnuplot_fails: a half image was left at $h/gf/x.png"
no_temps gnuplot_fails_temps "$h/gf"

# A full disk (a tmpfs of 256 KiB): nothing half written is reported
# written, and the old files keep their bytes.
full=$h/full
mkdir -p "$full"
if [ $is_root -eq 1 ] && mount -t tmpfs -o size=256k tmpfs "$full" 2>/dev/null; then
    export full
    for f in x.png o.json b.csv; do echo "old $f" >"$full/$f"; cp "$full/$f" "$h/$f.old"; done
    # A record of one whole page (4096 bytes): any line more needs a new one.
    awk 'BEGIN { l = "M\t2026-01-01T00:00:00Z\t3.0\t80.0"; h = "# stubbench quiet levels";
                 while (length(h) < 4096 - length(l) - 2) h = h "."; print h; print l }' >"$full/q"
    cp "$full/q" "$h/q.old"
    # 16 KiB left: the plot's script and data fit, its image does not.
    dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null
    truncate -s -16K "$full/fill"
    case_ full_plot 1 "not written" '$SB plot $data/run_b.json -o $full/x.png'
    unchanged full_plot_old_image "$full/x.png" "$h/x.png.old"
    no_temps full_plot_temps "$full"
    dd if=/dev/zero of="$full/fill2" bs=1k 2>/dev/null
    case_ full_gbench_out 1 "not written" '$GB --benchmark_out=$full/o.json --benchmark_filter=^baseline/batch:1/ --benchmark_min_time=0.001'
    unchanged full_gbench_out_old "$full/o.json" "$h/o.json.old"
    case_ full_blocks 1 "--blocks: writing" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=40 --batch=1,64 --blocks=$full/b.csv --quiet-levels=none --past-runs=none'
    unchanged full_blocks_old "$full/b.csv" "$h/b.csv.old"
    case_ full_record 0 "No space left on device" "$QUIET_RUN --quiet-levels=\$full/q"
    unchanged full_record_kept "$full/q" "$h/q.old"
    no_temps full_temps "$full"
    umount "$full"
else
    skip "full disk cases: cannot mount a tmpfs here (needs root)"
fi

# Root: a user's symbolic links at the record's temporary names are never
# followed, nothing of root's is given away; under sudo -E (HOME the
# user's) nothing is written in the user's directory unless named.
if [ $is_root -eq 1 ]; then
    u=65534
    home=$h/home
    mkdir -p "$home/st"
    awk 'BEGIN { print "# stubbench quiet levels";
                 for (i = 0; i < 1100; i++) printf "M\t2026-01-01T00:00:00Z\t3.0\t80.0\n" }' >"$home/st/quiet-levels"
    chown -R $u:$u "$home"
    echo "root's secret" >"$h/secret" && chmod 600 "$h/secret" && cp "$h/secret" "$h/secret.copy"
    export home
    # The shell's pid is the run's (exec): links at the names it would use.
    case_ root_symlink_at_temp 0 "" 'for n in 0 1 2 3; do ln -s $h/secret $home/st/.stubbench-$$-$n.tmp; done; ln -s $h/secret $home/st/quiet-levels.$$; export STUBBENCH_TEST_DISTURB_NONE=1; exec $SB --cpu=1 --samples=40 --batch=64 --variant=private --past-runs=none --quiet-levels=$home/st/quiet-levels'
    unchanged root_symlink_secret_kept "$h/secret" "$h/secret.copy"
    [ "$(stat -c %u:%a "$h/secret")" = 0:600 ] && ok || bad "root_symlink: the secret is now $(stat -c %u:%a "$h/secret")"
    n=$(grep -c '' "$home/st/quiet-levels")
    [ ! -L "$home/st/quiet-levels" ] && [ "$n" -lt 1000 ] && [ "$(stat -c %u "$home/st/quiet-levels")" = $u ] && ok ||
        bad "root_symlink: the record was not cut to the user's own file ($n lines, $(stat -c %u "$home/st/quiet-levels"))"
    mkdir -p "$h/uhome" && chown $u:$u "$h/uhome"
    case_ root_sudo_home 0 "belongs to uid 65534" 'env -u XDG_STATE_HOME HOME=$h/uhome STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=40 --batch=64 --variant=private'
    [ ! -e "$h/uhome/.local" ] && ok || bad "root_sudo_home: root wrote in the user's home: $(find "$h/uhome" | head -3)"
else
    skip "root cases (links at the record's temporaries, sudo -E): not root"
fi
limit=20

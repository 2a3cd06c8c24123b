#!/bin/sh
# hostile_reports.sh: files read back (--blocks logs, saved runs, records,
# listings) crafted as an attacker would: each case ends with its status,
# one line naming the file and what is wrong, within 20 s, never a crash
# (134, 139) or a wait. Nothing is measured.
# usage: hostile_reports.sh STUBBENCH DATA_DIR
set -u
SB=$1
data=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../common/check.sh"
# expect NAME STATUS TEXT ARGS...: "$SB" ARGS (no input) ends within 20 s
# with STATUS and, unless TEXT is empty, a stderr line holding TEXT; its
# stdout is left in $tmp/out.
expect() {
    name=$1 want=$2 text=$3
    shift 3
    timeout 20 "$SB" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    got=$?
    if [ "$got" -ne "$want" ] || { [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/err"; }; then
        no "$name: status $got (want $want), stderr: $(head -c 400 "$tmp/err") (want '$text')"
    else
        pass
    fi
}
x=$data/xeon-0xcf
head='t_s,part,batch,process,block,state,clock,canary,window,arm,role,cycles_per_iter'
# log NAME ROW...: a --blocks log of a header, a baseline row and the rows given.
log() {
    f=$tmp/$1.csv
    shift
    { echo "$head"; echo '0.1,0,8,0,0,0,1,3,1,host-baseline,baseline,5'; for r; do echo "$r"; done; } >"$f"
}

## --blocks logs: every index range-checked (parts index the reader's tables).
# A case a row: its name, the log's third line (escapes as printf's %b
# reads them) and what report says of that line.
while IFS='|' read -r name row what; do
    log "$name" "$(printf '%b' "$row")"
    expect "$name" 2 "$name.csv:3: $what" report "$x/sweep-1.json" --from-blocks="$tmp/$name.csv"
done <<'EOF'
part_max|0.1,18446744073709551615,8,0,1,0,1,3,1,host-private,variant,6|part past 1024
part_wrap|0.1,9223372036854775808,8,0,1,0,1,3,1,host-private,variant,6|part past 1024
part_negative|0.1,-1,8,0,1,0,1,3,1,host-private,variant,6|a signed index
batch_zero|0.1,0,0,0,1,0,1,3,1,host-private,variant,6|batch size outside
process_past|0.1,0,8,4096,1,0,1,3,1,host-private,variant,6|process past 256
state_past|0.1,0,8,0,1,99999,1,3,1,host-private,variant,6|state past 1024
cycles_huge|0.1,0,8,0,1,0,1,3,1,host-private,variant,1e300|cycles per iteration beyond 1e9
canary_negative|0.1,0,8,0,1,0,1,-3,1,host-private,variant,6|a canary or clock outside
role_unknown|0.1,0,8,0,1,0,1,3,1,host-private,bogus,6|a role that is none of
arm_escape|0.1,0,8,0,1,0,1,3,1,host-\033[2Jprivate,variant,6|an arm name with a control character
EOF
expect part_annotate 2 "part_max.csv:3: part past 1024" annotate --variant=private --from-blocks="$tmp/part_max.csv"
awk -v h="$head" 'BEGIN { print h; for (i = 0; i < 70; i++) printf "0.1,0,8,0,1,0,1,3,1,arm%d,variant,6\n", i }' >"$tmp/wide.csv"
expect block_rows 2 "wide.csv:66: more than 64 rows of one block" report "$x/sweep-1.json" --from-blocks="$tmp/wide.csv"
awk -v h="$head" 'BEGIN { print h; for (i = 0; i < 40; i++) printf "0.1,0,%d,0,1,0,1,3,1,a,variant,6\n", i + 1 }' >"$tmp/batches.csv"
expect batches_many 2 "batches.csv:34: more than 32 batch sizes" report "$x/sweep-1.json" --from-blocks="$tmp/batches.csv"
{ echo "$head"; printf '0.1,0,8,0,1,0,1,3,1,%02000d,variant,6\n' 0; } >"$tmp/long.csv"
expect line_long 2 "long.csv:2: a line longer than" report "$x/sweep-1.json" --from-blocks="$tmp/long.csv"
expect stdin_report 2 "standard input is not read" report "$x/sweep-1.json" --from-blocks=-
expect stdin_annotate 2 "standard input is not read" annotate --variant=private --from-blocks=-

## Saved runs: figures finite and within bounds, CIs that hold their value.
# run NAME PYTHON: run_b.json changed by PYTHON (d: the document, r: its first result).
run() {
    python3 - "$data/run_b.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
exec(sys.argv[3])
open(sys.argv[2], "w").write(json.dumps(d, allow_nan=True))
PY
}
# A case a row: its name, the change, the command that reads the file
# (report, compare beside run_a.json, or plot) and what it says of it.
while IFS='|' read -r name change how what; do
    run "$name" "$change"
    case $how in
    report) set -- report "$tmp/$name.json" ;;
    compare) set -- compare "$tmp/$name.json" "$data/run_a.json" ;;
    plot) set -- plot "$tmp/$name.json" -o "$tmp/$name.png" ;;
    esac
    expect "$name" 2 "$what" "$@"
done <<'EOF'
run_nan|r["cycles_per_iter"]["mean"] = float("nan")|report|run_nan.json: results[0].cycles_per_iter.mean is not a finite number
run_inf|r["cycles_per_iter"]["ci95"][1] = float("inf")|compare|run_inf.json: results[0].cycles_per_iter.ci95[1] is not a finite number
run_inverted_ci|r["cycles_per_iter"]["ci95"] = [11, 9]|report|run_inverted_ci.json: result 1 (baseline@p0): cycles_per_iter has an inverted CI
run_value_outside_ci|r["cycles_per_iter"]["ci95"] = [11, 12]|report|cycles_per_iter 10 lies outside its CI [11, 12]
run_ci_one_bound|r["cycles_per_iter"]["ci95"] = [None, 12]|plot|cycles_per_iter has a CI with one bound
run_ci_huge|d["results"][1]["delta_ci95_pct"] = [-1e300, 1e300]|report|delta_vs_baseline_pct has a CI bound out of range
run_zero_cost|r["cycles_per_iter"] = {"mean": 0, "ci95": [0, 0]}|report|cycles_per_iter 0 is not a positive cycle count
run_batch_zero|r["batch"] = 0|report|run_batch_zero.json: result 1: batch 0 is not a whole number
EOF
expect run_stdin 2 "'-': a run is a file, standard input is not read" report -
expect run_stdin_compare 2 "standard input is not read" compare - "$data/run_a.json"

# A run's strings reach no terminal, Markdown table or JSON as they are.
run esc 'd["machine"] = "Evil\x1b[31mRED\x1b]0;t\x07 | x\u0085y"; d["kernel"] = "Linux 6.18|a\n| b |"; d["across_placements"][1]["variant"] = "priv|ate\x1b[2J\u202e"'
if timeout 20 "$SB" report "$tmp/esc.json" >"$tmp/out" 2>&1 && ! LC_ALL=C grep -q "$(printf '\033')" "$tmp/out" &&
    ! grep -q "$(printf '\302\205')" "$tmp/out" && ! grep -q "$(printf '\342\200\256')" "$tmp/out" &&
    grep -q "priv|ate?\[2J?" "$tmp/out"; then pass
else no "run_strings_terminal: $(head -c 300 "$tmp/out" | od -c | head -5)"; fi
cp "$tmp/esc.json" "$tmp/esc2.json" && sed -i 's/"Evil/"Other/' "$tmp/esc2.json"
if timeout 20 "$SB" report --format=markdown "$tmp/esc.json" "$tmp/esc2.json" >"$tmp/out" 2>&1 &&
    python3 -c '
import re, sys
rows = [l for l in open(sys.argv[1]) if l.startswith("|")]
cells = [len(re.findall(r"(?<!\\)\|", l)) for l in rows]
sys.exit(not (len(rows) == 4 and set(cells) == {5} and " priv\\|ate?[2J? |" in rows[0]))' "$tmp/out"; then pass
else no "run_strings_markdown: $(cat "$tmp/out")"; fi
python3 - "$data/run_a.json" "$tmp/utf.json" <<'PY'
import sys
b = open(sys.argv[1], "rb").read().replace(b'"test machine"', b'"test \xff\xfe machine"', 1)
open(sys.argv[2], "wb").write(b)
PY
if timeout 20 "$SB" report --format=json "$tmp/utf.json" "$data/run_b.json" >"$tmp/out" 2>&1 &&
    python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/out"; then pass
else no "run_strings_json_utf8: $(head -c 300 "$tmp/out")"; fi

# One run given twice (by path, by hard link) is one run.
cp "$data/run_a.json" "$tmp/a.json" && ln -f "$tmp/a.json" "$tmp/a-link.json"
expect run_twice 0 "a-link.json is $tmp/a.json (the same file): counted once" report "$tmp/a.json" "$data/run_b.json" "$tmp/a-link.json" "$tmp/a.json"
if grep -q "1 machine, 2 runs" "$tmp/out"; then pass; else no "run_twice: $(head -1 "$tmp/out")"; fi

# A kernel --obj cost whose CI reaches below zero is flagged, never quoted as a cost alone.
python3 - "$data/report_kernel_obj.json" "$tmp/obj_low.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["cycles_per_iter"].update(mean=0.8, ci95=[-0.6, 2.2])
json.dump(d, open(sys.argv[2], "w"))
PY
expect obj_cost_below_zero 0 "" report "$tmp/obj_low.json"
# Flagged, or (its CI wider than the cost itself: docs/kernel-verdict.md) not resolved.
if grep -q -e "kernel 0.80 \[-0.60, 2.20\] (CI below 0: not told apart from empty)" \
    -e "kernel: not resolved at batch 8: the driver's own spread is ±1.4 cycles" "$tmp/out"; then pass
else no "obj_cost_below_zero: $(head -4 "$tmp/out")"; fi

# A plot of more series than its legend tells apart: refused whole, nothing drawn.
python3 - "$data/plot_sweep.json" "$tmp/many.json" <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
base = d["results"][:2]
d["results"] = [dict(copy.deepcopy(r), variant="%s-%d" % (r["variant"], i)) for i in range(120) for r in base]
json.dump(d, open(sys.argv[2], "w"))
PY
expect plot_many_series 2 "many.json: more than 96 series" plot "$tmp/many.json" -o "$tmp/many.png"
if [ ! -e "$tmp/many.png" ] && [ ! -e "$tmp/many.gp" ]; then pass; else no "plot_many_series: a file was left"; fi

# A path of 1100 characters is taken whole (never cut to its first 511).
long=$tmp
while [ ${#long} -lt 1100 ]; do long=$long/dddddddddddddddddddddddddddddddddddddddddddddddddd; done
mkdir -p "$long" && cp "$data/run_a.json" "$long/a.json"
expect path_long 0 "" report --format=json "$long/a.json" "$data/run_b.json"
if grep -qF "$(printf '%s' "$long/a.json" | sed 's|/|\\/|g')" "$tmp/out"; then pass
else no "path_long: the path was cut: $(grep -A1 '"runs"' "$tmp/out" | head -c 300)"; fi

# A log of another run, and options --from-blocks does not take.
gzip -dc "$x/sweep-1.blocks.csv.gz" >"$tmp/s1.csv"
expect log_of_other_run 2 "s1.csv: not the run's log" report "$x/sweep-5.json" --from-blocks="$tmp/s1.csv"
expect log_other_batches 2 "s1.csv: not the run's log: batch 512 is none of the run's" report "$data/run_b.json" --from-blocks="$tmp/s1.csv"
expect log_variant_none 2 "--variant: no figure of 'nope' in the log" report "$x/sweep-1.json" --from-blocks="$tmp/s1.csv" --variant=nope
expect log_batch_ignored 2 "--batch does not apply with --from-blocks" report "$x/sweep-1.json" --from-blocks="$tmp/s1.csv" --batch=512
expect log_variant_kept 0 "" report "$x/sweep-1.json" --from-blocks="$tmp/s1.csv" --variant=host-private
if grep -q '^[0-9]* *host-private ' "$tmp/out" && ! grep -q '^[0-9]* *private ' "$tmp/out"; then pass
else no "log_variant_kept: $(cat "$tmp/out")"; fi

# Two large runs side by side stay fast: no walk over every row per row
# (32000 results each: the quadratic form took past a minute, this one
# about a second; the 20 s bound is a hang guard).
python3 - "$x/sweep-1.json" "$tmp/large-a.json" "$tmp/large-b.json" 32000 <<'PY'
import copy, json, sys
d = json.load(open(sys.argv[1]))
keep = ('variant', 'side', 'family', 'codegen', 'flavour', 'return', 'shape', 'placement', 'batch', 'samples',
        'cycles_per_iter', 'delta_vs_baseline_pct', 'delta_ci95_pct')
base = []
for r in d["results"]:
    if r["batch"] == 512:
        r = {k: v for k, v in r.items() if k in keep}
        r["cycles_per_iter"] = {"mean": r["cycles_per_iter"]["mean"], "ci95": r["cycles_per_iter"]["ci95"]}
        base.append(r)
res = []
for i in range(int(sys.argv[4])):
    r = copy.deepcopy(base[i % len(base)])
    r["batch"] = 512 if i % 2 else 1 + i
    r["variant"] += "-%d" % (i // 4)
    res.append(r)
d["results"] = res
for k in ("core_states", "across_placements"):
    d.pop(k, None)
json.dump(d, open(sys.argv[2], "w"))
d["machine"] = "Other machine, Linux"
json.dump(d, open(sys.argv[3], "w"))
PY
expect large_runs 0 "" report "$tmp/large-a.json" "$tmp/large-b.json"
# Out of memory under an address-space limit is said so, never "not JSON"
# (ASan reserves more address space than any such limit: skipped there).
if ! ldd "$SB" 2>/dev/null | grep -q libasan; then
    (ulimit -v 60000; timeout 20 "$SB" report "$tmp/large-a.json" "$tmp/large-b.json" >/dev/null 2>"$tmp/err"); rc=$?
    if [ $rc -eq 2 ] && grep -q "large-a.json: out of memory (address-space limit 58 MB)" "$tmp/err"; then pass
    else no "address_space_limit: status $rc, stderr: $(cat "$tmp/err")"; fi
    # A measuring process out of room for its samples says so, never "sample
    # failed" or a broken pipe (the parent's reading ends the child first).
    (ulimit -v 60000; timeout 60 "$SB" --samples=400000 --batch=1 --variant=private --processes=2 --no-padded \
        --past-runs=none --quiet-levels=none >/dev/null 2>"$tmp/err"); rc=$?
    if [ $rc -eq 1 ] && tail -n 1 "$tmp/err" | grep -q "out of memory (address-space limit 58 MB)" &&
       ! grep -q "sample failed\|Broken pipe" "$tmp/err"; then pass
    else no "samples_address_space_limit: status $rc, stderr: $(cat "$tmp/err")"; fi
fi

checks_done hostile_reports

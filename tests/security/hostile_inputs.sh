#!/bin/sh
# Bad input and hostile conditions: each case ends within 20 s with the
# status it should have and a message on stderr naming the problem, and no
# case prints a number that has no samples behind it.
# usage: hostile_inputs.sh STUBBENCH STUBBENCH-GBENCH
# (STUBBENCH-GBENCH may name no file: a build without the Google Benchmark
# part; its cases are then skipped, and the skip is counted.)
set -u
SB=$1
GB=$2
export SB GB
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export tmp
fails=0 passes=0 skips=0 limit=20
is_root=0
# Parts a build may leave out (CMake STUBBENCH_KERNEL, STUBBENCH_COUNTERS):
# their cases are skipped, and counted as skipped, when the part says so.
has_kernel=1 has_counters=1
"$SB" kernel --help 2>&1 | grep -q "was not built" && has_kernel=0
"$SB" --counters=cpu-clock --calls=1 2>&1 | grep -q "built without the counters part" && has_counters=0
[ "$(id -u)" = 0 ] && is_root=1

# case NAME STATUS NEEDLE COMMAND: runs COMMAND with sh -c (at most $limit s);
# the status must be STATUS and stderr must hold NEEDLE (a fixed string;
# empty: stderr is not looked at).
case_() {
    name=$1 want=$2 needle=$3 cmd=$4
    case $cmd in
    '$GB '*) if [ ! -x "$GB" ]; then skip "$name: stubbench-gbench not built"; return; fi ;;
    *'$SB kernel '*) if [ $has_kernel -eq 0 ]; then skip "$name: the kernel part not built"; return; fi ;;
    *'$SB --counters'*) if [ $has_counters -eq 0 ]; then skip "$name: the counters part not built"; return; fi ;;
    esac
    timeout $limit sh -c "$cmd" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -eq 124 ]; then
        echo "FAIL: $name: still running after $limit s"
        fails=$((fails + 1))
    elif [ "$got" -ne "$want" ] || { [ -n "$needle" ] && ! grep -qF -- "$needle" "$tmp/err"; }; then
        echo "FAIL: $name: status $got (want $want), stderr (want '$needle'):"
        sed 's/^/    /' "$tmp/err" | head -5
        fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
}
# out_has NAME FIXED-STRING / out_lacks NAME EXTENDED-REGEX: on the stdout
# of the case before.
out_has() {
    if grep -qF -- "$2" "$tmp/out"; then passes=$((passes + 1)); else
        echo "FAIL: $1: stdout lacks '$2'"; fails=$((fails + 1)); fi
}
out_lacks() {
    if grep -qE -- "$2" "$tmp/out"; then
        echo "FAIL: $1: stdout has '$2':"; grep -E -- "$2" "$tmp/out" | head -3
        fails=$((fails + 1))
    else passes=$((passes + 1)); fi
}
skip() { echo "SKIP: $1"; skips=$((skips + 1)); }
# sig_case NAME SIGNAL AFTER COMMAND...: the signal AFTER seconds into the
# run stops it within a second, with status 130, "interrupted" on stderr
# and nothing on stdout that looks like a result.
sig_case() {
    name=$1 sig=$2 after=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    sleep "$after"
    kill -"$sig" $pid
    t0=$(date +%s%N)
    wait $pid
    got=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ $got -ne 130 ] || [ $ms -gt 1000 ] || ! grep -q "interrupted" "$tmp/err"; then
        echo "FAIL: $name: SIG$sig after ${after}s: status $got, stopped in $ms ms"; fails=$((fails + 1))
    else
        passes=$((passes + 1))
    fi
    out_lacks "$name" '^(baseline|private|hybrid|twin-|lab-)|M/s'
}

# Upper bounds, checked when parsed: never a hang.
case_ batch_2e63 2 "above the maximum 1048576" '$SB --batch=9223372036854775808'
case_ batch_2e32 2 "above the maximum 1048576" '$SB --batch=1,4294967296'
case_ samples_2e64 2 "above the maximum 400000" '$SB --samples=18446744073709551615'
case_ samples_overflow 2 "above the maximum 400000" '$SB --samples=99999999999999999999999'
case_ calls_2e63 2 "above the maximum 100000000" '$SB --calls=9223372036854775808'
case_ time_huge 2 "above the maximum 86400 seconds" '$SB --time=1e11'
case_ time_inf 2 "--time: 'inf'" '$SB --time=inf'
case_ lab_batch_2e63 2 "above the maximum 1048576" '$SB lab --batch=9223372036854775808'
case_ kernel_batch_1e6 2 "above the maximum 16384" '$SB kernel --batch=1000000'
case_ kernel_samples_huge 2 "above the maximum 400000" '$SB kernel --samples=18446744073709551615'
case_ gbench_batches_2e63 2 "above the maximum 1048576" '$GB --batch=9223372036854775808'
# A time that cannot hold one round: said, status 2, nothing printed.
case_ time_tiny 2 "cannot hold one round" '$SB --cpu=1 --batch=8 --time=1e-9'
out_lacks time_tiny_out '[0-9]'
# Lists of any length: nothing cut. Every variant of --list (72 distinct
# names, 1900 characters), then one unknown: the whole list is read.
long=$("$SB" --list | awk '/^[a-z]/ { printf "%s,", $1 }')
case_ variant_long 2 "unknown variant 'nope'" "\$SB --variant=${long}nope"
# The kernel's three variants, a long run of spaces, then one unknown.
pad=$(printf '%2000s' '')
case_ kernel_variant_long 2 "unknown variant 'nope'" "\$SB kernel --variant='baseline,private,hybrid,${pad}nope'"
# The first 31 names of --list (the most arms a sweep takes), private among them.
long31=$("$SB" --list | awk '/^[a-z]/ && n < 31 { printf "%s%s", n++ ? "," : "", $1 }')
case_ variant_long_runs 0 "" "\$SB --variant=$long31 --calls=3"
out_has variant_long_private "private "

# Config files: a line libinih would split, a key given twice, a directory,
# an unreadable file, a bad variant: file, line and key named, status 2.
x200=$(i=0; while [ $i -lt 25 ]; do printf 'xxxxxxxxxx'; i=$((i + 1)); done)
printf '[sweep]\n; %s batches = 4096\nbatches = 8\n' "$x200" >"$tmp/long_comment.ini"
printf '[sweep]\nbatches = 8%s,64\n' "$(printf '%200s' '')" >"$tmp/long_value.ini"
printf '[sweep]\nbatches = 8\ntime = 1\nbatches = 64\n' >"$tmp/dup.ini"
printf '[sweep]\nvariants = private, nope\n' >"$tmp/variant.ini"
printf '[sweep]\nsamples = 18446744073709551615\n' >"$tmp/samples.ini"
case_ config_long_comment 2 "long_comment.ini:2: line of 267 characters" '$SB --config=$tmp/long_comment.ini --calls=1'
case_ config_long_value 2 "long_value.ini:2: line of" '$SB --config=$tmp/long_value.ini --calls=1'
case_ config_duplicate 2 "dup.ini:4: [sweep] batches: given again (first on line 2" '$SB --config=$tmp/dup.ini --calls=1'
case_ config_variant 2 "variant.ini:2: [sweep] variants: unknown variant 'nope'" '$SB --config=$tmp/variant.ini --calls=1'
case_ config_samples 2 "samples.ini:2: [sweep] samples: '18446744073709551615' is above the maximum" '$SB --config=$tmp/samples.ini'
case_ config_directory 2 "cannot read config: it is a directory" '$SB --config=$tmp --calls=1'
case_ config_unreadable 2 "/proc/self/mem: cannot read config: Input/output error" '$SB --config=/proc/self/mem --calls=1'
case_ lab_config_directory 2 "it is a directory" '$SB lab --config=$tmp'
case_ config_endless 2 "/dev/zero: cannot read config: it is a character device" '$SB --config=/dev/zero --calls=1'
case_ compare_endless 2 "/dev/zero: it is a character device" '$SB compare /dev/zero /dev/zero'
case_ plot_endless 2 "/dev/zero: it is a character device" '$SB plot /dev/zero -o $tmp/x.png'
# Larger than the limits: sparse files of 2 MiB and 80 MiB.
truncate -s 2M "$tmp/big.ini" && truncate -s 80M "$tmp/big.json"
case_ config_large 2 "big.ini: cannot read config: larger than 1048576 bytes" '$SB --config=$tmp/big.ini --calls=1'
case_ compare_large 2 "big.json: larger than" '$SB compare $tmp/big.json $tmp/big.json'
case_ plot_large 2 "big.json: larger than" '$SB plot $tmp/big.json -o $tmp/x.png'

# No usable samples (every block flagged disturbed by the test hook): n/a,
# null, no seed line, and status 1, never a number.
nos='STUBBENCH_TEST_DISTURB_ALL=1 $SB --cpu=1 --samples=8 --batch=1,8 --variant=private'
case_ nosamples_table 1 "no usable samples" "$nos"
out_has nosamples_table_na "n/a"
out_lacks nosamples_table_numbers '^(baseline|private) +[0-9]+ +[0-9]'
case_ nosamples_seed 1 "private-stack-8:     n/a (no usable samples" "$nos --format=seed"
out_lacks nosamples_seed_lines 'M/s'
case_ nosamples_json 1 "no usable samples" "$nos --format=json"
out_has nosamples_json_null '"cycles_per_iter": null'
out_has nosamples_json_reason '"no_samples_reason": "all'
case_ nosamples_lab 1 "no usable samples" "STUBBENCH_TEST_DISTURB_ALL=1 \$SB lab --cpu=1 --samples=4 --batch=8 --shape=in-loop"

# Write errors: one line, status 1.
case_ full_list 1 "No space left on device" '$SB --list >/dev/full'
case_ full_help 1 "No space left on device" '$SB --help >/dev/full'
case_ full_run 1 "No space left on device" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 >/dev/full'
case_ full_blocks 2 "--blocks: '/dev/full' is a character device, not a regular file" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 --blocks=/dev/full >/dev/null'
case_ closed_run 1 "to standard output: it is closed" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 >&-'
case_ closed_calls 1 "to standard output: it is closed" '$SB --cpu=1 --calls=10 >&-'
case_ closed_kernel 1 "to standard output: it is closed" '$SB kernel --samples=1 >&-'
case_ closed_stderr_run 0 "" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 2>&- >/dev/null'
case_ full_lab 1 "No space left on device" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB lab --cpu=1 --samples=4 --batch=8 --shape=in-loop >/dev/full'
case_ full_kernel_help 1 "No space left on device" '$SB kernel --help >/dev/full'
case_ full_gbench 1 "cannot write the results" '$GB --benchmark_filter=^baseline/batch:1/ --benchmark_min_time=0.001 >/dev/full'

# stubbench-gbench: the flags libbenchmark takes on trust are checked first.
case_ gbench_repetitions_negative 2 "--benchmark_repetitions: '-1'" '$GB --benchmark_repetitions=-1'
case_ gbench_filter_regex 2 "--benchmark_filter: '([' is not a regular expression" '$GB "--benchmark_filter=(["'
case_ gbench_filter_nomatch 2 "no benchmark ran" '$GB --benchmark_filter=nomatch'
case_ gbench_format 2 "--benchmark_format: unknown format 'xml'" '$GB --benchmark_format=xml'
case_ gbench_out_format 2 "--benchmark_out_format: unknown format 'xml'" '$GB --benchmark_out_format=xml'
case_ gbench_min_time 2 "--benchmark_min_time: 'abc' is not a number of seconds" '$GB --benchmark_min_time=abc'
if grep -q "unknown argument" "$tmp/err"; then
    echo "FAIL: gbench_min_time: a second, wrong line"; fails=$((fails + 1))
fi
case_ gbench_min_time_huge 2 "--benchmark_min_time: '1e9'" '$GB --benchmark_min_time=1e9'
case_ gbench_out 2 "--benchmark_out: cannot write" '$GB --benchmark_out=$tmp/none/x.json'

case_ counters_empty 2 "--counters: '' names no event" '$SB --counters= --samples=1'
case_ gbench_counters_empty 2 "--counters: '' names no event" '$GB --counters='

# Output paths checked before anything is measured.
case_ plot_extension 2 "must end in .svg or .png" '$SB lab --plot=$tmp/x.pdf'
case_ plot_directory 2 "No such file or directory" '$SB lab --plot=$tmp/none/x.svg'
case_ dump_jit_directory 2 "--dump-jit: cannot create directory" '$SB kernel --dump-jit=/proc/nope/dir --samples=1'
# A file as the dump's directory: refused before loading or measuring, in
# every mode (it was found after measuring, status 1, for htab and --obj).
: >"$tmp/a_file"
case_ dump_jit_file_htab 2 "--dump-jit: cannot write in '$tmp/a_file': Not a directory" '$SB kernel --shape=htab --dump-jit=$tmp/a_file --samples=1'
case_ dump_jit_file_obj 2 "--dump-jit: cannot write in '$tmp/a_file': Not a directory" '$SB kernel --obj=$tmp/a_file --prog=x --dump-jit=$tmp/a_file --samples=1'

# Cosmetic: the arm limit in --help is the one enforced.
"$SB" --help | grep -q "<= 31 arms" && passes=$((passes + 1)) || { echo "FAIL: --help arms"; fails=$((fails + 1)); }
case_ placements_arms 2 "more than 31 arms" '$SB --placements=11'
case_ processes_zero 2 "--processes: '0' is below the minimum 1" '$SB --processes=0'
case_ processes_many 2 "--processes: '257' is above the maximum 256" '$SB --processes=257'
case_ processes_word 2 "--processes: 'four' is not a whole number" '$SB kernel --processes=four'

# Signals: every mode stops at once, status 130, no results.
sig_case sigint_replicas INT 1 "$SB" --cpu=1 --time=30
sig_case sigterm_replicas TERM 1 "$SB" --cpu=1 --time=30 --format=seed
sig_case sigterm_lab TERM 1 "$SB" lab --cpu=1 --time=30
if [ -x "$GB" ]; then sig_case sigint_gbench INT 1 "$GB" --benchmark_min_time=5; else skip "sigint_gbench: stubbench-gbench not built"; fi

. "$(dirname "$0")/hostile_files.sh"
. "$(dirname "$0")/hostile_compare.sh"
. "$(dirname "$0")/hostile_errors.sh"

# Kernel side: needs root and BPF.
# (status 0, or 1 for cells with too few samples: BPF runs here.)
"$SB" kernel --samples=2 --batch=1 --shape=in-loop --variant=baseline >/dev/null 2>&1
bpf_runs=$?
if [ $is_root -eq 1 ] && [ $bpf_runs -le 1 ]; then
    # A CPU that is not there: one line, named once, in every kernel mode.
    for shape in in-loop htab; do
        case_ kernel_cpu_missing_$shape 2 "--cpu=99: no such CPU" "\$SB kernel --shape=$shape --cpu=99 --samples=1"
        if grep -q -- "--cpu: --cpu" "$tmp/err"; then
            echo "FAIL: kernel_cpu_missing_$shape: the option named twice"; fails=$((fails + 1))
        fi
    done
    # A capability missing is named, never a JIT mismatch.
    if command -v setpriv >/dev/null; then
        caps='+bpf,+perfmon,+syslog'
        case_ kernel_no_sys_admin 3 "needs CAP_SYS_ADMIN" "setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all,$caps --ambient-caps=$caps --bounding-set=-all,$caps \$SB kernel --samples=1 --batch=8 --shape=in-loop"
        if grep -q "differs from its twin\|MISMATCH" "$tmp/err" "$tmp/out"; then
            echo "FAIL: kernel_no_sys_admin reported as a JIT mismatch"; fails=$((fails + 1))
        fi
    else
        skip "kernel_no_sys_admin: no setpriv"
    fi
    # SIGTERM and SIGINT mid-run, in the first phases and in the later ones.
    for sig in INT TERM; do
        for after in 2 5; do
            sig_case kernel_sig$sig$after $sig $after "$SB" kernel --time=60 --shape=in-loop --batch=64
        done
    done
else
    skip "kernel cases: not root or no BPF here"
fi

echo "$passes passed, $fails failed, $skips skipped"
[ "$fails" -eq 0 ]

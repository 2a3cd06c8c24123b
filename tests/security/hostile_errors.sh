# hostile_errors.sh: the cases of hostile_inputs.sh (sourced by it, with its
# case_, out_has, out_lacks and counters) where the message must say what
# happened: lists with a name twice or an empty item, config keys that
# conflict, non-UTF-8 arguments in JSON, and the kernel's own errors (the
# verifier's log, a program type BPF_PROG_TEST_RUN cannot run, a
# batch_iters of the wrong type). Each case at most 10 s (the cases that
# measure: 60 s in a sanitized build).
limit=10 measuring=10
ldd "$SB" 2>/dev/null | grep -q libasan && measuring=60
# err_lacks NAME FIXED-STRING: stderr of the case before lacks it.
err_lacks() {
    if grep -qF -- "$2" "$tmp/err"; then
        echo "FAIL: $1: stderr has '$2'"; fails=$((fails + 1))
    else passes=$((passes + 1)); fi
}
e=$tmp/errors
mkdir -p "$e"
export e

case_ variant_twice 2 "--variant: 'private' is named twice" '$SB --variant=private,hybrid,private --calls=1'
case_ variant_alias 2 "'baseline' and 'no-private-stack' name the same variant" '$SB --variant=baseline,no-private-stack --calls=1'
case_ variant_empty_item 2 "--variant: an empty item" '$SB --variant=private,,hybrid --calls=1'
case_ variant_trailing_comma 2 "--variant: an empty item" '$SB --variant=private, --calls=1'
case_ kernel_variant_twice 2 "--variant: 'private' is named twice" '$SB kernel --variant=private,private --samples=1'
case_ kernel_variant_empty 2 "--variant: an empty item" '$SB kernel --variant=,private --samples=1'
case_ kernel_prog_twice 2 "--prog: 'a' is named twice" '$SB kernel --obj=$e/none.o --prog=a,b,a --samples=1'
case_ kernel_prog_empty 2 "--prog: an empty item" '$SB kernel --obj=$e/none.o --prog=a, --samples=1'
printf '[sweep]\ntime = 1\nsamples = 100\n' >"$e/time_samples.ini"
printf '[sweep]\nvariants = private, hybrid, private\n' >"$e/variant_twice.ini"
printf '[sweep]\nvariants = private,,hybrid\n' >"$e/variant_empty.ini"
case_ config_time_samples 2 "time_samples.ini:3: [sweep] samples: conflicts with [sweep] time on line 2" '$SB --config=$e/time_samples.ini --calls=1'
case_ config_variant_twice 2 "variant_twice.ini:2: [sweep] variants: 'private' is named twice" '$SB --config=$e/variant_twice.ini --calls=1'
case_ config_variant_empty 2 "variant_empty.ini:2: [sweep] variants: an empty item" '$SB --config=$e/variant_empty.ini --calls=1'

# Bytes that are not UTF-8 in an argument: the JSON document is still UTF-8
# (each such byte is U+FFFD).
bad=$(printf '\377\300x')
limit=$measuring
case_ json_argv_not_utf8 0 "" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 --variant=private --format=json --past-runs="$e/'"$bad"'"'
if python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/out" 2>"$tmp/py"; then
    passes=$((passes + 1))
else
    echo "FAIL: json_argv_not_utf8: not UTF-8 JSON: $(tail -1 "$tmp/py")"; fails=$((fails + 1))
fi
out_has json_argv_replacement '\ufffd\ufffdx'
limit=10

# A user's BPF object (--obj) of the wrong kind: what is wrong with it is
# named. The objects: tests/data/hostile_progs.bpf.c, built with the kernel part.
objs=$(dirname "$SB")/tests
export objs
if [ -f "$objs/hostile-batch_u8.bpf.o" ]; then
    case_ obj_batch_u8 2 "batch_iters is a 1-byte integer (unsigned char): it must be a const volatile __u32" '$SB kernel --obj=$objs/hostile-batch_u8.bpf.o --prog=counts --batch=8 --samples=1'
    case_ obj_batch_array 2 "batch_iters is an array of 2 elements" '$SB kernel --obj=$objs/hostile-batch_array.bpf.o --prog=counts --batch=8 --samples=1'
    case_ obj_batch_mutable 2 "batch_iters is a 4-byte integer (unsigned int) in .data, which the program may write" '$SB kernel --obj=$objs/hostile-batch_mutable.bpf.o --prog=counts --batch=8 --samples=1'
    case_ obj_batch_not_volatile 2 "batch_iters is const but not volatile" '$SB kernel --obj=$objs/hostile-batch_not_volatile.bpf.o --prog=counts --batch=8 --samples=1'
    err_lacks obj_batch_not_volatile_no_global "has no batch_iters global"
else
    skip "obj_batch_*: the kernel part (its test objects) not built"
fi
"$SB" kernel --samples=2 --batch=1 --shape=in-loop --variant=baseline >/dev/null 2>&1
bpf_runs=$?
if [ $is_root -eq 1 ] && [ -f "$objs/hostile-rejected.bpf.o" ] && [ $bpf_runs -le 1 ]; then
    # A rejection is the verifier's words, never "need root".
    case_ obj_rejected 2 "the verifier rejected program 'rejected'" '$SB kernel --obj=$objs/hostile-rejected.bpf.o --prog=rejected --samples=1'
    case_ obj_rejected_log 2 "invalid mem access" '$SB kernel --obj=$objs/hostile-rejected.bpf.o --prog=rejected --samples=1'
    err_lacks obj_rejected_not_caps "need root"
    case_ obj_kprobe 2 "'on_kprobe' is a kprobe program, a type BPF_PROG_TEST_RUN cannot run (error 524" '$SB kernel --obj=$objs/hostile-not_test_run.bpf.o --prog=on_kprobe --samples=1'
    case_ obj_tracepoint 2 "'on_tracepoint' is a tracepoint program, a type BPF_PROG_TEST_RUN cannot run" '$SB kernel --obj=$objs/hostile-not_test_run.bpf.o --prog=on_tracepoint --samples=1'
    err_lacks obj_tracepoint_errno "Unknown error"
    # A dump refused (a FIFO planted at its name): said, status 1, and
    # never followed by "dumps written".
    mkdir -p "$tmp/dj" && rm -f "$tmp/dj/"* && mkfifo "$tmp/dj/with_frame.with_frame.lst"
    if [ -f "$objs/user_prog.bpf.o" ]; then
        case_ obj_dump_refused 1 "with_frame.lst' is a FIFO" '$SB kernel --obj=$objs/user_prog.bpf.o --prog=with_frame --dump-jit=$tmp/dj --samples=2 --batch=1 --past-runs=none --quiet-levels=none'
        if grep -q "dumps written" "$tmp/out" "$tmp/err"; then
            echo "FAIL: obj_dump_refused: 'dumps written' after a refused dump"; fails=$((fails + 1))
        else passes=$((passes + 1)); fi
    fi
    # Out of file descriptors: the cause, not a verifier rejection.
    out=$( (ulimit -n 12; "$SB" kernel --samples=2 --batch=1) 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 1 ] && printf '%s' "$out" | grep -q "too many open files (limit 12)" &&
       ! printf '%s' "$out" | grep -q "verifier"; then
        passes=$((passes + 1))
    else
        echo "FAIL: emfile: status $rc (want 1), stderr: $out"; fails=$((fails + 1))
    fi
    # The same for --obj, where the verifier passed the program (or libbpf
    # lost EMFILE making a map) before the descriptor failed.
    for n in 6 7 8; do
        out=$( (ulimit -n $n; "$SB" kernel --obj="$objs/user_prog.bpf.o" --prog=with_frame --samples=2 --batch=1) 2>&1 >/dev/null)
        if printf '%s' "$out" | grep -q "too many open files (limit $n)" && ! printf '%s' "$out" | grep -q "verifier"; then
            passes=$((passes + 1))
        else
            echo "FAIL: obj_emfile_$n: stderr: $out"; fails=$((fails + 1))
        fi
    done
    # One bpf_loop of 8M iterations a run: the twin's path check stops
    # counting, and the run ends (it ran past a minute at --time=1).
    # --time=4: a run may take an eighth of it, and one took 0.1-0.25 s on
    # a 2-vCPU VM (at --time=1 the run was refused as too long for it).
    if [ -f "$objs/hostile-long_run.bpf.o" ]; then
        out=$(timeout 30 "$SB" kernel --obj="$objs/hostile-long_run.bpf.o" --prog=long_run --time=4 2>&1 >/dev/null)
        rc=$?
        if [ $rc -le 1 ] && printf '%s' "$out" | grep -q "instructions: stopped counting"; then
            passes=$((passes + 1))
        else
            echo "FAIL: obj_long_run: status $rc (want 0 or 1 within 30 s), stderr: $out"; fails=$((fails + 1))
        fi
    fi
else
    skip "obj_rejected, obj_kprobe, obj_tracepoint: not root, no BPF, or the test objects not built"
fi

# The option is named once.
case_ footprint_cpu_missing 2 "stubbench footprint: --cpu=99: no such CPU" '$SB footprint --cpu=99'
err_lacks footprint_cpu_once "--cpu: --cpu"

# Numbers: no NaN or Inf in any format. One sample per cell has no CI: n/a,
# null, empty, the reason named, status 1.
limit=$measuring
one='STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --batch=1,8 --variant=private --flavour=seed001 --past-runs=none'
nonum='(^|[^a-z_])([+-]?nan|[+-]?inf)([^a-z_]|$)'
export one
# baseline and private at two batch sizes
for fmt in table csv json seed gbench; do
    case_ samples_one_$fmt 1 "4 of 4 results have no usable samples" "$one --samples=1 --format=$fmt"
    out_lacks samples_one_${fmt}_nan "$nonum"
done
case_ samples_one_reason 1 "" "$one --samples=1 --table"
out_has samples_one_reason_table "has no usable samples: 1 kept sample: too few for a 95 % CI"
case_ samples_one_reason_json 1 "" "$one --samples=1 --format=json"
out_has samples_one_reason_null '"cycles_per_iter": null'
out_has samples_one_reason_said '"no_samples_reason": "1 kept sample: too few for a 95 % CI"'
case_ samples_one_gbench_none 1 "" "$one --samples=1 --format=gbench"
out_lacks samples_one_gbench_numbers '"cpu_time": [0-9]'
case_ samples_two 0 "" "$one --samples=2 --format=csv"
out_lacks samples_two_nan "$nonum"
case_ lab_samples_one 1 "no usable samples" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB lab --cpu=1 --samples=1 --batch=8 --shape=in-loop --past-runs=none'
out_lacks lab_samples_one_nan "$nonum"
if [ $is_root -eq 1 ] && [ $has_kernel -eq 1 ]; then
    for fmt in table json; do
        case_ kernel_samples_one_$fmt 1 "no usable samples" "\$SB kernel --cpu=1 --samples=1 --batch=8 --shape=in-loop --past-runs=none --format=$fmt"
        out_lacks kernel_samples_one_${fmt}_nan "$nonum"
    done
else
    skip "kernel_samples_one: not root or no kernel part"
fi
limit=10

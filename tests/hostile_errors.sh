# hostile_errors.sh: the cases of hostile_inputs.sh (sourced by it, with its
# case_, out_has, out_lacks and counters) where the message must say what
# happened: lists with a name twice or an empty item, config keys that
# conflict, non-UTF-8 arguments in JSON, and the kernel's own errors (the
# verifier's log, a program type BPF_PROG_TEST_RUN cannot run, a
# batch_iters of the wrong type). Each case at most 10 s.
limit=10
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
case_ json_argv_not_utf8 0 "" 'STUBBENCH_TEST_DISTURB_NONE=1 $SB --cpu=1 --samples=4 --batch=1 --variant=private --format=json --past-runs="$e/'"$bad"'"'
if python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$tmp/out" 2>"$tmp/py"; then
    passes=$((passes + 1))
else
    echo "FAIL: json_argv_not_utf8: not UTF-8 JSON: $(tail -1 "$tmp/py")"; fails=$((fails + 1))
fi
out_has json_argv_replacement '\ufffd\ufffdx'

# hostile_compare.sh: the compare cases of hostile_inputs.sh (sourced by it,
# with its case_, out_has, out_lacks and counters): runs that cannot be
# compared are refused with one line and status 2, out-of-range numbers are
# bad input, --fail-on-change gives 1 only for a change beyond the CIs, and
# matching 60,000 rows takes well under the bound (a check of O(n log n),
# not a timing: the quadratic walk took 19 s). Each case at most 10 s.
limit=10
data=$(cd "$(dirname "$0")/.." && pwd)/data
c=$tmp/compare
mkdir -p "$c"
export data c
# row VARIANT BATCH MEAN LO HI: one result of a main run, with a delta.
row() {
    printf '{"variant": "%s", "batch": %s, "samples": 10, "cycles_per_iter": {"mean": %s, "ci95": [%s, %s]}, ' \
        "$1" "$2" "$3" "$4" "$5"
    printf '"delta_vs_baseline_pct": 5.0, "delta_ci95_pct": [4.0, 6.0]}'
}
run() { printf '{"tool": "stubbench", "schema_version": 4, "results": [%s]}\n' "$1"; }
run "$(row private 8 10 9 11)" >"$c/ok.json"
run "$(row other 8 10 9 11)" >"$c/other.json"
run '{"variant": "private", "batch": 8, "samples": 0, "cycles_per_iter": {"n": 0, "mean": null, "ci95": [null, null]}}' >"$c/empty.json"
run "$(row private 8 1e308 9 11)" >"$c/huge_value.json"
run "$(row private 1e300 10 9 11)" >"$c/huge_batch.json"
run "$(row private 8.5 10 9 11)" >"$c/half_batch.json"
run "$(row private 8 0.02 0.01 0.03)" >"$c/near_zero.json"
run "$(row private 8 12.9 12 13.5)" >"$c/large.json"
cat "$c/ok.json" "$c/other.json" >"$c/two.json"
{ cat "$c/ok.json"; echo '#'; } >"$c/trailing.json"
# The schema read strictly: newer, missing or not a number refused by name;
# a figure of the wrong type is an error, not a row dropped.
sed 's/"schema_version": 4/"schema_version": 99/' "$c/ok.json" >"$c/schema99.json"
sed 's/"schema_version": 4, //' "$c/ok.json" >"$c/noschema.json"
sed 's/"schema_version": 4/"schema_version": "four"/' "$c/ok.json" >"$c/schema_four.json"
run "$(row private 8 10 9 11 | sed 's/"delta_vs_baseline_pct": 5.0/"delta_vs_baseline_pct": "5.0"/')" >"$c/string_figure.json"

case_ compare_kinds 2 "different kinds of run" '$SB compare $data/run_a.json $data/run_kernel.json'
out_lacks compare_kinds_table 'compared rows'
case_ compare_no_common 2 "no cell (variant at a batch size) of A is in B" '$SB compare $c/ok.json $c/other.json'
case_ compare_no_samples 2 "empty.json): no result of the run has samples" '$SB compare $c/ok.json $c/empty.json'
case_ compare_concatenated 2 "two.json: not one JSON document: more data after the end" '$SB compare $c/two.json $c/ok.json'
case_ compare_trailing 2 "trailing.json: not one JSON document" '$SB compare $c/ok.json $c/trailing.json'
case_ compare_huge_value 2 "cycles_per_iter 1e+308 is out of range" '$SB compare $c/ok.json $c/huge_value.json'
case_ compare_huge_batch 2 "batch 1e+300 is not a whole number in 1 .. 1048576" '$SB compare $c/huge_batch.json $c/ok.json'
case_ compare_half_batch 2 "batch 8.5 is not a whole number" '$SB compare $c/half_batch.json $c/ok.json'
case_ compare_schema_newer 2 "schema99.json: schema_version 99: this stubbench reads 1 to 4 (a newer stubbench wrote it)" '$SB compare $c/ok.json $c/schema99.json'
case_ compare_schema_missing 2 "noschema.json: no schema_version" '$SB compare $c/ok.json $c/noschema.json'
case_ compare_schema_string 2 'schema_four.json: schema_version "four" is not a whole number' '$SB compare $c/ok.json $c/schema_four.json'
case_ report_schema_newer 2 "schema_version 99" '$SB report $c/schema99.json'
case_ compare_string_figure 2 "delta_vs_baseline_pct is not a number" '$SB compare --fail-on-change $c/ok.json $c/string_figure.json'
case_ compare_same 0 "" '$SB compare --fail-on-change $c/ok.json $c/ok.json'
out_has compare_same_rows "0 of 1 compared rows differ"
case_ compare_changed 0 "" '$SB compare --metric=cycles $c/ok.json $c/large.json'
case_ compare_fail_on_change 1 "" '$SB compare --metric=cycles --fail-on-change $c/ok.json $c/large.json'
out_has compare_fail_on_change_rows "1 of 1 compared rows differ"
case_ compare_fail_on_change_delta 1 "" '$SB compare --fail-on-change $data/run_a.json $data/run_b.json'
# A ratio of a figure near zero: said on a line of its own.
case_ compare_near_zero 0 "" '$SB compare --metric=cycles $c/near_zero.json $c/large.json'
out_has compare_near_zero_line "the cost in A is near zero"

# 60,000 rows in each run, B in the reverse order and every delta moved
# beyond the CIs: matched within 5 s (15 s in a sanitized build).
cat >"$c/gen.awk" <<'AWK'
BEGIN {
    printf "{\"tool\": \"stubbench\", \"schema_version\": 4, \"results\": [\n"
    for (j = 0; j < n; j++) {
        i = rev ? n - 1 - j : j
        printf "%s{\"variant\": \"v%d\", \"batch\": %d, \"samples\": 10, ", j ? "," : "", i % 1000, 1 + int(i / 1000)
        printf "\"cycles_per_iter\": {\"mean\": 10.0, \"ci95\": [9.0, 11.0]}, "
        printf "\"delta_vs_baseline_pct\": %d.0, \"delta_ci95_pct\": [%d.5, %d.5]}\n", 5 + 2 * rev, 4 + 2 * rev, 5 + 2 * rev
    }
    print "]}"
}
AWK
awk -v n=60000 -v rev=0 -f "$c/gen.awk" >"$c/rows_a.json"
awk -v n=60000 -v rev=1 -f "$c/gen.awk" >"$c/rows_b.json"
limit=5
ldd "$SB" 2>/dev/null | grep -q libasan && limit=15
case_ compare_60000_rows 1 "" '$SB compare --fail-on-change $c/rows_a.json $c/rows_b.json'
out_has compare_60000_rows_all "60000 of 60000 compared rows differ"
limit=10

#!/bin/sh
# compare_cli: `stubbench compare` refuses what it cannot compare with
# status 2, nothing on stdout and one line on stderr naming the input: a
# file that cannot be read or is not JSON, a metric it does not know, one
# run alone, runs of different kinds (no table; that line and the missing
# file's are checked whole).
# usage: compare_cli.sh STUBBENCH DATA_DIR
set -u
sb=$1 data=$2
. "$(dirname "$0")/../common/check.sh"

refused -x 2 "stubbench compare: /nonexistent/b.json: No such file or directory" \
    compare "$data/run_a.json" /nonexistent/b.json
refused 2 "stubbench compare: $data/seed001_baseline_main.lst: not JSON" \
    compare "$data/run_a.json" "$data/seed001_baseline_main.lst"
refused 2 "stubbench compare: --metric: unknown metric 'ipc'" compare --metric=ipc a b
refused 2 "stubbench compare: needs two saved runs" compare "$data/run_a.json"
refused -x 2 "stubbench compare: cannot compare: A is a run of 'stubbench', B one of 'stubbench kernel': different kinds of run" \
    compare --metric=cycles "$data/run_a.json" "$data/run_kernel.json"
checks_done compare_cli

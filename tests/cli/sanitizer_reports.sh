#!/bin/sh
# sanitizer_reports: the sanitizer build's last test (a ctest fixture's
# cleanup, cmake/sanitize.cmake): fails printing every report the
# sanitizers wrote to DIR while the other tests ran, whatever their status.
# usage: sanitizer_reports.sh DIR
set -u
n=0
for f in "$1"/*; do
    [ -f "$f" ] || continue
    n=$((n + 1))
    echo "== $f"
    cat "$f"
done
echo "$n sanitizer reports"
[ $n -eq 0 ]

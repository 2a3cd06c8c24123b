#!/bin/sh
# kernel_no_caps: `stubbench kernel` run without capabilities (as nobody,
# every capability dropped) exits 3 with one line naming the ones it
# needs, for the built-in shapes and for --shape=htab. Needs root to drop
# to nobody with setpriv (util-linux); SKIP (77) otherwise.
# usage: kernel_no_caps.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then echo 'SKIP: needs root and setpriv'; exit 77; fi
for shape in "" --shape=htab; do
    out=$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all \
        "$sb" kernel $shape --samples=1 --batch=1 2>&1)
    rc=$?
    if [ $rc -eq 3 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
        printf '%s\n' "$out" | grep -q 'no CAP_BPF or CAP_SYS_ADMIN'; then pass
    else no "kernel $shape as nobody: status $rc (want 3), output: $out"; fi
done
checks_done kernel_no_caps

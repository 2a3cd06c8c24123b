#!/bin/sh
# flavour_host_calls: --flavour=seed001,host runs the seed's programs in
# both flavours, the host's returning through the thunk replica --thunk
# forces: each variant's counter counts exactly the calls made (--calls).
# usage: flavour_host_calls.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/check.sh"
out=$("$sb" --flavour=seed001,host --thunk=srso_alias_return_thunk --calls=7 2>&1)
ok test $? -eq 0
for v in baseline host-baseline private host-private hybrid host-hybrid; do
    if printf '%s\n' "$out" | grep -q "^$v  *iterations=7 counter+=7$"; then pass
    else no "$v did not count 7 calls: $out"; fi
done
checks_done flavour_host_calls

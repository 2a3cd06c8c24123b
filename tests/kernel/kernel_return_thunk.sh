#!/bin/sh
# kernel_return_thunk.sh STUBBENCH (runs `stubbench kernel`): the JSON names the thunk the
# JIT's returns reach (resolved through kallsyms, or inferred from sysfs and
# saying so), and the thunk replicas match the kernel's own code (or one
# line says why they could not be read), and the CI scope adds what is known
# of that thunk. SKIP (77) without BPF.
. "$(dirname "$0")/../common/kernel_skip.sh"
out=$(mktemp) err=$(mktemp)
"$1" kernel --format=json --samples=64 --batch=8 >"$out" 2>"$err"
rc=$?
if bpf_unavailable $rc; then rm -f "$out" "$err"; exit 77; fi
ok=1
[ $rc -eq 0 ] || { echo "exit status $rc"; ok=0; }
line=$(grep '^thunk replicas' "$err")
echo "$line"
[ -n "$line" ] || { echo "no thunk replicas line"; ok=0; }
case "$line" in *DIFFERS*) echo "a thunk replica differs from the kernel's code"; ok=0 ;; esac
python3 - "$out" <<'PY' || ok=0
import json, sys
d = json.load(open(sys.argv[1]))
t, m = d["return_thunk"], d["mitigations"]
print(t)
names = ["ret", "its_return_thunk", "srso_return_thunk", "srso_alias_return_thunk",
         "retbleed_return_thunk", "call_depth_return_thunk", "__x86_return_thunk", "unknown"]
assert t["name"] in names, t
assert "kallsyms" in t["how"] or "inferred" in t["how"], t
assert sorted(m) == ["indirect_target_selection", "retbleed", "spec_rstack_overflow", "spectre_v2"], m
# The CI scope names what is known of the kernel's thunk, and only of it.
note = "srso_return_thunk can change state over seconds" in (d["ci_scope"] or "")
assert note == (t["name"] == "srso_return_thunk"), (t["name"], d["ci_scope"])
PY
# --thunk: the twins (placed ones included) run through another replica.
"$1" kernel --thunk=srso_alias_return_thunk --samples=64 --batch=8 --loads=2 --table >"$out" 2>"$err" || { echo "--thunk run failed"; cat "$err"; ok=0; }
grep '^twins:' "$out"
grep -q '^twins: returns reach the replica of srso_alias_return_thunk, chosen with --thunk' "$out" || ok=0
rm -f "$out" "$err"
[ $ok -eq 1 ]

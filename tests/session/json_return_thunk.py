#!/usr/bin/env python3
"""json_return_thunk: a sweep's --format=json names the return thunk this
kernel's JIT returns through (one of the known thunks, or plain ret, or
unknown) and how it was found, and carries the four sysfs mitigation lines
it was told from.

usage: json_return_thunk.py STUBBENCH"""
import json
import subprocess
import sys

THUNKS = ("unknown", "ret", "its_return_thunk", "srso_return_thunk", "srso_alias_return_thunk",
          "retbleed_return_thunk", "call_depth_return_thunk", "__x86_return_thunk")
MITIGATIONS = ["indirect_target_selection", "retbleed", "spec_rstack_overflow", "spectre_v2"]

p = subprocess.run([sys.argv[1], "--samples=2", "--batch=8", "--variant=baseline", "--format=json"],
                   capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f"FAIL: exit {p.returncode}: {p.stderr}")
d = json.loads(p.stdout)
t, m = d["return_thunk"], d["mitigations"]
print(t, sorted(m))
fails = [what for ok, what in (
    (t["name"] in THUNKS, f"return thunk {t['name']!r} is none of {THUNKS}"),
    (bool(t["how"]), "no word of how the thunk was found"),
    (sorted(m) == MITIGATIONS, f"mitigations {sorted(m)}, not {MITIGATIONS}"),
) if not ok]
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)

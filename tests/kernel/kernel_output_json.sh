#!/bin/sh
# kernel_output_json: `stubbench kernel --format=json` of a short real run
# (batches 8 and 64, 2 loads): one document with every arm of both shapes
# once per batch (the kernel's, the twin's and the placed twin's of
# baseline, private and hybrid: 36 results), the 24 programs loaded, the
# JIT check and the side-by-side lines, the 12 verdicts (each a verdict or
# not resolved), the CI scope of this one run, 8 processes, and the kernel
# stack's page offset with the placed twins' at it (or 8 bytes off).
# SKIP (77) where BPF cannot run here.
# usage: kernel_output_json.sh STUBBENCH
set -u
sb=$1
. "$(dirname "$0")/../common/kernel_skip.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$sb" kernel --format=json --samples=64 --batch=8,64 --loads=2 >"$out" 2>/dev/null
rc=$?
bpf_unavailable $rc && exit 77
[ $rc -eq 0 ] || { echo "FAIL: stubbench kernel exited $rc"; exit 1; }
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fails = []
def check(cond, what):
    if not cond:
        fails.append(what)

names = [r["variant"] for r in d["results"]]
want = [p + "-" + s + x for s in ("per-run", "in-loop") for p in ("baseline", "private", "hybrid")
        for x in ("", "-twin", "-twin@loads")]
check(len(names) == 36, f"{len(names)} results, not 36")
check(not [w for w in want if names.count(w) != 2], f"not once per batch: {[w for w in want if names.count(w) != 2]}")
check(d["config"]["batches"] == [8, 64] and d["config"]["processes"] == 8, f"config {d['config']}")
check("this one run" in (d["ci_scope"] or ""), f"ci_scope {d['ci_scope']!r}")
k = d["kernel_run"]
check(bool(k["jit_flavour"]), "no jit_flavour")
check(any("same as its twin" in x for x in k["jit_check"]), f"jit_check {k['jit_check']}")
check(len(k["programs"]) == 24 and all(p["id"] > 0 for p in k["programs"]), f"programs {k['programs']}")
check(any(x.startswith("private ") for x in k["side_by_side"]), f"side_by_side {k['side_by_side']}")
v = k["verdicts"]
check(len(v) == 12, f"{len(v)} verdicts, not 12")
for x in v:
    absolute = x["absolute_verdict"]
    check(x["verdict"] in ("agree", "differ", "inconclusive", None) and
          x["variant"] in ("baseline", "private", "hybrid") and
          ((absolute and absolute["verdict"] in ("agree", "differ", "inconclusive")) or x["kernel_resolved"] is False),
          f"verdict {x}")
check(any(x["kernel"] and x["twin"] for x in v), "no verdict with both figures")
off = k.get("kernel_stack_page_offset", "absent")
check(off is None or (isinstance(off, int) and 0 <= off < 4096), f"kernel_stack_page_offset {off}")
check((k["kernel_stack_probe"] or "").startswith("kernel stack ("), f"kernel_stack_probe {k['kernel_stack_probe']!r}")
placed = k["placed_twin_stack_page_offset"]
check(len(placed) == 2 and all(x is None or (off - x) % 4096 in (0, 8) for x in placed.values()),
      f"placed_twin_stack_page_offset {placed} against {off}")
for f in fails:
    print("FAIL:", f)
print(f"kernel_output_json: {len(fails)} failed")
sys.exit(1 if fails else 0)
PY

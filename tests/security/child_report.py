#!/usr/bin/env python3
"""child_report: the parent treats what a contained child writes on its pipe
as hostile input (src/harness/processes.c; docs/security-model.md, "The
child's report"). The test hook STUBBENCH_TEST_CHILD_REPORT=KIND:FILE makes a
contained child of that kind (sizing: the block sizing's; segments: a
measuring one's) send FILE's bytes in place of its report, after its
containment, as code that took over the child could. For each crafted report
`diff` (whose twins run contained) must end within its timeout with status 1
or 2 and at most a few stderr lines, none over 300 columns and none holding a
control byte; the named checks must be the ones that refuse it. Crafted:
unterminated and escape-laden messages, counts past what a segment holds,
blocks past their rounds or in states that do not exist, NaN samples, a
sizing round longer than the child lived, a zero round, truncated reports, and
seeded random bytes.

usage: child_report.py STUBBENCH DATA_DIR
"""
import os
import random
import struct
import subprocess
import sys
import tempfile

sb, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
jit = os.path.join(data, "jit_v6_18_no_private_stack")
passes = fails = 0


def check(name, ok, detail=""):
    global passes, fails
    if ok:
        passes += 1
    else:
        fails += 1
        print(f"FAIL: {name}: {detail}")


tmp = tempfile.mkdtemp()
os.chmod(tmp, 0o1777)
new = os.path.join(tmp, "new.bin")
with open(os.path.join(jit, "run_baseline.prog_baseline.bin"), "rb") as f:
    img = bytearray(f.read())
img[0x32:0x35] = b"\x48\x89\xdf"  # the JIT's own bytes (tests/security/contained_code.sh's control)
with open(new, "wb") as f:
    f.write(img)
old = f"{jit}/run_baseline.prog_baseline.bin,{jit}/run_baseline.sub_small.bin"
newarg = f"{new},{jit}/run_baseline.sub_small.bin"


def run(kind, payload):
    path = os.path.join(tmp, "report.bin")
    with open(path, "wb") as f:
        f.write(payload)
    os.chmod(path, 0o644)  # read by the child before it leaves root
    env = dict(os.environ, STUBBENCH_TEST_SKIP_CODE_CHECK="1", STUBBENCH_TEST_CHILD_REPORT=f"{kind}:{path}")
    try:
        p = subprocess.run([sb, "diff", old, newarg, "--time=2", "--batch=8", "--no-parts", "--measure", "--past-runs=none",
                            "--quiet-levels=none"], env=env, cwd=tmp, capture_output=True, timeout=60)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    return p.returncode, p.stderr.decode("latin-1")


def refused(name, kind, payload, want=None, statuses=(1, 2)):
    rc, err = run(kind, payload)
    lines = [l for l in err.splitlines() if l.strip()]
    ok = rc in statuses and len(lines) <= 4 and all(len(l) <= 300 for l in lines) and \
        not any(ord(c) < 0x20 and c != "\t" or ord(c) > 0x7e for c in err.replace("\n", "").replace("\r", ""))
    if want is not None:
        ok = ok and want in err
    check(name, ok, f"status {rc} (want one of {statuses}), stderr: {err[:600]!r}")
    return rc, err




def seg_header(rc=0, capped=0, n_rounds=0, n_blocks=0, err=b""):
    return struct.pack("=iiQQ", rc, capped, n_rounds, n_blocks) + err[:256].ljust(256, b"\0")


def block(first=0, n=4, cpt=1.0, canary=4.0, window=3.0, csw=0, state=0, process=0, sibling=1, tsc=0):
    return struct.pack("=QQdddqi4xQQi4xQ", first, n, cpt, canary, window, csw, 0, state, process, sibling, tsc)


def sizing_header(rc=0, err=b""):
    return struct.pack("=i", rc) + err[:256].ljust(256, b"\0")


# Control: a real report (no hook) measures.
env = dict(os.environ, STUBBENCH_TEST_SKIP_CODE_CHECK="1")
p = subprocess.run([sb, "diff", old, newarg, "--time=2", "--batch=8", "--no-parts", "--measure", "--past-runs=none",
                    "--quiet-levels=none"], env=env, cwd=tmp, capture_output=True, timeout=60)
check("control", p.returncode == 0, f"status {p.returncode}: {p.stderr.decode('latin-1')[:400]}")

# The block sizing's report.
escape = b"\x1b[31mred\x1b]0;title\x07" + b"A" * 300
rc, err = refused("sizing: unterminated message with escapes", "sizing", sizing_header(1, escape))
check("sizing: the message's bytes, escaped", "?[31mred" in err, err[:300])
refused("sizing: a round longer than the child lived", "sizing", sizing_header() + struct.pack("=Q", 1 << 62),
        "longer than the process lived", (2,))
refused("sizing: a round of no time", "sizing", sizing_header() + struct.pack("=Q", 0),
        "longer than the process lived", (2,))
refused("sizing: truncated", "sizing", sizing_header()[:100])
refused("sizing: nothing", "sizing", b"")

# A measuring child's report.
rc, err = refused("segments: unterminated message with escapes", "segments", seg_header(rc=-1) [:24] + escape[:256])
check("segments: the message's bytes, escaped", "?[31mred" in err, err[:300])
refused("segments: rounds past the segment", "segments", seg_header(n_rounds=1 << 62),
        "more rounds than its segment holds", (2,))
refused("segments: more blocks than rounds", "segments", seg_header(n_rounds=4, n_blocks=5),
        "more blocks than rounds", (2,))
refused("segments: a NaN sample", "segments", seg_header(n_rounds=1, n_blocks=1) + struct.pack("=d", float("nan")) * 64,
        "a sample that is not a time", (2,))
# Blocks: a state past the part's, then blocks past their rounds. The arms'
# count is the run's: every count from 2 to 5 is tried (a diff has 3: the stub, OLD and NEW), and one must reach
# the block check; the others end refused or short, never otherwise.
for what, blk, want in (("a state that does not exist", block(state=10 ** 9), "state or process"),
                        ("blocks past their rounds", block(first=0, n=400), "do not cover its rounds"),
                        ("a NaN clock", block(cpt=float("nan")), "clock or canaries")):
    hits = 0
    for k in range(2, 6):
        rc, err = refused(f"segments: {what} ({k} arms)", "segments",
                          seg_header(n_rounds=4, n_blocks=1) + struct.pack("=d", 1000.0) * (4 * k) + blk)
        hits += want in err
        if want in err:
            print(f"{what}: reached at {k} arms")
    check(f"segments: {what}: refused by its check", hits >= 1, "no arm count reached it")

rng = random.Random(20261207)
for i in range(6):
    kind = "sizing" if i % 2 else "segments"
    payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
    refused(f"random bytes {i} ({kind})", kind, payload)

print(f"{passes} passed, {fails} failed")
sys.exit(1 if fails else 0)

#!/usr/bin/env python3
"""kernel_no_private_stack: `stubbench kernel`, `--shape=htab` and `--obj`
on a kernel that gives no private stack, made on any kernel with the test
hook STUBBENCH_TEST_NO_PRIV_STACK=1 (every JIT check sees none). Each
carries on: exit status 6 (measured in part), one line on stderr naming
what has no private stack and what the probe established (never a version
or an architecture guessed as the cause), a summary of at most 10 lines
within 100 columns with a "not measured:" line and the baseline's
figures and verdicts, and a valid JSON document that says the same.
Then a kernel that gives perf_event programs a private stack and raw_tp
programs none (the hook =raw_tp, as Linux 6.18.44-fc-v1252 does): the
kernel run loads its programs as perf_event programs, run by page faults,
and measures all of them (exit 0); and --driver=perf_event on this kernel.

The kernel is asked first (`stubbench kernel --probe`, no hook): the hook
only hides private stacks the kernel gave, so where the kernel itself gave
a program none, the tool must say so as the kernel's own choice, never as
the hook's. Last, the real kernel without the hook: the kernel run's
driver, what it measured and its exit status are what the probe's facts
call for. SKIP (77) where BPF cannot run here (statuses 3-5).

usage: kernel_no_private_stack.py STUBBENCH USER_PROG_BPF_O"""
import json
import os
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

sb, obj = sys.argv[1], sys.argv[2]
env = dict(os.environ, STUBBENCH_TEST_NO_PRIV_STACK="1", STUBBENCH_TEST_DISTURB_NONE="1")


def probe():
    """The kernel's facts, without the hook: {type: gets a private stack}."""
    p = subprocess.run([sb, "kernel", "--probe", "--format=json"], capture_output=True, text=True,
                       env={k: v for k, v in os.environ.items() if k != "STUBBENCH_TEST_NO_PRIV_STACK"})
    if p.returncode != 0:
        return None
    gets = {}
    for q in json.loads(p.stdout)["programs"]:
        if q["shape"] != "tail":
            gets[q["type"]] = gets.get(q["type"], True) and q["outcome"] == "private"
    return gets


def run(*args):
    return subprocess.run([sb, "kernel", "--cpu=1", "--time=3", *args], capture_output=True, text=True, env=env)


def reason_line(what, p):
    lines = [x for x in p.stderr.splitlines() if x.startswith("stubbench kernel: no private stack: ")]
    check(len(lines) == 1, f"{what}: want one 'no private stack' line on stderr: {p.stderr}")
    for x in lines:
        check("STUBBENCH_TEST_NO_PRIV_STACK" in x and "has an rbp frame in its JIT" in x,
              f"{what}: the reason line {x!r}")
        check("older than" not in x and "not x86" not in x, f"{what}: a guess given as the reason: {x!r}")


def summary(what, p, want):
    lines = p.stdout.splitlines()
    check(p.returncode == 6, f"{what}: exit {p.returncode}, want 6: {p.stderr}")
    check(0 < len(lines) <= 10 and all(len(x) <= 100 for x in lines), f"{what}: summary {lines}")
    check(len(lines) > 1 and lines[1].startswith("not measured: ") and "no private stack" in lines[1],
          f"{what}: no 'not measured' line: {lines}")
    for w in want:
        check(any(w in x for x in lines), f"{what}: no line with {w!r}: {lines}")


p = run("--batch=64", "--format=json")
if 3 <= p.returncode <= 5:
    print("SKIP: stubbench kernel exited", p.returncode, p.stderr.strip())
    sys.exit(77)
facts = probe()
check(facts is not None and set(facts) == {"raw_tp", "tracepoint", "kprobe", "perf_event"},
      f"kernel --probe: {facts}")
facts = facts or {}
print("the kernel's facts (kernel --probe): private stack for",
      ", ".join(t for t, g in facts.items() if g) or "no program type")
# The built-in programs: baseline verdicts, the private twins alone.
reason_line("kernel", p)
check(p.returncode == 6, f"kernel json: exit {p.returncode}")
doc = json.loads(p.stdout) if p.stdout.strip() else {}
ps = doc.get("kernel_run", {}).get("private_stack", {})
check(ps.get("given") is False and sorted(ps.get("without", [])) ==
      ["loop_hybrid", "loop_private", "run_hybrid", "run_private"], f"private_stack {ps}")
check(isinstance(ps.get("probe"), dict) and len(ps["probe"].get("programs", [])) == 20, f"probe {ps.get('probe')}")
check("no private stack" in doc.get("not_measured", ""), f"not_measured {doc.get('not_measured')}")
sides = {(r.get("side"), r["variant"]) for r in doc.get("results", [])}
check(("kernel", "baseline-per-run") in sides and ("kernel", "baseline-in-loop") in sides, f"kernel cells {sides}")
check(not any(s == "kernel" and not v.startswith("baseline") for s, v in sides), f"private kernel cells {sides}")
check(("twin", "private-per-run-twin") in sides and ("twin", "hybrid-in-loop-twin") in sides, f"twins {sides}")
verdicts = doc.get("kernel_run", {}).get("verdicts", [])
# A verdict on every baseline figure the kernel resolved (kernel_verdict.h).
check(verdicts and all(v["variant"] == "baseline" and (v.get("absolute_verdict") or v.get("kernel_resolved") is False)
                       for v in verdicts),
      f"baseline verdicts {verdicts}")
# The baseline's figure, or where a spread swamps it at this batch, that
# said with where the spread comes from (docs/kernel-verdict.md).
p = run("--batch=64")
summary("kernel", p, ["twin alone: private "])
# The verdicts' counts: a line per kind, or one line for both where a
# "not reproduced" line takes the room (kernel_verdict.c).
check(any(x.startswith(("absolute, all batches: ", "all batches, absolute/added: ")) for x in p.stdout.splitlines()),
      f"kernel: no line counting the verdicts: {p.stdout}")
check(any("base " in x or "not resolved at batch 64: " in x for x in p.stdout.splitlines()),
      f"kernel: neither the base nor 'not resolved': {p.stdout}")

# --shape=htab: the baseline and the syscall path.
p = run("--shape=htab", "--batch=16", "--format=json")
reason_line("htab", p)
check(p.returncode == 6, f"htab json: exit {p.returncode}")
doc = json.loads(p.stdout) if p.stdout.strip() else {}
codegens = {r.get("codegen") or r["variant"] for r in doc.get("results", [])}
check(any("baseline" in c for c in codegens) and not any(c.startswith("private") for c in codegens),
      f"htab cells {codegens}")
summary("htab", run("--shape=htab", "--batch=16"), ["baseline in the kernel at batch 16: "])

# --obj: a user's program whose function has the stack for a private stack.
p = run(f"--obj={obj}", "--prog=no_frame,with_frame", "--batch=1,64", "--loads=2", "--format=json")
reason_line("--obj", p)
check(p.returncode == 6, f"--obj json: exit {p.returncode}")
doc = json.loads(p.stdout) if p.stdout.strip() else {}
funcs = {(q["name"], f["name"]): f for q in doc.get("user_object", {}).get("programs", []) for f in q["functions"]}
check(funcs.get(("with_frame", "sum_big"), {}).get("private_stack") is False, f"sum_big {funcs}")
check(funcs.get(("no_frame", "sum_small"), {}).get("rbp_stack_bytes") == 8, f"sum_small {funcs}")
check(funcs.get(("no_frame", "sum_small"), {}).get("stack_bytes") == 8 and "below the 64 bytes" in
      funcs.get(("no_frame", "sum_small"), {}).get("stack", ""), f"sum_small's stack {funcs}")
# The hook hides a private stack the kernel gave (raw_tp); where the kernel
# itself gave none, the words are the kernel's, not the hook's.
big = funcs.get(("with_frame", "sum_big"), {}).get("stack", "")
if facts.get("raw_tp"):
    check("the test hook's" in big, f"sum_big's stack (the kernel gives raw_tp one): {funcs}")
else:
    check("the test hook's" not in big and "96 bytes of stack (rbp frame)" in big and "the kernel's choice" in big,
          f"sum_big's stack (the kernel itself gives raw_tp none): {funcs}")
check("no private stack" in doc.get("not_measured", ""), f"--obj not_measured {doc.get('not_measured')}")
summary("--obj", run(f"--obj={obj}", "--prog=no_frame,with_frame", "--batch=1,64", "--loads=2"),
        ["with_frame at batch 64", "  kernel"])

# Only raw_tp programs without: the perf_event driver, every arm measured.
env_rt = dict(env, STUBBENCH_TEST_NO_PRIV_STACK="raw_tp")
# 4 loads of 3 batch sizes in one process: 84 programs, each with an event of its own.
p = subprocess.run([sb, "kernel", "--cpu=1", "--time=4", "--batch=8,64,512", "--loads=4", "--processes=1",
                    "--format=json"], capture_output=True, text=True, env=env_rt)
if p.returncode == 5:
    print("perf_event driver not available here:", p.stderr.strip().splitlines()[-1:])
else:
    check(p.returncode == 0, f"raw_tp without: exit {p.returncode}: {p.stderr[-600:]}")
    check("loading the programs as perf_event programs instead" in p.stderr, f"no switch said: {p.stderr[-600:]}")
    doc = json.loads(p.stdout) if p.stdout.strip() else {}
    k = doc.get("kernel_run", {})
    check(k.get("driver") == "perf_event" and "perf_event" in doc.get("kernel_driver", ""),
          f"driver {k.get('driver')} {doc.get('kernel_driver')}")
    kcells = sorted(r["variant"] for r in doc.get("results", []) if r.get("side") == "kernel")
    check(kcells == sorted(v + "-" + s for v in ("baseline", "private", "hybrid") for s in ("per-run", "in-loop")
                           for b in (8, 64, 512)),
          f"perf_event kernel cells {kcells}")
    check(k.get("private_stack", {}).get("given") is True and "not_measured" not in doc,
          f"perf_event: private stack {k.get('private_stack', {}).get('given')}, {doc.get('not_measured')}")
    check(any("same as its twin" in x and "prog_private" in x for x in k.get("jit_check", [])),
          f"perf_event JIT vs twins: {k.get('jit_check')}")
    with tempfile.NamedTemporaryFile("w", suffix=".json") as t:
        t.write(p.stdout)
        t.flush()
        q = subprocess.run([sb, "report", t.name], capture_output=True, text=True)
    lines = q.stdout.splitlines()
    check(q.returncode == 0 and len(lines) <= 10 and all(len(x) <= 100 for x in lines) and
          len(lines) > 1 and lines[1].startswith("kernel: perf_event programs, run by page faults"),
          f"perf_event summary {q.returncode} {lines} {q.stderr}")
# The real kernel, no hook: the run does what the probe's facts call for.
env_real = {k: v for k, v in env.items() if k != "STUBBENCH_TEST_NO_PRIV_STACK"}
p = subprocess.run([sb, "kernel", "--cpu=1", "--time=3", "--batch=64", "--loads=2", "--format=json"],
                   capture_output=True, text=True, env=env_real)
doc = json.loads(p.stdout) if p.stdout.strip() else {}
k = doc.get("kernel_run", {})
if facts.get("raw_tp"):
    check(p.returncode == 0 and k.get("driver") == "raw_tp" and "not_measured" not in doc,
          f"real kernel (raw_tp gets one): exit {p.returncode}, driver {k.get('driver')}: {p.stderr[-400:]}")
elif facts.get("perf_event"):
    check(p.returncode == 0 and k.get("driver") == "perf_event" and "not_measured" not in doc and
          "loading the programs as perf_event programs instead" in p.stderr,
          f"real kernel (perf_event alone gets one): exit {p.returncode}, driver {k.get('driver')}: "
          f"{p.stderr[-400:]}")
else:
    check(p.returncode == 6 and "no private stack" in doc.get("not_measured", ""),
          f"real kernel (no type gets one): exit {p.returncode}: {p.stderr[-400:]}")
if p.returncode == 0:
    kinds = {r["variant"] for r in doc.get("results", []) if r.get("side") == "kernel"}
    check({"private-per-run", "private-in-loop"} <= kinds, f"real kernel: private kernel cells {kinds}")

# The real kernel: --shape=htab and --obj drive their programs with the type
# the facts give a private stack (raw_tp, else perf_event: the run says so in
# one line), and give kernel figures, exit 0; with none, measured in part.
def real(*args):
    return subprocess.run([sb, "kernel", "--cpu=1", "--time=3", *args], capture_output=True, text=True,
                          env=env_real)


gets_one = facts.get("raw_tp") or facts.get("perf_event")
switched = not facts.get("raw_tp") and facts.get("perf_event")
p = real("--shape=htab", "--batch=16", "--format=json")
doc = json.loads(p.stdout) if p.stdout.strip() else {}
codegens = {r.get("codegen") for r in doc.get("results", [])}
if gets_one:
    check(p.returncode == 0 and "private" in codegens and "baseline" in codegens,
          f"real htab: exit {p.returncode}, cells {codegens}: {p.stderr[-400:]}")
    said = "loading the raw_tp programs as perf_event programs instead" in p.stderr
    check(said == bool(switched) and ("perf_event" in doc.get("kernel_driver", "")) == bool(switched),
          f"real htab: driver said {said}, kernel_driver {doc.get('kernel_driver')!r}")
else:
    check(p.returncode == 6, f"real htab (no type gets one): exit {p.returncode}")
p = real(f"--obj={obj}", "--prog=no_frame,with_frame", "--batch=1,64", "--loads=2", "--format=json")
doc = json.loads(p.stdout) if p.stdout.strip() else {}
funcs = {(q["name"], f["name"]): f for q in doc.get("user_object", {}).get("programs", []) for f in q["functions"]}
big = funcs.get(("with_frame", "sum_big"), {})
if gets_one:
    check(p.returncode == 0 and big.get("private_stack") is True and "not_measured" not in doc,
          f"real --obj: exit {p.returncode}, sum_big {big}: {p.stderr[-400:]}")
    said = "loading --prog's programs as perf_event programs instead" in p.stderr
    check(said == bool(switched), f"real --obj: the switch said {said}: {p.stderr[-400:]}")
else:
    check(p.returncode == 6 and big.get("private_stack") is False, f"real --obj (none): exit {p.returncode}")
# --driver=perf_event is honoured by --obj (its programs run as perf_event
# programs), and refused with --probe.
if facts.get("perf_event"):
    p = real(f"--obj={obj}", "--prog=no_frame,with_frame", "--batch=64", "--loads=1", "--driver=perf_event",
             "--format=json")
    doc = json.loads(p.stdout) if p.stdout.strip() else {}
    funcs = {(q["name"], f["name"]): f for q in doc.get("user_object", {}).get("programs", [])
             for f in q["functions"]}
    check(p.returncode == 0 and "perf_event" in doc.get("kernel_driver", "") and
          funcs.get(("with_frame", "sum_big"), {}).get("private_stack") is True,
          f"--obj --driver=perf_event: exit {p.returncode}, driver {doc.get('kernel_driver')!r}: {p.stderr[-300:]}")
p = subprocess.run([sb, "kernel", "--probe", "--driver=perf_event"], capture_output=True, text=True)
check(p.returncode == 2 and p.stderr.count("\n") == 1 and "--driver: not with --probe" in p.stderr,
      f"--probe --driver: {p.returncode} {p.stderr!r}")

p = subprocess.run([sb, "kernel", "--driver=nope"], capture_output=True, text=True)
check(p.returncode == 2 and "--driver: unknown driver 'nope'" in p.stderr, f"--driver=nope: {p.returncode} {p.stderr}")

checks_done("kernel_no_private_stack")

#!/usr/bin/env python3
"""kernel_obj: `stubbench kernel --obj=FILE --prog=NAME,...` on a BPF
object built from tests/data/user_prog.bpf.c. Bad input (a file libbpf
cannot open, an unknown program) gives one line and status 2 anywhere;
where BPF runs (else SKIP, 77): every program at every batch, batch_iters
set per batch, the private stack found in the function that has one, the
kernel's own A/B (with_frame as a syscall program), the auto-twins and the
private stack's cost at identical layout, the summary, the cost per run,
and --dump-jit.

usage: kernel_obj.py STUBBENCH USER_PROG_BPF_O"""
import json
import os
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done, failures  # noqa: E402

sb, obj = sys.argv[1], sys.argv[2]


def run(*args):
    return subprocess.run([sb, "kernel", *args], capture_output=True, text=True)


def one_line_usage(p, want, what):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 2 and len(lines) == 1 and want in p.stderr,
          f"{what}: exit {p.returncode}, stderr {p.stderr!r}, want one line with {want!r}")


one_line_usage(run(f"--obj={obj}", "--prog=with_frame,nope"), f"{obj} has no program 'nope' (it has: ", "unknown program")
one_line_usage(run("--obj=/nonexistent/x.bpf.o", "--prog=a"), "/nonexistent/x.bpf.o: No such file", "missing object")
src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "user_prog.bpf.c")
one_line_usage(run(f"--obj={src}", "--prog=a"), "not a BPF object libbpf can open", "not an object")
one_line_usage(run("--prog=with_frame"), "--prog needs --obj=FILE", "--prog alone")
one_line_usage(run(f"--obj={obj}"), "--obj needs --prog=NAME", "--obj alone")

with tempfile.TemporaryDirectory() as d:
    p = run(f"--obj={obj}", "--prog=no_frame,with_frame", "--samples=5", "--batch=1,64", "--format=json",
            f"--dump-jit={d}/dump", "--loads=3")
    if 3 <= p.returncode <= 6:
        print("SKIP: stubbench kernel exited", p.returncode, p.stderr.strip())
        if failures:
            checks_done("kernel_obj")
        sys.exit(77)
    # Status 1 with cells without a figure (all blocks disturbed on a busy
    # machine): the document is still whole, and those cells are null.
    empty = p.returncode == 1 and "have no usable samples" in p.stderr
    check(p.returncode == 0 or empty, f"run exited {p.returncode}: {p.stderr}")
    doc = json.loads(p.stdout) if p.returncode == 0 or empty else {"results": [], "user_object": {"programs": []}}
    cells = [(r["variant"], r["batch"]) for r in doc["results"]]
    # --loads: the object loaded three times per batch size, a block running one:
    # the kernel's cells and the twins placed like the loads ran in at most three
    # states, and in one at least where they kept samples.
    check(f"loads: {obj} 3 times per batch size" in p.stderr, f"no line of the loads: {p.stderr}")
    for r in doc["results"]:
        if r.get("side") in ("kernel", "placed-twin"):
            check(r["states"] <= 3 and (r["samples"] == 0 or r["states"] >= 1),
                  f"{r['variant']}@{r['batch']}: {r['states']} states over 3 loads, {r['samples']} samples")
    # The kernel's programs, and beside them their auto-twins (docs/auto-twins.md)
    # where this build has them.
    kernel = [(r["variant"], r["batch"]) for r in doc["results"] if r.get("side") == "kernel"]
    # The kernel's own A/B: with_frame (a private stack) loaded again as a
    # syscall program, where this kernel loads it so (else one line says why).
    ab = any(v == "with_frame@syscall" for v, _ in kernel)
    check(ab or "kernel A/B: none: " in p.stderr, f"no with_frame@syscall cells and no reason: {p.stderr}")
    # Its JIT there is sum_big as the JIT emits it without a private stack:
    # what sum_big's de-privatized twin must equal.
    check(not ab or "kernel A/B: with_frame.sum_big de-privatized equals its JIT as a syscall program" in p.stderr,
          f"sum_big's de-privatized twin against its syscall JIT: {p.stderr}")
    check(sorted(kernel) == sorted((v, b) for v in ("no_frame", "with_frame") + (("with_frame@syscall",) if ab else ())
                                   for b in (1, 64)), f"cells {cells}")
    twins = doc.get("user_object", {}).get("auto_twins")
    if twins is not None:
        check([t["state"] for t in twins] == ["measured", "measured"], f"auto_twins {twins}")
        placed = [(r["variant"], r["batch"]) for r in doc["results"] if r.get("side") == "placed-twin"]
        check(sorted(placed) == sorted((v + "-twin@loads", b) for v in ("no_frame", "with_frame") for b in (1, 64)),
              f"cells {cells}")
        # The private stack's cost: with_frame's twin (sum_big has one)
        # against its de-privatized self, at identical layout; no_frame has
        # no private stack, so no such pair.
        pair = {(r["variant"], r["batch"]): r for r in doc["results"]
                if r.get("side") == "twin" and r["variant"].startswith("with_frame-twin")}
        check(sorted(pair) == sorted((v, b) for v in ("with_frame-twin", "with_frame-twin:deprivatized")
                                     for b in (1, 64)), f"private-stack cells {sorted(pair)}")
        for b in (1, 64):
            t = pair.get(("with_frame-twin", b), {})
            # The codegen cost against the padded twin (the de-privatized
            # code at the twin's layout), the layout cost beside it.
            check(t.get("family") == "user-obj" and t.get("codegen_against") == "with_frame-twin:padded" and
                  isinstance(t.get("layout_cost_cycles"), (int, float)),
                  f"with_frame-twin@{b}: family {t.get('family')}, against {t.get('codegen_against')}, "
                  f"layout {t.get('layout_cost_cycles')}")
        # The private stack's figures per iteration and per run (x the batch):
        # with_frame only, at both batches.
        ps = doc.get("user_object", {}).get("private_stack", [])
        check(sorted((e["prog"], e["batch"]) for e in ps) == [("with_frame", 1), ("with_frame", 64)],
              f"private_stack entries {[(e['prog'], e['batch']) for e in ps]}")
        have = {(r["variant"], r["batch"]) for r in doc["results"] if (r.get("cycles_per_iter") or {}).get("mean") is not None}
        for e in ps:
            for q in ("total", "codegen", "layout", "kernel_ab"):
                it, run = e["per_iteration"].get(q), e["per_run"].get(q)
                # The kernel's A/B has a figure where both of its cells have one.
                both = ("with_frame", e["batch"]) in have and ("with_frame@syscall", e["batch"]) in have
                if it is None or run is None:
                    check(it is None and run is None and (q != "kernel_ab" or not both), f"{e['batch']} {q}: {it} {run}")
                    continue
                check(abs(run["cycles"] - it["cycles"] * e["batch"]) <= 1e-3 * max(1, abs(run["cycles"])),
                      f"{e['batch']} {q}: per run {run['cycles']}, per iteration {it['cycles']}")
        # The private stack part by part (annotate): its own copies of the
        # twin and its de-privatized self, each part NOPed and removed, and
        # the attribution in the document.
        parts = sorted({r["variant"] for r in doc["results"] if r["variant"].startswith("with_frame-parts")})
        check(parts == ["with_frame-parts", "with_frame-parts:del:1", "with_frame-parts:deprivatized",
                        "with_frame-parts:nop:1", "with_frame-parts:nop:all"], f"annotate arms {parts}")
        an = doc.get("annotate", {})
        kinds = [[q["kind"] for q in b["parts"]] for b in an.get("batches", [])]
        check(an.get("variant") == "with_frame-parts" and kinds == [["frame"], ["frame"]],
              f"annotate: {an.get('variant')}, parts per batch {kinds}")
        # The summary of the saved run: per program, the kernel's line, and
        # the private stack's cost where there is one.
        with open(f"{d}/run.json", "w") as out:
            out.write(p.stdout)
        rep = subprocess.run([sb, "report", f"{d}/run.json"], capture_output=True, text=True)
        # The line saying codegen and layout do not add up comes where they do not.
        lines = [x for x in rep.stdout.splitlines() if not x.startswith("    (codegen + layout do not add up")]
        check(rep.returncode == 0 and all(len(x) <= 100 for x in lines), f"report: {rep.returncode} {rep.stderr}")
        # --prog's order: no_frame (the first, the others' reference), then with_frame.
        # "  kernel 27.05 [...]", or where the driver's spread is wider than
        # the bound, "  kernel: not resolved at batch 64: ..."
        want = ["no_frame at batch 64, ", "  kernel", "  private stack: none measured",
                "with_frame at batch 64, ", "  kernel", "  private stack: codegen ", "    placed like the loads: "] + \
               (["    in the kernel (these loads): "] if ab else [])
        check(len(lines) >= 1 + len(want) and all(x.startswith(w) for x, w in zip(lines[1:], want)),
              f"report lines {lines}, want the starts {want}")
        # with_frame's kernel line: its cost against no_frame; or where its
        # figure is wider than the bound (kernel_verdict.h), what spread it
        # is instead of a cost; or where the run kept no usable sample of it
        # (every block disturbed, at --samples=5), n/a and no verdict.
        heads = [i for i, x in enumerate(lines) if x.startswith("with_frame at batch 64, ")]
        kline = lines[heads[0] + 1] if heads and heads[0] + 1 < len(lines) else ""
        check("% vs no_frame)" in kline or kline.startswith("  kernel: not resolved at batch 64: ") or
              (kline.startswith("  kernel n/a; twin ") and kline.endswith(": no verdict")),
              f"with_frame's kernel line {kline!r}")
        check(" x the de-privatized twin's time" in rep.stdout and ", layout " in rep.stdout and
              (" vs itself as a syscall program" in rep.stdout or
               "(these loads): not resolved at batch 64: the drivers' own spread is" in rep.stdout) == ab,
              f"report {rep.stdout}")
    u = doc.get("user_object", {})
    check(u.get("path") == obj and u.get("batch_iters") is True, f"user_object {u.get('path')} {u.get('batch_iters')}")
    check(doc.get("config", {}).get("variants") == "no_frame,with_frame", f"config {doc.get('config')}")
    funcs = {(p["name"], f["name"]): f for p in u.get("programs", []) for f in p["functions"]}
    check(funcs.get(("with_frame", "sum_big"), {}).get("private_stack") is True, "sum_big: no private stack found")
    check(funcs.get(("no_frame", "sum_small"), {}).get("private_stack") is False, "sum_small: a private stack found")
    check(all(f["bytes"] > 0 for f in funcs.values()) and len(funcs) == 4, f"functions {sorted(funcs)}")
    # Each function's stack: its depth, whether it got a private stack, why.
    big, small = funcs.get(("with_frame", "sum_big"), {}), funcs.get(("no_frame", "sum_small"), {})
    check(big.get("stack_bytes") == 96 and big.get("stack", "").startswith(
          "96 bytes of stack (its r9 frame's deepest access), private stack: r9 setup in its JIT"), f"sum_big {big}")
    check(small.get("stack_bytes") == 8 and small.get("stack") == "8 bytes of stack (rbp frame), no private stack: "
          "below the 64 bytes (rounded up to 16) the kernel gives one from", f"sum_small {small}")
    check(funcs.get(("no_frame", "no_frame"), {}).get("stack") == "0 bytes of stack, no private stack: no stack to move",
          f"no_frame {funcs.get(('no_frame', 'no_frame'))}")
    check(all(p["id"] > 0 and p["jit_flavour"] for p in u.get("programs", [])), "program ids or flavour")
    # A cell whose blocks were all disturbed has no number (null): no check.
    per_iter = {(r["variant"], r["batch"]): r["cycles_per_iter"]["mean"] for r in doc["results"]
                if r.get("cycles_per_iter") and r["cycles_per_iter"].get("mean") is not None}
    for e in u.get("cycles_per_run", []):
        if e["mean"] is None or (e["prog"], e["batch"]) not in per_iter:
            check(e["mean"] is None and (e["prog"], e["batch"]) not in per_iter, f"{e}: a number without samples")
            continue
        want = per_iter[(e["prog"], e["batch"])] * e["batch"]
        check(abs(e["mean"] - want) <= 1e-3 * max(abs(want), 1), f"{e['prog']}-{e['batch']}: per run {e['mean']} vs {want}")
    check(len(u.get("cycles_per_run", [])) == 4, "cycles_per_run entries")
    for name in ("with_frame.sum_big", "no_frame.no_frame"):
        check(os.path.getsize(f"{d}/dump/{name}.bin") > 0 and os.path.exists(f"{d}/dump/{name}.lst"), f"dump {name}")
    check("r9" in open(f"{d}/dump/with_frame.sum_big.lst").read(), "sum_big's listing has no r9")

checks_done("kernel_obj")

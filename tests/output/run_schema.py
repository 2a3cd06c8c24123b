#!/usr/bin/env python3
"""run_schema: every measuring command's --format=json document against
share/schema/stubbench-run.schema.json (python3-jsonschema, draft 2020-12).

usage: run_schema.py SCHEMA STUBBENCH FIXTURE [--bpf-obj=FILE | --no-kernel]

  - the schema itself is a valid draft 2020-12 schema;
  - FIXTURE validates: tests/data/kernel_run_zen4.json is `stubbench
    kernel --cpu=1 --format=json --seed=1 --past-runs=none` as recorded on
    an AMD EPYC Zen 4 VM at commit 5e27d74, its results, verdicts and
    programs cut to batches 1 and 4096 and load 1, and its schema_version
    raised from 2 to 4 (version 3 changed footprint's document only,
    version 4 the kernel verdicts' values, which it holds none of but agree);
  - documents that must not validate fail: a NaN or a string where a
    number belongs, a missing required member, another schema_version, a
    footprint result without its footprint object;
  - short runs of stubbench, lab, footprint, annotate and diff (seed 001's
    listings; both where built), kernel, kernel --shape=htab and
    kernel --obj=FILE validate. Where the kernel part cannot run (no
    root or BPF: status 3-6, or --no-kernel) its runs are left out, said
    in one line each, and the recorded run stands for them.
A document is read as strict JSON: NaN and Infinity are not numbers.
No timing is compared with anything.
"""
import copy
import json
import os
import subprocess
import sys

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

try:
    import jsonschema
except ImportError:
    # The Debian package installs for the system's interpreter; the one on
    # PATH may be another (pyenv).
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print("run_schema: no jsonschema module: install python3-jsonschema (bash .ci/install-deps)")
    sys.exit(1)


def reject_constant(name):
    raise ValueError("%s is not a JSON number" % name)


def problems(validator, text):
    """Why text is not a valid document: [] when it is."""
    try:
        doc = json.loads(text, parse_constant=reject_constant)
    except ValueError as e:
        return ["not strict JSON: %s" % e]
    return ["%s: %s" % ("/".join(str(p) for p in e.absolute_path) or "(top)", e.message[:200])
            for e in validator.iter_errors(doc)]


schema_path, exe, fixture = sys.argv[1:4]
opts = sys.argv[4:]
schema = json.load(open(schema_path))
try:
    jsonschema.Draft202012Validator.check_schema(schema)
except jsonschema.SchemaError as e:
    print("run_schema: %s is not a valid schema: %s" % (schema_path, e.message))
    sys.exit(1)
validator = jsonschema.Draft202012Validator(schema)

recorded_text = open(fixture).read()
p = problems(validator, recorded_text)
check(not p, "%s: %s" % (fixture, p[:3]))
recorded = json.loads(recorded_text)


def must_fail(what, doc):
    text = json.dumps(doc)  # writes NaN as NaN, as a broken writer would
    check(problems(validator, text), "a document with %s passed validation" % what)


bad = copy.deepcopy(recorded)
bad["results"][0]["cycles_per_iter"]["mean"] = float("nan")
must_fail("NaN for a mean", bad)
bad = copy.deepcopy(recorded)
bad["results"][1]["delta_ci95_pct"][0] = "1.5"
must_fail("a string in a CI", bad)
bad = copy.deepcopy(recorded)
bad["core_ghz_median"] = "3.7"
must_fail("a string for the core clock", bad)
bad = copy.deepcopy(recorded)
del bad["results"][0]["samples"]
must_fail("a result without samples", bad)
bad = copy.deepcopy(recorded)
del bad["git"]
must_fail("no git", bad)
bad = copy.deepcopy(recorded)
bad["schema_version"] = 3
must_fail("schema_version 3", bad)
bad = copy.deepcopy(recorded)
del bad["kernel_run"]
must_fail("a kernel run without kernel_run", bad)
bad = copy.deepcopy(recorded)
bad["kernel_run"]["verdicts"][0]["twin"]["ci95"] = [1.0]
must_fail("a CI of one number", bad)
bad = copy.deepcopy(recorded)
bad["tool"] = "stubbench footprint"
must_fail("a footprint document without footprint members", bad)
bad = copy.deepcopy(recorded)
bad["tool"] = "stubbench annotate"
must_fail("an annotate document without its annotate member", bad)

env = dict(os.environ, STUBBENCH_TEST_DISTURB_NONE="1")
short = ["--format=json", "--past-runs=none", "--quiet-levels=none"]
runs = [
    ("stubbench", [], ["--samples=8", "--batch=1,64", "--processes=2"]),
    ("stubbench lab", ["lab"], ["--samples=8", "--batch=1,64", "--processes=2"]),
    ("stubbench footprint", ["footprint"], ["--copies=1,3", "--samples=6", "--processes=2"]),
]
# annotate is built with the twins' part (Zydis): measured where it is.
if subprocess.run([exe, "annotate", "--help"], capture_output=True).returncode == 0:
    runs.append(("stubbench annotate", ["annotate"], ["--samples=8", "--processes=2", "--states=4"]))
else:
    print("run_schema: stubbench annotate not built: no annotate document checked")
if "--no-kernel" in opts:
    print("run_schema: stubbench kernel not built: the recorded run stands for its documents")
else:
    runs += [
        ("stubbench kernel", ["kernel"], ["--samples=16", "--batch=1,64", "--loads=2"]),
        ("stubbench kernel", ["kernel", "--shape=htab"], ["--samples=16", "--batch=1,64"]),
    ]
    for o in opts:
        if o.startswith("--bpf-obj="):
            runs.append(("stubbench kernel --obj", ["kernel", "--obj=" + o.split("=", 1)[1],
                                                    "--prog=no_frame,with_frame"], ["--samples=5", "--batch=1,64"]))
# stubbench diff, where it is built (STUBBENCH_DEPRIVATIZE): seed 001's
# listings, baseline -> private.
if subprocess.run([exe, "diff", "--help"], capture_output=True).returncode == 0:
    d = os.path.dirname(os.path.abspath(fixture))
    sides = [",".join(os.path.join(d, "seed001_%s_%s.lst" % (v, f)) for f in ("main", "sub"))
             for v in ("baseline", "private")]
    runs.append(("stubbench diff", ["diff"] + sides, ["--samples=8", "--batch=1,64", "--processes=2"]))
for tool, cmd, args in runs:
    what = " ".join(["stubbench"] + cmd)
    p = subprocess.run([exe] + cmd + args + short, capture_output=True, text=True, env=env)
    if cmd and cmd[0] == "kernel" and 3 <= p.returncode <= 6:
        print("run_schema: %s cannot run here (exit %d): the recorded run stands for it" % (what, p.returncode))
        continue
    check(p.returncode == 0, "%s: exit %d: %s" % (what, p.returncode, p.stderr.strip()[-300:]))
    if p.returncode != 0:
        continue
    pr = problems(validator, p.stdout)
    check(not pr, "%s: %s" % (what, pr[:3]))
    check(json.loads(p.stdout).get("tool") == tool, "%s: tool is not %r" % (what, tool))
    print("run_schema: %s: %s" % (what, "valid" if not pr else "INVALID"))

checks_done("run_schema")

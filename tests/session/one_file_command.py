#!/usr/bin/env python3
"""one_file_command: the throwaway command of tests/fixtures/one_file_command.c
(a descriptor and its options, nothing else) runs as every measuring
command does: exit 0, a summary of at most 10 lines within 100 columns that
leads with its tool's header and names `private`, and with --format=json one
document of its tool whose results hold private at batch 64 against
baseline, valid by the run schema; an unknown option exits 2.

usage: one_file_command.py ONE_FILE_COMMAND SCHEMA
"""
import json
import os
import subprocess
import sys

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

exe, schema = sys.argv[1:3]


p = subprocess.run([exe, "--samples=64"], capture_output=True, text=True, timeout=120)
lines = p.stdout.splitlines()
check(p.returncode == 0, f"status {p.returncode}: {p.stderr[-400:]}")
check(0 < len(lines) <= 10 and all(len(l) <= 100 for l in lines), f"summary form: {lines}")
check(lines and lines[0].startswith("stubbench pair: "), f"first line: {lines[:1]}")
check(any(l.lstrip().startswith("private ") for l in lines), f"no line for private: {lines}")

p = subprocess.run([exe, "--samples=64", "--format=json"], capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"json: status {p.returncode}: {p.stderr[-400:]}")
try:
    doc = json.loads(p.stdout)
except ValueError as e:
    doc = {}
    check(False, f"json: not JSON: {e}")
check(doc.get("tool") == "stubbench pair", f"json: tool {doc.get('tool')!r}")
cells = [r for r in doc.get("results", []) if r.get("variant") == "private" and r.get("batch") == 64]
check(len(cells) >= 1 and cells[0].get("codegen_against") == "baseline", f"json: private@64: {cells[:1]}")
try:
    import jsonschema
    errs = [e.message[:160] for e in jsonschema.Draft202012Validator(json.load(open(schema))).iter_errors(doc)]
    check(not errs, f"json: schema: {errs[:2]}")
except ImportError:
    print("one_file_command: no jsonschema module: the schema is checked by run_schema")

p = subprocess.run([exe, "--tiem=2"], capture_output=True, text=True, timeout=30)
check(p.returncode == 2 and "--tiem=2" in p.stderr, f"bad option: status {p.returncode}, {p.stderr!r}")

checks_done("one_file_command")

#!/usr/bin/env python3
"""test_names: each ctest test is named for the file it runs (docs/testing.md).

Reads every add_test of tests/CMakeLists.txt, tests/**/*.cmake and cmake/*.cmake
(the place ctest's tests are defined) and checks, for each:
  - a C test run as test_X (the executable of tests/AREA/test_X.c) is named X;
  - a script run by sh, python3 or directly (tests/AREA/NAME.sh or .py) is
    named NAME;
  - no test is an inline check (`sh -c "..."`, or a program run with
    arguments and its output matched where the test is defined): each
    check is a file of its own;
  - a family made by a loop or a generator (a name with ${...}) is one of
    FAMILIES, and a test with a name of its own but no file is one of
    OWN_NAMES;
and that every test_*.c and every script under tests/ that a test runs
exists. Prints one line per name that has no file, and a count.

usage: test_names.py REPO_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
# Families of tests made by a generator or a loop: the name's form, and why
# (docs/testing.md).
FAMILIES = {
    "insn_count_${name}": "one per registry variant, listed by the built insn_driver, each run by "
                          "tests/common/count_insns.sh",
    "fuzz_${name}": "one per reader, tests/fuzz/fuzz_NAME.c run by tests/fuzz/run_fuzz.sh",
}
# Tests named otherwise than for a file they run, and why.
OWN_NAMES = {
    "counters_markers_without_likwid": "test_counters_markers.c built a second time, without likwid",
    "insn_count_not_built": "fails in place of the insn_count_* family until insn_driver is built",
}

cmake_files = [os.path.join(root, "tests", "CMakeLists.txt")]
for d, _, ns in os.walk(os.path.join(root, "tests")):
    cmake_files += [os.path.join(d, n) for n in ns if n.endswith(".cmake")]
cmake_dir = os.path.join(root, "cmake")
cmake_files += [os.path.join(cmake_dir, n) for n in sorted(os.listdir(cmake_dir))
                if n.endswith(".cmake")]

tests_files = {}
for d, _, ns in os.walk(os.path.join(root, "tests")):
    if os.path.relpath(d, root).startswith(os.path.join("tests", "data")):
        continue
    for n in ns:
        tests_files.setdefault(n, []).append(os.path.relpath(os.path.join(d, n), root))


def calls(text):
    """The argument text of each add_test( ... ) call, quotes respected."""
    for m in re.finditer(r"\badd_test\(", text):
        i, depth, quoted = m.end(), 1, False
        while i < len(text) and depth:
            c = text[i]
            if c == "\\":
                i += 2
                continue
            if c == '"':
                quoted = not quoted
            elif not quoted and c == "(":
                depth += 1
            elif not quoted and c == ")":
                depth -= 1
            i += 1
        yield text[m.end():i - 1]


def tokens(args):
    return re.findall(r'"(?:\\.|[^"\\])*"|\S+', args)


bad, seen = [], 0
for path in cmake_files:
    rel = os.path.relpath(path, root)
    with open(path) as fh:
        text = fh.read()
    # add_test calls written into a generated file are strings: unescape them.
    for args in calls(text.replace('\\"', '"')):
        t = tokens(args)
        if not t:
            continue
        if t[0] == "NAME":
            name, cmd = t[1], t[t.index("COMMAND") + 1:] if "COMMAND" in t else []
        else:
            name, cmd = t[0], t[1:]
        seen += 1
        where = f"{rel}: test {name}"
        if "${" in name:
            if name not in FAMILIES:
                bad.append(f"{where} is a family not documented in FAMILIES (docs/testing.md)")
            continue
        if name in OWN_NAMES:
            continue
        if not cmd:
            bad.append(f"{where} has no command")
            continue
        prog = cmd[0]
        if prog in ("sh", "python3", "${Python3_EXECUTABLE}") and len(cmd) > 1 and cmd[1] != "-c":
            prog = cmd[1]
        if prog == "sh" and len(cmd) > 1 and cmd[1] == "-c":
            bad.append(f"{where} is an inline check (sh -c): make it a script tests/AREA/{name}.sh")
            continue
        target = re.fullmatch(r"(?:\$<TARGET_FILE:)?(test_\w+)>?", prog)
        script = re.search(r"([\w-]+)\.(sh|py)$", prog)
        if target:
            stem = target.group(1)
            if stem != "test_" + name:
                bad.append(f"{where} runs {stem}: name it {stem[5:]}")
            elif stem + ".c" not in tests_files:
                bad.append(f"{where} runs {stem}, but no tests/AREA/{stem}.c exists")
        elif script:
            fname = script.group(0)
            if script.group(1) != name:
                bad.append(f"{where} runs {fname}: name it {script.group(1)}")
            elif fname not in tests_files:
                bad.append(f"{where} runs {fname}, which is not under tests/")
        else:
            bad.append(f"{where} runs {prog}, no test file: make the check a script tests/AREA/{name}.sh")
for line in bad:
    print("FAIL:", line)
print(f"test_names: {seen - len(bad)} of {seen} add_test calls named for their file, "
      f"{len(bad)} not")
sys.exit(1 if bad or seen < 100 else 0)

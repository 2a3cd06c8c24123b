#!/usr/bin/env python3
"""comment_paths: no comment in src/, include/, bench/, asm/ or cmake/ names a
file that does not exist. A name in a comment (`foo.c`, `dir/bar.h`,
`baz.asm`, ...) must be a file of the repository, by path or by file name,
or one of the files outside it that the code cites (the kernel's sources,
the seeds' selftests, likwid's and libbenchmark's files: EXTERNAL below). A
name in capitals (reporter_FORMAT.c) is a pattern, not a file.

usage: comment_paths.py REPO_ROOT
"""
import os
import re
import subprocess
import sys

root = sys.argv[1]
# Files outside the repository that comments cite on purpose.
EXTERNAL = {"bpf_jit_comp.c", "nops.h", "bugs.c", "alternative.c", "verifier.c", "private_stack.c",
            "run_common.sh", "compare.py", "likwid-config.cmake", "errno.h"}
EXTERNAL_DIRS = ("arch/", "kernel/", "tools/", "progs/")

git = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True, text=True)
files = git.stdout.split() if git.returncode == 0 else [
    os.path.relpath(os.path.join(d, n), root) for d, sub, ns in os.walk(root)
    for n in ns if not os.path.relpath(d, root).startswith(("build", ".git"))]
names = {os.path.basename(f) for f in files}
paths = set(files)
token = re.compile(r"(?<![\w./-])([\w./-]*[A-Za-z_]\w*\.(?:c|h|cpp|asm|inc|md|py|sh|cmake|ini))\b")
bad = []
checked = 0
for f in files:
    if not f.startswith(("src/", "include/", "bench/", "asm/", "cmake/")):
        continue
    if f.endswith((".c", ".h", ".cpp")):
        pattern = r"/\*.*?\*/|//[^\n]*"
    elif f.endswith((".asm", ".inc", ".cmake", ".py")):
        pattern = r"[;#][^\n]*"
    else:
        continue
    with open(os.path.join(root, f), errors="replace") as fh:
        text = fh.read()
    for comment in re.findall(pattern, text, re.S):
        for name in token.findall(comment):
            checked += 1
            if name in paths or os.path.basename(name) in names or os.path.basename(name) in EXTERNAL:
                continue
            if name.startswith(EXTERNAL_DIRS) or re.search(r"[A-Z]{4,}", os.path.basename(name)):
                continue
            bad.append(f"{f}: a comment names {name}, which does not exist")
for line in bad:
    print("FAIL:", line)
print(f"{checked - len(bad)} passed, {len(bad)} failed")
sys.exit(1 if bad else 0)

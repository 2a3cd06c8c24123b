#!/usr/bin/env python3
"""architecture_folders: docs/architecture.md's picture of the layers names
every folder of src/ once, and no folder that src/ lacks.

usage: architecture_folders.py REPO_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
doc = open(os.path.join(root, "docs/architecture.md")).read()
drawn = re.findall(r"^    src/(\w+)/", doc, re.M)
have = sorted(d for d in os.listdir(os.path.join(root, "src")) if os.path.isdir(os.path.join(root, "src", d)))
fails = []
for d in have:
    if drawn.count(d) != 1:
        fails.append(f"src/{d}/ is drawn {drawn.count(d)} times in docs/architecture.md (once wanted)")
for d in sorted(set(drawn) - set(have)):
    fails.append(f"docs/architecture.md draws src/{d}/, which does not exist")
for f in fails:
    print("FAIL:", f)
print(f"{len(have) - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)

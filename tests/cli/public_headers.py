#!/usr/bin/env python3
"""public_headers: include/stubbench/ holds exactly the installed headers
(cmake/install.cmake's SB_PUBLIC_HEADERS), and each of them includes only
installed headers and the C library's, so the installed tree compiles alone.

usage: public_headers.py REPO_ROOT
"""
import os
import re
import sys

root = sys.argv[1]
inst = open(os.path.join(root, "cmake/install.cmake")).read()
public = set(re.search(r"set\(SB_PUBLIC_HEADERS ([^)]*)\)", inst).group(1).split())
here = {h for h in os.listdir(os.path.join(root, "include/stubbench")) if h.endswith(".h")}
fails = []
for h in sorted(here - public):
    fails.append(f"include/stubbench/{h} is not installed: it belongs beside its sources in src/")
for h in sorted(public - here):
    fails.append(f"SB_PUBLIC_HEADERS names {h}, which include/stubbench/ does not hold")
for h in sorted(here & public):
    text = open(os.path.join(root, "include/stubbench", h)).read()
    for inc in re.findall(r'#\s*include "([^"]+)"', text):
        if not (inc.startswith("stubbench/") and os.path.basename(inc) in public):
            fails.append(f"include/stubbench/{h} includes {inc}, which is not installed")
for f in fails:
    print("FAIL:", f)
print(f"{len(here) - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)

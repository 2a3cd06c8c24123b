#!/usr/bin/env python3
"""Every subcommand the program has (its --dump-options) has a row in the
README's table of subcommands, and the table names none it lacks.
usage: readme_subcommands.py STUBBENCH README"""
import json
import re
import subprocess
import sys

exe, readme = sys.argv[1], sys.argv[2]
dump = json.loads(subprocess.run([exe, "--dump-options"], check=True, capture_output=True, text=True).stdout)
have = {c["name"] for c in dump["commands"] if c["name"]}
text = open(readme).read()
section = text.split("## Subcommands", 1)[1].split("\n## ", 1)[0] if "## Subcommands" in text else ""
rows = set(re.findall(r"^\| `stubbench ([a-z-]+)[ `]", section, re.M)) - {"--list", "--calls"}
missing, unknown = sorted(have - rows), sorted(rows - have - {"[OPTIONS]"})
for m in missing:
    print(f"FAIL: subcommand '{m}' has no row in the README's table of subcommands")
for u in unknown:
    print(f"FAIL: the README's table names 'stubbench {u}', which the program lacks")
print(f"readme_subcommands: {len(have)} subcommands, {len(missing) + len(unknown)} failed")
sys.exit(1 if missing or unknown else 0)

#!/usr/bin/env python3
"""Adds a saved run to the atlas (results/atlas): one run per machine kind.

    python3 bench/atlas.py RUN.json [--cpuid=VENDOR,FAMILY,MODEL,STEPPING]
                           [--hypervisor=NAME] [--source=TEXT] [--replace]

RUN.json is a `stubbench --format=json` document, best the default sweep:
    ./build/stubbench --cpu=1 --seed=1 --past-runs=none --format=json --output=run.json
The entry is named by the machine's microarchitecture and whether it is a
guest (results/atlas/intel-emerald-rapids-vm.json). A run saved before runs
carried their CPUID ("cpuid") needs --cpuid, and --source to say where the
fields come from (a recorded run's README); they are written into the
entry as "cpuid" and "atlas_cpuid_source". An existing entry is kept
unless --replace. docs/atlas.md."""
import argparse
import json
import os
import re
import sys
import tempfile

ATLAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "atlas")


def fail(msg):
    print(f"atlas.py: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_cpuid(text):
    parts = text.split(",")
    if len(parts) != 4:
        fail(f"--cpuid={text}: want VENDOR,FAMILY,MODEL,STEPPING (GenuineIntel,6,0xcf,2)")
    try:
        family, model, stepping = (int(p, 0) for p in parts[1:])
    except ValueError:
        fail(f"--cpuid={text}: family, model and stepping are numbers")
    return {"vendor": parts[0], "family": family, "model": model, "stepping": stepping,
            "microcode": "", "hypervisor": "", "amx": False}


def slug(doc):
    c = doc["cpuid"]
    name = doc.get("microarchitecture") or f"{c['family']:x}-{c['model']:02x}"
    vendor = {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(c["vendor"], "")
    s = re.sub(r"[^a-z0-9]+", "-", f"{vendor} {name}".lower()).strip("-")
    return s + ("-vm" if c.get("hypervisor") else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run")
    ap.add_argument("--cpuid")
    ap.add_argument("--hypervisor", default="")
    ap.add_argument("--microarchitecture", help="the name, for a run saved before runs named it")
    ap.add_argument("--source", default="")
    ap.add_argument("--replace", action="store_true")
    ap.add_argument("--atlas", default=ATLAS)
    a = ap.parse_args()
    try:
        doc = json.load(open(a.run))
    except (OSError, ValueError) as e:
        fail(f"{a.run}: {e}")
    if not isinstance(doc, dict) or doc.get("tool") not in ("stubbench", "stubbench kernel", "stubbench diff"):
        fail(f"{a.run}: not a stubbench run (its tool is {doc.get('tool') if isinstance(doc, dict) else None!r})")
    if "cpuid" not in doc:
        if not a.cpuid or not a.source:
            fail(f"{a.run}: saved before runs carried their CPUID: give --cpuid and --source")
        doc["cpuid"] = parse_cpuid(a.cpuid)
        doc["cpuid"]["hypervisor"] = a.hypervisor
        doc["atlas_cpuid_source"] = a.source
        if a.microarchitecture:
            doc["microarchitecture"] = a.microarchitecture
    elif a.cpuid:
        fail(f"{a.run}: has its own cpuid; --cpuid is for runs without")
    os.makedirs(a.atlas, exist_ok=True)
    out = os.path.join(a.atlas, slug(doc) + ".json")
    if os.path.exists(out) and not a.replace:
        fail(f"{out} exists (this machine kind is in the atlas): --replace to replace it")
    fd, tmp = tempfile.mkstemp(dir=a.atlas, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    print(out)


if __name__ == "__main__":
    main()

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
import errno
import glob
import json
import os
import re
import sys
import tempfile

ATLAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", "atlas")


def fail(msg):
    print(f"atlas.py: {msg}", file=sys.stderr)
    sys.exit(2)


# A run is a few hundred kilobytes; the reader takes at most this much.
MAX_BYTES = 64 << 20


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


def load(path):
    """The run at path, one JSON object; every fault one line (fail)."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_BYTES + 1)
    except OSError as e:
        fail(f"{path}: {e.strerror or e}")
    if len(text) > MAX_BYTES:
        fail(f"{path}: larger than {MAX_BYTES >> 20} MiB: not a saved run")
    try:
        return json.loads(text.decode("utf-8"))
    except UnicodeDecodeError as e:
        fail(f"{path}: not UTF-8 text (byte {e.start + 1})")
    except RecursionError:
        fail(f"{path}: nested too deeply to be a saved run")
    except ValueError as e:
        fail(f"{path}: not JSON: {e}")


def check_cpuid(path, c):
    """cpuid's fields, each of its type and range, or one line naming the first that is not."""
    if not isinstance(c, dict):
        fail(f"{path}: cpuid is not an object")
    for key, kind in (("vendor", str), ("family", int), ("model", int), ("stepping", int)):
        v = c.get(key)
        if not isinstance(v, kind) or isinstance(v, bool):
            fail(f"{path}: cpuid.{key} is missing or not a {'string' if kind is str else 'whole number'}")
    for key, top in (("family", 0x10f), ("model", 0xff), ("stepping", 0xf)):
        if not 0 <= c[key] <= top:
            fail(f"{path}: cpuid.{key} {c[key]} is outside 0 .. {top:#x}")
    if not isinstance(c.get("hypervisor", ""), str):
        fail(f"{path}: cpuid.hypervisor is not a string")


def kind(c):
    """The machine kind: vendor, family, model, and whether it is a guest."""
    return (c["vendor"], c["family"], c["model"], bool(c.get("hypervisor")))


def slug(doc):
    c = doc["cpuid"]
    name = doc.get("microarchitecture") or f"{c['family']:x}-{c['model']:02x}"
    vendor = {"GenuineIntel": "intel", "AuthenticAMD": "amd"}.get(c["vendor"], "")
    s = re.sub(r"[^a-z0-9]+", "-", f"{vendor} {name}".lower()).strip("-")
    if not re.search(r"[a-z]", s):
        fail(f"the entry's name '{s}' has no letter (microarchitecture {name!r}, vendor {c['vendor']!r}): "
             "give --microarchitecture")
    return s + ("-vm" if c.get("hypervisor") else "")


def same_kind(atlas, doc, out):
    """The entries of the atlas of doc's machine kind other than out."""
    found = []
    for path in sorted(glob.glob(os.path.join(atlas, "*.json"))):
        if os.path.abspath(path) == os.path.abspath(out):
            continue
        try:
            with open(path) as f:
                other = json.load(f)
            c = other["cpuid"]
            if kind(c) == kind(doc["cpuid"]):
                found.append(path)
        except (OSError, ValueError, RecursionError, KeyError, TypeError):
            continue
    return found


def write(out, doc):
    """doc to out through a temporary in its folder: whole, or not at all."""
    atlas = os.path.dirname(out)
    try:
        fd, tmp = tempfile.mkstemp(dir=atlas, prefix=".atlas-", suffix=".tmp")
    except OSError as e:
        fail(f"{atlas}: cannot make a file there: {e.strerror or e}")
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, out)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        why = "no space left on device" if e.errno == errno.ENOSPC else (e.strerror or str(e))
        fail(f"{out}: not written: {why}")


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
    doc = load(a.run)
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
    check_cpuid(a.run, doc["cpuid"])
    if doc.get("microarchitecture") is not None and not isinstance(doc["microarchitecture"], str):
        fail(f"{a.run}: microarchitecture is not a string")
    try:
        os.makedirs(a.atlas, exist_ok=True)
    except OSError as e:
        fail(f"{a.atlas}: {e.strerror or e}")
    out = os.path.join(a.atlas, slug(doc) + ".json")
    # One entry per machine kind, whatever its name (Zen 4, zen4).
    others = same_kind(a.atlas, doc, out)
    if (os.path.exists(out) or others) and not a.replace:
        fail(f"{others[0] if others else out} exists (this machine kind is in the atlas): --replace to replace it")
    write(out, doc)
    for other in others:
        os.unlink(other)
    print(out)


if __name__ == "__main__":
    main()

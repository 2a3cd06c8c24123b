#!/usr/bin/env python3
"""annotate_lfence: the attribution of `stubbench annotate` on recorded
blocks (no timing is taken): tests/data/annotate_lfence_blocks.csv.gz is
the --blocks log of

    STUBBENCH_TEST_VARIANTS=1 stubbench annotate --variant=test-lfence \
        --cpu=1 --time=30 --past-runs=none --blocks=FILE

on the AMD EPYC Zen 3 VM (results/amd-epyc-zen3-vm.md, 2026-12-03). The
variant is seed 001's private with an lfence planted before its second call
(asm/test_lfence_seed001.asm); the lfence removed is private's own code
(tests/twins/test_ablation.c checks the bytes), so variant - removed(lfence) is
the extra cost over plain private. Recomputed from the file by the
command's own code (--from-blocks):
  - at least 80 % of that extra cost is attributed to the lfence (its NOP
    ablation, at identical layout);
  - the parts, the layout and the interaction reconcile with the total
    within their CIs;
  - the figures are those of the file, every part has one, and the rows
    name the lfence at main+0x47;
  - a file that is not a blocks log fails with status 2, naming it.

usage: annotate_lfence.py STUBBENCH BLOCKS.csv.gz
"""
import gzip
import json
import os
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

stubbench, blocks = sys.argv[1], sys.argv[2]
env = dict(os.environ, STUBBENCH_TEST_VARIANTS="1")


data = gzip.open(blocks).read()
# The log as a file: standard input ("-") is refused.
log = tempfile.NamedTemporaryFile(suffix=".csv")
log.write(data)
log.flush()
p = subprocess.run([stubbench, "annotate", "--variant=test-lfence", "--from-blocks=" + log.name, "--format=json"],
                   capture_output=True, env=env)
check(p.returncode == 0, "exit %d: %s" % (p.returncode, p.stderr.decode()[:300]))
doc = json.loads(p.stdout) if p.returncode == 0 else {"annotate": {"batches": [{}], "rows": []}}
ann = doc["annotate"]
b = ann["batches"][0]
parts = b.get("parts", [])
check(b.get("batch") == 512, "batch %s" % b.get("batch"))
check(len(parts) == 8, "%d parts" % len(parts))
check(all(q["nop"] is not None and q["removed"] is not None for q in parts), "a part without a figure")
lf = [q for q in parts if q["kind"] == "added" and q["name"].startswith("lfence")]
check(len(lf) == 1, "lfence parts: %s" % [q["name"] for q in parts])
if lf:
    nop, extra = lf[0]["nop"]["cycles"], lf[0]["removed"]["cycles"]
    share = nop / extra if extra else 0
    print("annotate_lfence: lfence %+.2f of %+.2f cycles over private: %.0f %%" % (nop, extra, 100 * share))
    check(extra > 0, "extra cost over private %+.2f" % extra)
    check(share >= 0.8, "lfence takes %.0f %% of the extra cost (>= 80 %%)" % (100 * share))
check(b.get("reconciles") is True, "parts + layout + interaction do not reconcile with the total")
total = b.get("total") or {}
lo, hi = (total.get("ci95") or [None, None])
check(lo is not None and lo <= total["cycles"] <= hi, "total %s" % total)
rows = [r for r in ann["rows"] if r["text"] == "lfence"]
check(len(rows) == 1 and rows[0]["offset"] == 0x47 and rows[0]["bytes"] == "0faee8", "lfence row %s" % rows)

# The table's summary says it within 10 lines of 100 columns.
p = subprocess.run([stubbench, "annotate", "--variant=test-lfence", "--from-blocks=" + log.name],
                   capture_output=True, env=env)
lines = p.stdout.decode().splitlines()
check(p.returncode == 0 and 0 < len(lines) <= 10, "summary of %d lines" % len(lines))
check(all(len(x) <= 100 for x in lines), "a summary line over 100 columns")
check(any("lfence main+0x47" in x for x in lines), "the summary does not name the lfence")

# Bad input: a file that is not a blocks log.
with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
    f.write("t_s,part,batch\nnot,a,row\n")
    f.flush()
    p = subprocess.run([stubbench, "annotate", "--variant=test-lfence", "--from-blocks=" + f.name],
                       capture_output=True, env=env)
    check(p.returncode == 2 and f.name in p.stderr.decode(), "bad file: exit %d %s" % (p.returncode, p.stderr))

# Standard input is never read for a log: refused at once, status 2.
p = subprocess.run([stubbench, "annotate", "--variant=test-lfence", "--from-blocks=-"], input=data,
                   capture_output=True, env=env, timeout=20)
check(p.returncode == 2 and "standard input is not read" in p.stderr.decode(),
      "--from-blocks=-: exit %d %s" % (p.returncode, p.stderr))

checks_done("annotate_lfence")

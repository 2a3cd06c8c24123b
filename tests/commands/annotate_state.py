#!/usr/bin/env python3
"""annotate_state: annotate's and diff's summaries where the cost is a
state of the loop, and where the parts add up, recomputed from recorded
blocks (--from-blocks: no timing is taken).

tests/data/annotate_xeon_private_blocks.csv.gz is the --blocks log of

    stubbench annotate --variant=private --cpu=1 --batch=512 --time=30 \
        --seed=41 --past-runs=none --quiet-levels=none --blocks=FILE

on the Intel Xeon VM (CPUID 6/0xcf, 2026-12-04): the total -2.53, the
parts NOPed one by one sum -6.30, the gs add of the subprog and the first
push/pop r9 each read about the whole total. Checked:
  - the summary (10 lines, 100 columns) says the cost is a state of the
    loop, names those two parts, and lists no part with its figure as a
    line of its own nor the parts' sum as a cost;
  - the JSON's verdict is "loop state"; the listing (--table) marks both
    parts' rows 'state' and no other;
  - `stubbench report` of a diff document carrying that annotate member
    (tests/data/answer_diff.json's, with it swapped in) says the same;
  - the planted lfence's blocks (ADDITIVE: tests/data/annotate_lfence_
    blocks.csv.gz), whose parts add, keep their per-part lines, verdict
    "additive", and no state line.

usage: annotate_state.py STUBBENCH STATE_BLOCKS ADDITIVE_BLOCKS DIFF_JSON
"""
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile

# checks.py lies in tests/common, beside the other shared helpers.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
from checks import check, checks_done  # noqa: E402

stubbench, state_blocks, additive_blocks, diff_json = sys.argv[1:5]
env = dict(os.environ, STUBBENCH_TEST_VARIANTS="1")
PART_LINE = re.compile(r"^\s+[+-]\d+\.\d+ \[[^]]*\]\s+(r9 load|gs add|push/pop r9|frame|lfence)")


def annotate(variant, data, *args):
    with tempfile.NamedTemporaryFile(suffix=".csv") as log:
        log.write(data)
        log.flush()
        p = subprocess.run([stubbench, "annotate", "--variant=" + variant, "--from-blocks=" + log.name, *args],
                           capture_output=True, env=env)
    check(p.returncode == 0, "%s %s: exit %d: %s" % (variant, args, p.returncode, p.stderr.decode()[:300]))
    return p.stdout.decode()


def summary_form(what, lines):
    check(0 < len(lines) <= 10, "%s: summary of %d lines" % (what, len(lines)))
    check(all(len(x) <= 100 for x in lines), "%s: a line over 100 columns: %s" % (what, lines))


def state_lines(what, lines):
    text = "\n".join(lines)
    check("the cost is a state of the loop" in text, "%s: no state line:\n%s" % (what, text))
    check(re.search(r"those parts: push/pop r9 main\+0x3c, gs add sub\+0x1d$", text, re.M),
          "%s: the state's parts not named:\n%s" % (what, text))
    check("NOPing any one of these 2 parts alone" in text, "%s: not 2 parts:\n%s" % (what, text))
    check(not any(PART_LINE.match(x) for x in lines), "%s: a part's figure on a line of its own:\n%s" % (what, text))
    check(not re.search(r"parts \(each NOPed in place\)|NOPed one by one sum", text),
          "%s: the parts' sum given as a cost:\n%s" % (what, text))


# The loop state: summary, JSON, listing.
data = gzip.open(state_blocks).read()
lines = annotate("private", data).splitlines()
summary_form("annotate", lines)
state_lines("annotate", lines)
out = annotate("private", data, "--format=json")
doc = json.loads(out) if out else {"annotate": {"batches": [{}]}}
b = doc["annotate"]["batches"][0]
check(b.get("verdict") == "loop state", "verdict %s" % b.get("verdict"))
check(b.get("parts_explain") is False, "parts_explain %s" % b.get("parts_explain"))
listing = annotate("private", data, "--table").splitlines()
# The mark is a column of its own; in a narrow listing it may fold into the
# block under the first (text_grid.h): a row carries it once either way.
marked = [x.split()[0] + x.split()[1] for x in listing
          if "state" in x.split() and x.split()[0] in ("main", "sub")]
check(marked == ["main+0x03c", "sub+0x01d"], "rows marked state: %s" % marked)
check(any("sum of the parts (nop)" in x and "not a cost" in x for x in listing), "the listing's sum line")

# diff's summary from a saved document with that annotate member.
d = json.load(open(diff_json))
d["annotate"] = doc["annotate"]
with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
    json.dump(d, f)
    f.flush()
    p = subprocess.run([stubbench, "report", f.name], capture_output=True)
    check(p.returncode == 0, "report: exit %d %s" % (p.returncode, p.stderr.decode()[:300]))
    lines = p.stdout.decode().splitlines()
    summary_form("diff", lines)
    state_lines("diff", lines)
    check(lines and lines[-1].startswith("each part alone, one state change each: --table"), "diff's last line")

# Parts that add: their lines as before.
data = gzip.open(additive_blocks).read()
lines = annotate("test-lfence", data).splitlines()
summary_form("lfence", lines)
check(not any("state of the loop" in x for x in lines), "lfence: a state line:\n%s" % "\n".join(lines))
check(sum(bool(PART_LINE.match(x)) for x in lines) == 4, "lfence: not 4 part lines:\n%s" % "\n".join(lines))
check(any(re.match(r"^\s+\+12\.09 \[\+10\.74, \+13\.25\]\s+lfence main\+0x47$", x) for x in lines),
      "lfence: its line:\n%s" % "\n".join(lines))
out = annotate("test-lfence", data, "--format=json")
verdict = json.loads(out)["annotate"]["batches"][0].get("verdict") if out else None
check(verdict == "additive", "lfence verdict %s" % verdict)

checks_done("annotate_state")

"""report_docs.py: what the tests that make run documents for `stubbench
report` share (recorded kernel runs, changed to put the summary to a test):
a recorded document, a result row of it to change, and the summary report
prints of a document, checked for the form every summary keeps."""
import json
import os
import subprocess
import tempfile

from checks import check


def load(data, name):
    """The recorded run document data/name."""
    with open(os.path.join(data, name)) as f:
        return json.load(f)


def result_row(doc, variant, batch, side="kernel"):
    """doc's result of variant at batch on side (kernel, twin, placed-twin)."""
    for r in doc["results"]:
        if r.get("side") == side and r["variant"] == variant and r["batch"] == batch:
            return r
    raise KeyError((variant, batch, side))


def summary_lines(sb, doc, what):
    """The summary `sb report` prints of doc (written to a temporary file),
    checked: status 0, 1 to 10 lines, none over 100 columns."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as t:
        json.dump(doc, t)
        t.flush()
        p = subprocess.run([sb, "report", t.name], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
    check(0 < len(lines) <= 10, f"{what}: {len(lines)} lines: {lines}")
    for x in lines:
        check(len(x) <= 100, f"{what}: a line of {len(x)} columns: {x!r}")
    return lines

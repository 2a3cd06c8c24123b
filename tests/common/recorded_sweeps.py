"""What the tests on recorded sweeps (tests/data/xeon-*: sweep-N.json and
sweep-N.blocks.csv.gz) share: `stubbench report RUN --from-blocks=LOG` of
run N, its log unpacked into tmp once."""
import gzip
import os
import subprocess


def report_from_blocks(exe, data, tmp, run, *extra):
    log = os.path.join(tmp, f"sweep-{run}.blocks.csv")
    if not os.path.exists(log):
        with gzip.open(os.path.join(data, f"sweep-{run}.blocks.csv.gz"), "rb") as z, open(log, "wb") as f:
            f.write(z.read())
    args = [exe, "report", os.path.join(data, f"sweep-{run}.json"), f"--from-blocks={log}", *extra]
    return subprocess.run(args, capture_output=True, text=True)

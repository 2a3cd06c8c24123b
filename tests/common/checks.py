"""checks.py: the few checks the Python tests share, as check.h is the C
tests': each failed check said in a FAIL line as it fails, counted, and the
test's status from them. A test imports it from tests/common:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "common"))
    from checks import check, checks_done
"""
import sys

failures = []


def check(cond, what):
    """A check: what is said when cond is false."""
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def checks_done(name):
    """Says how many checks failed; exits 1 when any did."""
    print(f"{name}: {len(failures)} failed")
    sys.exit(1 if failures else 0)

"""Test support: the consensus binary and the shipped data sets.

The binary is CONSENSUS_BIN when set; otherwise, when ``go`` is on PATH (or
at /usr/local/go/bin/go), it is built once per test run from the checkout
that holds this directory. Without either, the tests that need it skip.
"""

import csv
import os
import shutil
import subprocess
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_built = {}


def binary():
    """Return the path of a consensus binary, or raise unittest.SkipTest."""
    env = os.environ.get("CONSENSUS_BIN")
    if env:
        return env
    if "path" in _built:
        return _built["path"]
    go = shutil.which("go") or ("/usr/local/go/bin/go" if os.access("/usr/local/go/bin/go", os.X_OK) else None)
    if go is None or not os.path.exists(os.path.join(REPO, "go.mod")):
        raise unittest.SkipTest("no consensus binary: CONSENSUS_BIN is unset and go is not available to build one")
    out = tempfile.mkdtemp(prefix="consensus-crowd-test-bin-")
    path = os.path.join(out, "consensus")
    subprocess.run([go, "build", "-o", path, "./cmd/consensus"], cwd=REPO, check=True)
    _built["path"] = path
    os.environ["CONSENSUS_BIN"] = path  # so that aggregate() finds it too
    return path


def cli(*args):
    """Run the binary with args; return its standard error."""
    p = subprocess.run([binary()] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       encoding="utf-8", check=True)
    return p.stderr


def export(name, directory):
    """Export a shipped data set; return its labels as (task, worker, label)
    tuples of str, in file order."""
    cli("datasets", "export", name, directory)
    with open(os.path.join(directory, "labels.csv"), newline="", encoding="utf-8") as f:
        r = csv.reader(f)
        header = next(r)
        if header != ["task", "worker", "label"]:
            raise AssertionError("unexpected header %r" % header)
        return [tuple(row) for row in r]


def read_table(path):
    """Read a CSV table into (header, rows of str)."""
    with open(path, newline="", encoding="utf-8") as f:
        r = csv.reader(f)
        header = next(r)
        return header, [row for row in r]

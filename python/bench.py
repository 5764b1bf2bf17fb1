"""Time consensus_crowd.aggregate on a labels file against the CLI alone.

    consensus simulate --model da-ds --objects 100000 --workers 200 \\
        --labels-per-object 10 --classes 3 --seed 1 -o sim.csv
    python3 python/bench.py sim.csv [MODEL] [REPEATS]

Prints, for each repeat: the time of pandas.read_csv (when pandas is
installed), of aggregate() on the DataFrame (the whole call: the temporary
CSV, the fit, reading the tables back), of aggregate() on a list of tuples,
and of ``consensus fit`` run directly on the file with the same outputs.
The best of the repeats is printed last.
"""

import csv
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import consensus_crowd as cc  # noqa: E402


def main():
    path = sys.argv[1]
    model = sys.argv[2] if len(sys.argv) > 2 else cc.DEFAULT_MODEL
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    try:
        import pandas as pd
    except ImportError:
        pd = None
    with open(path, newline="", encoding="utf-8") as f:
        r = csv.reader(f)
        next(r)
        rows = [tuple(row) for row in r]
    print("%s: %d labels, model %s, %d repeats" % (path, len(rows), model, repeats))
    best = {}

    def timed(name, fn):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best[name] = min(best.get(name, dt), dt)
        return out, dt

    exe = cc.find_binary()
    for i in range(repeats):
        line = []
        if pd is not None:
            df, dt = timed("read_csv", lambda: pd.read_csv(path, dtype=str))
            line.append("read_csv %.2fs" % dt)
            _, dt = timed("aggregate(DataFrame)", lambda: cc.aggregate(df, model))
            line.append("aggregate(DataFrame) %.2fs" % dt)
        _, dt = timed("aggregate(tuples)", lambda: cc.aggregate(rows, model))
        line.append("aggregate(tuples) %.2fs" % dt)
        with tempfile.TemporaryDirectory() as tmp:
            cmd = [exe, "fit", "--input", path, "--model", model, "--output", os.path.join(tmp, "c.csv")]
            if model not in cc._core._NO_WORKERS:
                cmd += ["--workers", os.path.join(tmp, "w.csv")]
            _, dt = timed("consensus fit", lambda: subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL))
        line.append("consensus fit %.2fs" % dt)
        print("run %d: %s" % (i + 1, ", ".join(line)))
    print("best: " + ", ".join("%s %.2fs" % kv for kv in best.items()))


if __name__ == "__main__":
    main()

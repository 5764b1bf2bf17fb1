"""Run Crowd-Kit's DawidSkene on a labels file, for timing against consensus.

    python3 scripts/crowdkit-ds.py LABELS.csv OUT.csv

Reads LABELS.csv (task,worker,label; every column as text, as consensus
reads it) with pandas, fits crowdkit.aggregation.DawidSkene with its default
settings (100 iterations at most, tolerance 1e-5), and writes each task's
label to OUT.csv, so that the process does what `consensus fit` does: read,
fit, write. scripts/perf-targets.sh times it as a whole process when
Crowd-Kit can be imported (from PYTHONPATH, e.g. a checkout of its source).
"""

import sys

import pandas as pd
from crowdkit.aggregation import DawidSkene


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: crowdkit-ds.py LABELS.csv OUT.csv")
    df = pd.read_csv(sys.argv[1], dtype=str)
    labels = DawidSkene().fit_predict(df)
    labels.to_csv(sys.argv[2], header=True)
    print("%d tasks, %d labels" % (len(labels), len(df)))


if __name__ == "__main__":
    main()

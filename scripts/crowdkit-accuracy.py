"""Crowd-Kit's accuracy on the shipped data sets: the Crowd-Kit rows of
docs/crowdkit.md, "Accuracy on the shipped data sets".

    PYTHONPATH=/path/to/crowd-kit python3 scripts/crowdkit-accuracy.py [METHOD ...]

Fits each of Crowd-Kit's classification methods (crowdkit.aggregation) with
its default settings on every data set under datasets/files (labels.csv.gz:
task, worker, label, every column read as text, as consensus reads it) and
prints, as a Markdown table, the accuracy of its labels on the set's gold
tasks (gold.csv.gz), with the CPU seconds of each fit. KOS is fitted only on
the sets with two classes, as it is defined for two; GoldMajorityVote needs
training gold and is left out. METHOD names a subset (class names, e.g.
Wawa MMSR); by default every method below is fitted.

It needs Crowd-Kit and its dependencies (numpy, pandas, scipy, scikit-learn,
attrs, tqdm, nltk), e.g. a checkout of its source on PYTHONPATH.
"""

import os
import sys
import time

import crowdkit
import pandas as pd
from crowdkit import aggregation

SETS = ["rte", "temp", "duchenne", "websearch", "adult", "trec2010"]
METHODS = ["MajorityVote", "Wawa", "ZeroBasedSkill", "MMSR", "KOS", "DawidSkene",
           "OneCoinDawidSkene", "GLAD", "MACE"]


def main():
    methods = sys.argv[1:] or METHODS
    for m in methods:
        if m not in METHODS:
            sys.exit("crowdkit-accuracy.py: unknown method %r; want one of %s" % (m, " ".join(METHODS)))
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "datasets", "files")
    data = {}
    for name in SETS:
        labels = pd.read_csv(os.path.join(root, name, "labels.csv.gz"), dtype=str)
        gold = pd.read_csv(os.path.join(root, name, "gold.csv.gz"), dtype=str)
        data[name] = (labels, gold.set_index("task")["label"])
    print("Crowd-Kit %s, default settings; accuracy on the gold tasks (CPU seconds of the fit)" % crowdkit.__version__)
    print()
    print("| method | " + " | ".join(SETS) + " |")
    print("|---|" + "---|" * len(SETS))
    for m in methods:
        cells = []
        for name in SETS:
            labels, gold = data[name]
            if m == "KOS" and labels["label"].nunique() != 2:
                cells.append("–")
                continue
            start = time.process_time()
            predicted = getattr(aggregation, m)().fit_predict(labels)
            cpu = time.process_time() - start
            agree = predicted.reindex(gold.index) == gold
            cells.append("%.4f (%.1f s)" % (agree.mean(), cpu))
        print("| `%s` | %s |" % (m, " | ".join(cells)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Rank correlations of fitted item scores with the true ones.

    python3 scripts/pairwise-accuracy.py TRUTH.csv SCORES.csv [SCORES.csv ...]

TRUTH.csv is what `consensus pairwise simulate --truth` writes (item,score);
each SCORES.csv has the columns item and score (`consensus pairwise fit`'s
output, or scripts/crowdkit-pairwise.py's). Prints Spearman's and Kendall's
correlation of each file's scores with the true scores over every item.
Needs pandas and scipy.
"""

import sys

import pandas as pd


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: pairwise-accuracy.py TRUTH.csv SCORES.csv [SCORES.csv ...]")
    truth = pd.read_csv(sys.argv[1], dtype={"item": str}).set_index("item")["score"]
    for name in sys.argv[2:]:
        s = pd.read_csv(name, dtype={"item": str}).set_index("item")["score"].reindex(truth.index)
        if s.isna().any():
            sys.exit("%s: no score for %d items of the truth" % (name, s.isna().sum()))
        print("%s\tspearman %.4f\tkendall %.4f" % (name, s.corr(truth, method="spearman"), s.corr(truth, method="kendall")))


if __name__ == "__main__":
    main()

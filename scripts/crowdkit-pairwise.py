"""Run Crowd-Kit's pairwise aggregators on a comparisons file, for timing
and accuracy against `consensus pairwise fit`.

    python3 scripts/crowdkit-pairwise.py bt|noisy-bt COMPARISONS.csv OUT.csv

Reads COMPARISONS.csv (worker,left,right,label; every column as text) with
pandas, fits crowdkit.aggregation.BradleyTerry(n_iter=100) or
NoisyBradleyTerry() (its defaults: 100 iterations, tolerance 1e-5), writes
item,score to OUT.csv and prints the fit's CPU seconds. Crowd-Kit must be
importable (from PYTHONPATH, e.g. a checkout of its source).
"""

import sys
import time

import pandas as pd
from crowdkit.aggregation import BradleyTerry, NoisyBradleyTerry


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("bt", "noisy-bt"):
        sys.exit("usage: crowdkit-pairwise.py bt|noisy-bt COMPARISONS.csv OUT.csv")
    df = pd.read_csv(sys.argv[2], dtype=str)
    model = BradleyTerry(n_iter=100) if sys.argv[1] == "bt" else NoisyBradleyTerry()
    start = time.process_time()
    scores = model.fit_predict(df)
    print("fit: %.2f CPU-s" % (time.process_time() - start))
    scores.rename("score").to_csv(sys.argv[3], index_label="item")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compares GLAD with Crowd-Kit's settings named (consensus_crowd's numpy
loop) with Crowd-Kit's own GLAD: the table of docs/crowdkit.md.

    /usr/bin/python3 scripts/crowdkit-glad.py CROWDKIT_CHECKOUT LABELS_CSV

LABELS_CSV is a task,worker,label file (`consensus datasets export rte
DIR` writes DIR/labels.csv), read as text. For Crowd-Kit's toy data and
for LABELS_CSV, and a few (n_iter, tol), it prints the iterations each
ran, the largest differences of probas_, alphas_, betas_ and loss_history_
and the CPU time of each; then Crowd-Kit against itself on the rows of
LABELS_CSV in another order (df.sample(frac=1, random_state=1)), which
measures how much rounding alone moves its result. Needs numpy, pandas
and scipy (Debian: python3-scipy) for Crowd-Kit.
"""

import os
import sys
import time
import warnings

warnings.simplefilter("ignore")
if len(sys.argv) != 3:
    sys.exit("usage: %s CROWDKIT_CHECKOUT LABELS_CSV" % sys.argv[0])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import tests.conftest as fixtures  # noqa: E402  (Crowd-Kit's test data)
from crowdkit.aggregation import GLAD as CrowdKitGLAD  # noqa: E402

import consensus_crowd as cc  # noqa: E402


def largest(a, b):
    """The largest absolute difference of two Series or frames, aligned."""
    a, b = a.sort_index(), b.sort_index()
    if isinstance(a, pd.DataFrame):
        a, b = a.sort_index(axis=1), b.sort_index(axis=1)
    return float(np.abs(a.to_numpy(float) - b.to_numpy(float)).max())


def compare(name, a, b, times):
    h1, h2 = np.array(a.loss_history_), np.array(b.loss_history_)
    loss = "%.2g" % np.abs(h1 - h2).max() if len(h1) == len(h2) and len(h1) else "-"
    print("%-10s iterations %3d %3d  probas_ %.2g  alphas_ %.2g  betas_ %.2g  loss_history_ %s  labels same %.4f  "
          "CPU s %.1f %.2f" % (name, len(h1), len(h2), largest(a.probas_, b.probas_), largest(a.alphas_, b.alphas_),
                               largest(a.betas_, b.betas_), loss, (a.labels_.sort_index() == b.labels_.sort_index()).mean(),
                               times[0], times[1]))


def timed(fit):
    t = time.process_time()
    out = fit()
    return out, time.process_time() - t


toy = fixtures.toy_answers_df.__pytest_wrapped__.obj()
labels = pd.read_csv(sys.argv[2], dtype=str)
for name, df, settings in [("toy", toy, [(100, 0.0), (100500, 1e-5)]),
                           (os.path.basename(sys.argv[2]), labels, [(2, 0.0), (3, 0.0), (100, 1e-5)])]:
    for n_iter, tol in settings:
        a, ta = timed(lambda: CrowdKitGLAD(n_iter=n_iter, tol=tol).fit(df))
        b, tb = timed(lambda: cc.GLAD(n_iter=n_iter, tol=tol).fit(df))
        compare("%s n_iter=%d tol=%g" % (name, n_iter, tol), a, b, (ta, tb))
shuffled = labels.sample(frac=1, random_state=1).reset_index(drop=True)
for who, cls in [("Crowd-Kit", CrowdKitGLAD), ("here", cc.GLAD)]:
    a, ta = timed(lambda: cls(n_iter=100, tol=1e-5).fit(labels))
    b, tb = timed(lambda: cls(n_iter=100, tol=1e-5).fit(shuffled))
    compare("%s against itself, rows shuffled" % who, a, b, (ta, tb))

#!/usr/bin/env python3
"""Evidence for docs/crowdkit.md: Crowd-Kit 1.4.1's MACE reads its spamming
counts in the wrong rows and columns.

    /usr/bin/python3 scripts/crowdkit-mace.py CROWDKIT_CHECKOUT

Crowd-Kit numbers workers and labels in order of first appearance
(pd.factorize), but its E-step's expected spamming counts come from
groupby(["worker", "label"]).unstack(), ordered by sorted worker and label,
and its M-step uses them as if in the first order. This script runs
consensus_crowd's MACE (Crowd-Kit's parameters, Crowd-Kit's fit) on the
simple data set of Crowd-Kit's tests as it is, and with the same mix-up
added, and prints the accuracy of method "em" and the thetas_ of "vb"
(n_restarts=1, n_iter=5, random_state=0), then Crowd-Kit's own thetas_:
with the mix-up added they equal Crowd-Kit's, and the "em" accuracy is
Crowd-Kit's 0.9 instead of 1.0.
"""

import os
import sys
import warnings

warnings.simplefilter("ignore")
if len(sys.argv) != 2:
    sys.exit("usage: %s CROWDKIT_CHECKOUT" % sys.argv[0])
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import tests.conftest as fixtures  # noqa: E402  (Crowd-Kit's test data)
from crowdkit.aggregation import MACE  # noqa: E402

from consensus_crowd import _ckfit  # noqa: E402

data = fixtures.simple_answers_df.__pytest_wrapped__.obj()
truth = fixtures.simple_ground_truth.__pytest_wrapped__.obj()
coded = _ckfit.Coded(pd, data, sort=False)
aligned = _ckfit.mace_e_step


def mixed_up(coded, state):
    """The E-step with Crowd-Kit's mix-up: the counts of the worker and
    label of sorted rank r land on the worker and label of code r."""
    lml, post, counts, knowing = aligned(coded, state)
    w = np.argsort(np.argsort(list(coded.workers)))
    y = np.argsort(np.argsort(list(coded.classes)))
    out = np.zeros_like(counts)
    out[np.ix_(w, y)] = counts
    return lml, post, out, knowing


np.set_printoptions(precision=8, suppress=True)
for name, step in [("as specified", aligned), ("with Crowd-Kit's mix-up", mixed_up)]:
    _ckfit.mace_e_step = step
    for method in ("em", "vb"):
        state, post = _ckfit.mace(coded, 1, 5, method, 0.5, 0.5, 0.5, 0)
        labels = pd.Series(np.asarray(coded.classes)[post.argmax(axis=1)], index=coded.tasks)
        print("%s, %s: accuracy %.1f" % (name, method, (labels[truth.index] == truth).mean()))
        if method == "vb":
            print(state.thetas)
print("Crowd-Kit's thetas_ (vb):")
print(MACE(n_restarts=1, n_iter=5, method="vb", random_state=0).fit(data).thetas_)

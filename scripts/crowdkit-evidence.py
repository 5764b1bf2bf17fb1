#!/usr/bin/env python3
"""Evidence for docs/crowdkit.md: the expectations of Crowd-Kit 1.4.1's
tests that this package does not meet come from defects of Crowd-Kit.

    /usr/bin/python3 scripts/crowdkit-evidence.py CROWDKIT_CHECKOUT

Needs numpy, pandas and scipy (Debian: python3-scipy) for Crowd-Kit.

1. MACE: Crowd-Kit numbers workers and labels in order of first appearance
(pd.factorize), but its E-step's expected spamming counts come from
groupby(["worker", "label"]).unstack(), ordered by sorted worker and label,
and its M-step uses them as if in the first order. This script runs
consensus_crowd's port of Crowd-Kit's fit on the simple data set of
Crowd-Kit's tests as MACE is specified, and with the mix-up (what
consensus_crowd.MACE runs when Crowd-Kit's parameters are named), and
prints the accuracy of method "em" and the thetas_ of "vb" (n_restarts=1,
n_iter=5, random_state=0), then Crowd-Kit's own thetas_: with the mix-up
they equal Crowd-Kit's, and the "em" accuracy is Crowd-Kit's 0.9 instead
of 1.0.

2. NoisyBradleyTerry: on the two data sets of Crowd-Kit's tests, its fit
stops where its own objective (the negative log-likelihood it minimises)
is not at a minimum: the script minimises the same function from the same
start with L-BFGS-B and finite-difference gradients (instead of its
_compute_gradient, which does not match the function) and prints both
values and both sets of scores.
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
from crowdkit.aggregation import MACE, NoisyBradleyTerry  # noqa: E402
from crowdkit.aggregation.utils import factorize  # noqa: E402
from scipy.optimize import minimize  # noqa: E402
from scipy.special import expit  # noqa: E402

from consensus_crowd import _ckfit  # noqa: E402

data = fixtures.simple_answers_df.__pytest_wrapped__.obj()
truth = fixtures.simple_ground_truth.__pytest_wrapped__.obj()
coded = _ckfit.Coded(pd, data, sort=False)
np.set_printoptions(precision=8, suppress=True)
for name, step in [("as specified", _ckfit.mace_e_step), ("with Crowd-Kit's mix-up", _ckfit.mace_mixed_up(coded))]:
    for method in ("em", "vb"):
        state, post = _ckfit.mace(coded, 1, 5, method, 0.5, 0.5, 0.5, 0, step)
        labels = pd.Series(np.asarray(coded.classes)[post.argmax(axis=1)], index=coded.tasks)
        print("%s, %s: accuracy %.1f" % (name, method, (labels[truth.index] == truth).mean()))
        if method == "vb":
            print(state.thetas)
print("Crowd-Kit's thetas_ (vb):")
print(MACE(n_restarts=1, n_iter=5, method="vb", random_state=0).fit(data).thetas_)

print()
objective = NoisyBradleyTerry._compute_log_likelihood
for name, rows in [("data_abc (a>b, b>c, a>c)", [["a", "b", "a"], ["b", "c", "b"], ["c", "a", "a"]]),
                   ("data_equal (a>b, b>c, c>a)", [["a", "b", "a"], ["b", "c", "b"], ["c", "a", "c"]])]:
    frame = pd.DataFrame([["w1", "t%d" % i] + r for i, r in enumerate(rows)],
                         columns=["worker", "task", "left", "right", "label"])
    items, coded = factorize(frame[["left", "right", "label"]].values)
    coded = coded + 1
    _, workers = factorize(frame.worker.values)
    args = (coded, workers, len(items), 1, 1e-5)
    np.random.seed(0)
    x0 = np.random.rand(1 + len(items) + 2)
    theirs = minimize(objective, x0, jac=NoisyBradleyTerry._compute_gradient, args=args, method="L-BFGS-B",
                      options={"maxiter": 100, "ftol": np.float32(1e-5)})
    ours = minimize(objective, x0, args=args, method="L-BFGS-B", options={"maxiter": 10000, "ftol": 1e-15})
    print("NoisyBradleyTerry on %s: Crowd-Kit stops at objective %.6f, scores %s (%s after %d iterations);"
          % (name, theirs.fun, np.round(expit(theirs.x[1:1 + len(items)]), 4), theirs.message, theirs.nit))
    print("    the same objective from the same start with finite differences reaches %.6f, scores %s"
          % (ours.fun, np.round(expit(ours.x[1:1 + len(items)]), 4)))

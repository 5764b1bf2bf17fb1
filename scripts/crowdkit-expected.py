#!/usr/bin/env python3
"""Prints the numbers of Crowd-Kit 1.4.1 that python/tests/test_crowdkit_named.py
checks for the named settings of ZeroBasedSkill, MACE and
NoisyBradleyTerry and for GLAD's private methods.

    /usr/bin/python3 scripts/crowdkit-expected.py CROWDKIT_CHECKOUT

Runs Crowd-Kit's own classes (imported from CROWDKIT_CHECKOUT; needs numpy,
pandas and scipy) on the toy data of those tests and prints each number with
repr, as the tests hold them.
"""

import os
import sys
import warnings

warnings.simplefilter("ignore")
if len(sys.argv) != 2:
    sys.exit("usage: %s CROWDKIT_CHECKOUT" % sys.argv[0])
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python", "tests"))
sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from crowdkit.aggregation import GLAD, MACE, NoisyBradleyTerry, ZeroBasedSkill  # noqa: E402
from test_crowdkit_named import toy  # noqa: E402  (the tests' data)


def show(title, series):
    print("%s: %r" % (title, {k: float(v) for k, v in series.items()}))


def zbs():
    repeated = pd.concat([toy(), toy().iloc[:4]])  # w1's labels on t1..t4 twice
    for kw in [dict(n_iter=0), dict(eps=0.1, n_iter=3), dict(lr_init=0.3, lr_steps_to_reduce=3,
                                                               lr_reduce_factor=0.9, n_iter=30)]:
        z = ZeroBasedSkill(**kw)
        labels = z.fit_predict(repeated)
        show("ZeroBasedSkill(%s) on the repeated toy: skills_" % kw, z.skills_.sort_index())
        print("  labels_: %r" % labels.sort_index().tolist())


def glad():
    g = GLAD()
    df = toy()
    g._init(df)
    table = g._e_step(g._join_all(df, g.alphas_, g.betas_, g.priors_))
    show("GLAD _e_step at the start: probas_['yes']", g.probas_["yes"])
    g._current_data = table
    x = np.concatenate([g.alphas_.values, g.betas_.values]) * 1.1
    g._update_alphas_betas(*g._get_alphas_betas_by_point(x))
    print("GLAD _compute_Q at 1.1 times the start: %r" % g._compute_Q(g._current_data))
    d_alpha, d_beta = g._gradient_Q(g._current_data)
    show("  _gradient_Q: alphas", d_alpha)
    show("  _gradient_Q: betas", d_beta)
    g._m_step(g._current_data)
    show("  alphas_ after _m_step", g.alphas_)


def noisy_bt():
    equal = pd.DataFrame([("w1", "a", "b", "a"), ("w1", "b", "c", "b"), ("w1", "c", "a", "c")],
                         columns=["worker", "left", "right", "label"])
    for kw in [dict(n_iter=100), dict(regularization_ratio=0.1, random_state=5)]:
        m = NoisyBradleyTerry(**kw).fit(equal)
        show("NoisyBradleyTerry(%s) on Crowd-Kit's data_equal: scores_" % kw, m.scores_)
        show("  skills_", m.skills_)
        show("  biases_", m.biases_)
    print("  sigmoid of RandomState(0).rand(6)[1:4]: %r" % (1 / (1 + np.exp(-np.random.RandomState(0).rand(6)[1:4]))).tolist())


def mace():
    reversed_toy = toy().iloc[::-1]  # workers w5..w1 in order of first appearance
    for kw in [dict(n_restarts=1, n_iter=5, method="vb"), dict(n_restarts=1, n_iter=5, method="em")]:
        m = MACE(**kw).fit(reversed_toy)
        print("MACE(%s) on the reversed toy: thetas_ %r" % (kw, m.thetas_.tolist()))
        show("  probas_['yes']", m.probas_["yes"])


zbs()
glad()
noisy_bt()
mace()

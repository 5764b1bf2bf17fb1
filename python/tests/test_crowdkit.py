"""Agreement with Crowd-Kit itself, label by label, on the shipped data sets.

These tests run the Crowd-Kit-named classes of consensus_crowd and the same
classes of Crowd-Kit (crowdkit.aggregation, default settings) on each
shipped data set read the same way, and compare their labels task by task,
and Krippendorff's alpha and the tasks' uncertainty of both.
They skip unless both pandas and Crowd-Kit can be imported (a checkout of
Crowd-Kit's source on PYTHONPATH will do; see docs/crowdkit.md). The
expected agreement is what docs/crowdkit.md explains: the same labels where
both fits follow the same definition to convergence, and differences only
where they do not (ties of the plain majority vote, Crowd-Kit's early stops).
"""

import gzip
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import consensus_crowd.aggregation as ours  # noqa: E402
import consensus_crowd.metrics as our_metrics  # noqa: E402
from support import REPO, binary  # noqa: E402

try:
    import pandas as pd
    from crowdkit import aggregation as ck
    from crowdkit.metrics import data as ck_metrics
except ImportError:
    pd = ck = ck_metrics = None

SETS = ["rte", "temp", "duchenne", "websearch", "adult", "trec2010"]


def setUpModule():
    if ck is None:
        raise unittest.SkipTest("Crowd-Kit (with pandas) is not importable; put a checkout of its source on PYTHONPATH")
    binary()


_data = {}


def labels(name):
    """The shipped data set's labels as a DataFrame of text columns."""
    if name not in _data:
        with gzip.open(os.path.join(REPO, "datasets", "files", name, "labels.csv.gz"), "rt") as f:
            _data[name] = pd.read_csv(f, dtype=str)
    return _data[name]


def agreement(method, name):
    """The fraction of tasks on which both libraries' method gives one label."""
    df = labels(name)
    a = getattr(ours, method)().fit_predict(df)
    b = getattr(ck, method)().fit_predict(df)
    return (a.reindex(b.index).astype(str) == b.astype(str)).mean()


class Agreement(unittest.TestCase):
    def test_wawa_and_zero_based_skill(self):
        # The same definition, ties to the first class as Crowd-Kit breaks
        # them; the rest is how repeated labels of a worker count.
        for method in ["Wawa", "ZeroBasedSkill"]:
            for name in SETS:
                with self.subTest(method=method, set=name):
                    want = 1.0 if name in ("rte", "temp", "websearch") else 0.99
                    self.assertGreaterEqual(agreement(method, name), want)

    def test_dawid_skene_converged(self):
        # Where Crowd-Kit's DawidSkene runs to convergence both fits reach
        # the same maximum; on adult, websearch and trec2010 its loop stops
        # early (its bound decreases, or changes by less than 1e-5 a label).
        for name in ["rte", "temp", "duchenne"]:
            with self.subTest(set=name):
                self.assertEqual(agreement("DawidSkene", name), 1.0)

    def test_majority_vote_without_ties(self):
        # Crowd-Kit takes the first class of a tie, consensus a seeded draw:
        # on every task without a tie the labels are the same.
        for name in SETS:
            with self.subTest(set=name):
                df = labels(name)
                counts = df.groupby(["task", "label"]).size().unstack(fill_value=0)
                top = counts.max(axis=1)
                clear = counts.index[(counts.eq(top, axis=0)).sum(axis=1) == 1]
                a = ours.MajorityVote().fit_predict(df).reindex(clear).astype(str)
                b = ck.MajorityVote().fit_predict(df).reindex(clear).astype(str)
                self.assertGreater(len(clear), 0)
                self.assertTrue((a == b).all(), "%d of %d tasks differ" % ((a != b).sum(), len(clear)))


class Metrics(unittest.TestCase):
    def test_alpha_and_uncertainty(self):
        # The same definitions: the values agree to the six decimals that
        # consensus agreement prints.
        for name in SETS:
            df = labels(name)
            with self.subTest(set=name):
                self.assertAlmostEqual(our_metrics.alpha_krippendorff(df), ck_metrics.alpha_krippendorff(df),
                                       delta=1e-6)
                self.assertAlmostEqual(our_metrics.uncertainty(df), ck_metrics.uncertainty(df), delta=1e-6)


if __name__ == "__main__":
    unittest.main()

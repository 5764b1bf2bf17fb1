"""consensus_crowd's pairwise classes: Crowd-Kit's interface over
``consensus pairwise fit``, the worked example of the Go tests, values of
any type mapped back, messages naming the row, and, when Crowd-Kit can be
imported, its BradleyTerry's two MM steps against the maximum here."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from consensus_crowd import (BradleyTerry, ConsensusError, NoisyBradleyTerry,  # noqa: E402
                             aggregate_pairwise)
from support import binary  # noqa: E402

try:
    import pandas as pd
except ImportError:
    pd = None

# a beats b three times in four: the maximum likelihood has P(a ≻ b) = 3/4.
ROWS = [("w1", "a", "b", "a"), ("w2", "b", "a", "a"), ("w1", "a", "b", "a"), ("w2", "a", "b", "b")]


def setUpModule():
    binary()


class TestAggregatePairwise(unittest.TestCase):
    def test_worked_example(self):
        r = aggregate_pairwise(ROWS, prior=0)
        self.assertEqual(r.items, ["a", "b"])
        self.assertAlmostEqual(r.scores["a"], math.log(3) / 2, places=12)
        self.assertAlmostEqual(r.weights["b"], 0.25, places=12)
        self.assertEqual((r.ranks["a"], r.wins["a"], r.comparisons["b"]), (1, 3, 4))
        self.assertIsNone(r.workers)
        self.assertIn("bt: 2 items", r.log)

    def test_ties(self):
        rows = [("w", "a", "b", "a"), ("w", "a", "b", "draw"), ("w", "b", "a", "draw")]
        r = aggregate_pairwise(rows, prior=0, tie="draw")
        self.assertAlmostEqual(r.weights["a"], 2 / 3, places=12)
        self.assertEqual((r.wins["a"], r.ties["a"], r.comparisons["a"]), (1, 2, 3))
        self.assertIsNone(aggregate_pairwise(ROWS).ties)
        with self.assertRaisesRegex(ConsensusError, "has no ties"):
            aggregate_pairwise(rows, "noisy-bt", tie="draw")

    def test_values_mapped_back(self):
        rows = [(1, 10, 20.5, 10), (2, 20.5, 10, 20.5), (1, 10, 20.5, 20.5), (2, 10, 20.5, 10)]
        r = aggregate_pairwise(rows, "noisy-bt")
        self.assertEqual(sorted(r.scores, key=str), [10, 20.5])
        self.assertEqual([w["worker"] for w in r.workers], [1, 2])
        self.assertEqual(r.workers[0]["comparisons"], 2)

    def test_errors(self):
        with self.assertRaisesRegex(ConsensusError, r"comparisons item 1: label \"c\" is neither"):
            aggregate_pairwise([("w", "a", "b", "a"), ("w", "a", "b", "c")])
        with self.assertRaisesRegex(ConsensusError, r"item \"a\" wins all of its"):
            aggregate_pairwise([("w", "a", "b", "a")], prior=0)
        with self.assertRaisesRegex(ValueError, "item 0: .* is not a"):
            aggregate_pairwise([("a", "b", "a")])
        with self.assertRaisesRegex(ValueError, "missing"):
            aggregate_pairwise([("w", "a", None, "a")])
        with self.assertRaises(ValueError):
            aggregate_pairwise(ROWS, "glad")
        with self.assertRaises(TypeError):
            aggregate_pairwise(ROWS, prior=-1)


@unittest.skipIf(pd is None, "needs pandas")
class TestClasses(unittest.TestCase):
    def frame(self):
        return pd.DataFrame(ROWS, columns=["worker", "left", "right", "label"])

    def test_bradley_terry(self):
        s = BradleyTerry(n_iter=100).fit_predict(self.frame())
        self.assertEqual(list(s.index), ["a", "b"])
        self.assertAlmostEqual(s["a"], 0.75, places=12)
        self.assertAlmostEqual(s.sum(), 1, places=12)

    def test_noisy(self):
        m = NoisyBradleyTerry(max_iter=100).fit(self.frame())
        self.assertTrue(0 < m.scores_["b"] < m.scores_["a"] < 1)
        self.assertEqual(list(m.skills_.index), ["w1", "w2"])
        self.assertTrue(((m.biases_ > 0) & (m.biases_ < 1)).all())

    def test_unsupported(self):
        with self.assertRaisesRegex(TypeError, "needs n_iter"):
            BradleyTerry(tol=1e-3)
        with self.assertRaisesRegex(TypeError, "runs Crowd-Kit's fit, which takes no option max_iter"):
            NoisyBradleyTerry(regularization_ratio=1e-5, max_iter=3)
        with self.assertRaisesRegex(ValueError, "random_state=-1"):
            NoisyBradleyTerry(random_state=-1)
        with self.assertRaisesRegex(TypeError, "n_iter=1.5"):
            NoisyBradleyTerry(n_iter=1.5)
        with self.assertRaisesRegex(TypeError, "unknown option"):
            BradleyTerry(seed=1)
        with self.assertRaisesRegex(ValueError, "no column 'worker'"):
            NoisyBradleyTerry().fit(self.frame().drop(columns="worker"))
        with self.assertRaisesRegex(ConsensusError, r"comparisons row 1 \(index 1\)"):
            BradleyTerry(prior=1).fit(pd.DataFrame([("w", "a", "b", "a"), ("w", "a", "b", "x")],
                                                   columns=["worker", "left", "right", "label"]))


class TestAgainstCrowdKit(unittest.TestCase):
    """Crowd-Kit 1.4.1's BradleyTerry stops after two MM steps (docs/pairwise.md): its weights are
    two MM steps from uniform strengths, not the maximum likelihood that BradleyTerry here finds."""

    def test_two_mm_steps(self):
        try:
            from crowdkit.aggregation import BradleyTerry as CK
        except ImportError:
            self.skipTest("Crowd-Kit (with pandas) is not importable")
        rows = [("w", "a", "b", "a"), ("w", "b", "c", "b"), ("w", "c", "a", "c"), ("w", "a", "c", "a"),
                ("w", "a", "b", "a"), ("w", "b", "c", "c"), ("w", "c", "b", "b"), ("w", "b", "a", "b")]
        df = pd.DataFrame(rows, columns=["worker", "left", "right", "label"])
        theirs = CK(n_iter=100).fit_predict(df)
        ours = BradleyTerry(n_iter=100).fit_predict(df)
        items = sorted(ours.index)
        wins = {i: sum(1 for r in rows if r[3] == i) for i in items}
        games = {(i, j): sum(1 for r in rows if {r[1], r[2]} == {i, j}) for i in items for j in items}

        def mm(p):
            q = {i: wins[i] / sum(games[i, j] / (p[i] + p[j]) for j in items if j != i) for i in items}
            total = sum(q.values())
            return {i: v / total for i, v in q.items()}

        p = {i: 1 / len(items) for i in items}
        two = mm(mm(p))
        for _ in range(5000):
            p = mm(p)
        for i in items:
            self.assertAlmostEqual(theirs[i], two[i], places=12)
            self.assertAlmostEqual(ours[i], p[i], places=9)
        self.assertGreater(max(abs(theirs[i] - ours[i]) for i in items), 1e-3)


if __name__ == "__main__":
    unittest.main()

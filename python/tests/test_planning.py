"""consensus_crowd's plan_next over ``consensus next``: the budget, the
order, the worker and task tables with values mapped back, a pool of
workers, and messages for bad arguments."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from consensus_crowd import ConsensusError, load_dataset, plan_next  # noqa: E402
from support import binary  # noqa: E402

try:
    import pandas as pd
except ImportError:
    pd = None


def setUpModule():
    binary()


def rows():
    # Two workers who agree with a third on tasks 1-6; on 7 and 8 they split.
    out = []
    for t in range(1, 9):
        for w, lab in ((10, "a" if t % 2 else "b"), (20, "a" if t % 2 else "b"), (30, "a" if t < 7 else "b")):
            out.append((t, w, lab))
    return out


class TestPlanNext(unittest.TestCase):
    def test_tables(self):
        r = plan_next(rows(), budget=3, workers=True, tasks=True, intervals=0.9)
        self.assertLessEqual(len(r.next), 3)
        gains = [x["gain"] for x in r.next]
        self.assertEqual(gains, sorted(gains, reverse=True))
        for x in r.next:
            self.assertIn(x["task"], range(1, 9))
            self.assertIn(x["label"], ("a", "b"))
            self.assertLess(x["confidence"], 0.99)
        self.assertEqual(sorted(w["worker"] for w in r.workers), [10, 20, 30])
        for w in r.workers:
            self.assertIn(w["flag"], ("spammer", "adversarial", "none"))
            self.assertLessEqual(w["accuracy_lo"], w["accuracy_hi"])
            self.assertEqual(w["labels"], 8)
        self.assertEqual(len(r.tasks), 8)
        for t in r.tasks:
            self.assertLessEqual(t["p_a_lo"], t["p_a_hi"])
            self.assertAlmostEqual(t["p_a"] + t["p_b"], 1, places=12)

    def test_pool(self):
        r = plan_next(rows(), budget=4, pool=[10, 30], per_worker=2)
        per = {}
        for x in r.next:
            per[x["worker"]] = per.get(x["worker"], 0) + 1
        self.assertTrue(all(n <= 2 for n in per.values()), per)
        with self.assertRaisesRegex(ConsensusError, "has no labels in the data"):
            plan_next(rows(), pool=[10, 99])

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "only with tasks"):
            plan_next(rows(), intervals=0.9)
        with self.assertRaisesRegex(TypeError, "budget"):
            plan_next(rows(), budget=-1)
        with self.assertRaisesRegex(ConsensusError, "--stop"):
            plan_next(rows(), stop=2.0)

    @unittest.skipIf(pd is None, "pandas is not installed")
    def test_pandas(self):
        df, _ = load_dataset("temp")
        r = plan_next(df, budget=10, workers=True)
        self.assertEqual(list(r.next_.columns), ["task", "labels", "label", "confidence", "gain", "p_change"])
        self.assertEqual(r.workers_.index.name, "worker")
        self.assertEqual(len(r.next_), 10)


if __name__ == "__main__":
    unittest.main()

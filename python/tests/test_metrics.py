"""Tests of consensus_crowd.metrics with the standard library only: the
functions give the numbers of consensus agreement, with the input's own
task and worker values, and refuse Crowd-Kit's arguments that have no
counterpart."""

import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import consensus_crowd as cc  # noqa: E402
from consensus_crowd import metrics  # noqa: E402
from support import binary, export, read_table  # noqa: E402


def setUpModule():
    binary()


class TestMetrics(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.rows = export("rte", cls.tmp.name)
        tasks = os.path.join(cls.tmp.name, "tasks.csv")
        workers = os.path.join(cls.tmp.name, "workers.csv")
        out = cli_stdout("agreement", "--dataset", "rte", "--tasks", tasks, "--workers", workers)
        cls.summary = {k: float(v) for k, v in (ln.split("\t") for ln in out.splitlines())}
        _, cls.task_rows = read_table(tasks)
        _, cls.worker_rows = read_table(workers)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_agree_with_the_cli(self):
        s = self.summary
        self.assertEqual(metrics.alpha_krippendorff(self.rows), s["krippendorff_alpha"])
        self.assertAlmostEqual(metrics.uncertainty(self.rows), s["mean_entropy"], delta=5e-7)
        self.assertAlmostEqual(metrics.consistency(self.rows), s["consistency_with_mv"], delta=5e-7)
        self.assertAlmostEqual(metrics.accuracy_on_aggregates(self.rows), s["agreement_with_mv"], delta=5e-7)
        by_task = metrics.consistency(self.rows, by_task=True)
        entropy = metrics.uncertainty(self.rows, aggregate=False)
        self.assertEqual(len(by_task), 800)
        for row in self.task_rows:  # task, labels, label, entropy, normalized_entropy, agreement, consistency
            self.assertEqual(by_task[row[0]], float(row[6]))
            self.assertEqual(entropy[row[0]], float(row[3]))
        by_worker = metrics.accuracy_on_aggregates(self.rows, by="worker")
        self.assertEqual(by_worker, {w: float(a) for w, _, a, _ in self.worker_rows})
        worker_h = metrics.uncertainty(self.rows, compute_by="worker", aggregate=False)
        self.assertEqual(worker_h, {w: float(h) for w, _, _, h in self.worker_rows})
        self.assertEqual(metrics.uncertainty(self.rows, workers_skills={w: 1 for w in worker_h}), s["mean_entropy"])
        mean = sum(by_task.values()) / len(by_task)
        self.assertTrue(math.isclose(mean, metrics.consistency(self.rows), rel_tol=1e-6))

    def test_aggregator(self):
        """consistency against another model's consensus: a class of this
        package or a model name."""
        a = metrics.consistency(self.rows, aggregator=cc.DawidSkene())
        b = metrics.consistency(self.rows, aggregator="la-ds")
        self.assertEqual(a, b)
        self.assertNotEqual(a, metrics.consistency(self.rows))

    def test_refused(self):
        for call in [lambda: metrics.uncertainty(self.rows, aggregator=cc.DawidSkene()),
                     lambda: metrics.uncertainty(self.rows, compute_by="label"),
                     lambda: metrics.uncertainty(self.rows, workers_skills={"a": 1, "b": 2}),
                     lambda: metrics.consistency(self.rows, workers_skills={"w": 1.0}),
                     lambda: metrics.accuracy_on_aggregates(self.rows, by="task"),
                     lambda: metrics.consistency(self.rows, aggregator=object())]:
            with self.assertRaises(TypeError):
                call()
        with self.assertRaises(cc.ConsensusError) as ctx:
            metrics.consistency(self.rows, aggregator="no-such-model")
        self.assertIn("unknown model", str(ctx.exception))


def cli_stdout(*args):
    import subprocess
    return subprocess.run([binary()] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          encoding="utf-8", check=True).stdout


if __name__ == "__main__":
    unittest.main()


class TestCrowdKitExample(unittest.TestCase):

    def test_uncertainty_per_worker(self):
        """Crowd-Kit's test of uncertainty per worker: B always says cat (0),
        A dog and cat twice each (ln 2), C in between."""
        rows = [("1", "A", "dog"), ("1", "B", "cat"), ("1", "C", "cat"), ("2", "A", "cat"), ("2", "B", "cat"),
                ("2", "C", "cat"), ("3", "A", "dog"), ("3", "B", "cat"), ("3", "C", "dog"), ("4", "A", "cat"),
                ("4", "B", "cat"), ("4", "C", "cat")]
        h = metrics.uncertainty(rows, {"A": 1, "B": 1, "C": 1}, compute_by="worker", aggregate=False)
        self.assertAlmostEqual(h["B"], 0, delta=1e-6)
        self.assertAlmostEqual(h["A"], 0.693147, delta=1e-6)
        self.assertTrue(h["A"] > h["C"] > h["B"])
        self.assertEqual(sum(h.values()) / 3, metrics.uncertainty(rows, compute_by="worker"))

"""Crowd-Kit's interface where its tests found it wanting (issue 40): its
arguments with its meaning, its attributes and names, pandas' errors, empty
input, multi-label data. Each test checks a result against an independent
computation or a hand-worked value. They skip without pandas."""

import math
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import consensus_crowd as cc  # noqa: E402
from support import binary  # noqa: E402

try:
    import numpy as np
    import pandas as pd
except ImportError:
    np = pd = None


def setUpModule():
    if pd is None:
        raise unittest.SkipTest("pandas is not installed (apt-get install python3-pandas)")
    binary()


def toy():
    """Crowd-Kit's toy data: five workers, five tasks, yes/no."""
    rows = {"w1": "no yes yes yes yes", "w2": "yes yes no yes no", "w3": "- yes no yes no",
            "w4": "yes no yes yes no", "w5": "no no no yes no"}
    out = []
    for w, labels in rows.items():
        for j, y in enumerate(labels.split()):
            if y != "-":
                out.append(("t%d" % (j + 1), w, y))
    return pd.DataFrame(out, columns=["task", "worker", "label"])


def em_step(df, probas):
    """One M-step and E-step of Dawid-Skene written out with dicts: the
    priors and error matrices from probas (floored at 1e-10, as
    Crowd-Kit's), then every task's posterior."""
    classes = sorted(probas.columns)
    prior = {z: probas[z].mean() for z in classes}
    counts = {}
    for t, w, y in df.itertuples(index=False):
        for z in classes:
            counts[(w, y, z)] = counts.get((w, y, z), 0.0) + probas.loc[t, z]
    eps = 1e-10
    counts = {k: max(v, eps) for k, v in counts.items()}
    total = {}
    for (w, y, z), v in counts.items():
        total[(w, z)] = total.get((w, z), 0.0) + v
    post = {}
    for t, rows in df.groupby("task"):
        logp = {z: math.log(prior[z]) for z in classes}
        for _, w, y in rows.itertuples(index=False):
            for z in classes:
                logp[z] += math.log(counts[(w, y, z)] / total[(w, z)])
        m = max(logp.values())
        norm = sum(math.exp(v - m) for v in logp.values())
        post[t] = {z: math.exp(logp[z] - m) / norm for z in classes}
    return pd.DataFrame.from_dict(post, orient="index")[classes]


class TestIterations(unittest.TestCase):
    def test_dawid_skene_steps(self):
        """n_iter=k is k plain EM steps from the majority vote; 0 is the
        vote itself (ties to the first class)."""
        df = toy()
        counts = df.groupby(["task", "label"]).size().unstack(fill_value=0)
        vote = counts.div(counts.sum(axis=1), axis=0)
        ds0 = cc.DawidSkene(n_iter=0).fit(df)
        self.assertTrue(np.allclose(ds0.probas_.loc[vote.index, vote.columns], vote, atol=1e-15))
        self.assertEqual(ds0.loss_history_, [])
        self.assertEqual(ds0.labels_["t1"], "no")  # 2 yes, 2 no: the first class
        want = vote
        for k in (1, 2, 3):
            want = em_step(df, want)
            ds = cc.DawidSkene(n_iter=k, tol=0).fit(df)
            self.assertTrue(np.allclose(ds.probas_.loc[want.index, want.columns], want, atol=1e-12), k)
            self.assertEqual(len(ds.loss_history_), k)
        self.assertEqual(ds.priors_.name, "prior")
        self.assertEqual(list(ds.errors_.index.names), ["worker", "label"])

    def test_tol_stops(self):
        """tol stops the loop when the bound per label grows by less."""
        df = toy()
        ds = cc.DawidSkene(n_iter=100, tol=1e-5).fit(df)
        h = ds.loss_history_
        self.assertLess(len(h), 100)
        self.assertLess(h[-1] - h[-2], 1e-5)
        self.assertTrue(all(b - a >= 1e-5 for a, b in zip(h[:-2], h[1:-1])))

    def test_one_coin(self):
        oc = cc.OneCoinDawidSkene(n_iter=0).fit(toy())
        # w2's skill at the start: its mean majority-vote probability of the labels it gave
        self.assertAlmostEqual(oc.skills_["w2"], (0.5 + 0.6 + 0.6 + 1.0 + 0.8) / 5, places=12)
        # Crowd-Kit's one-coin fit takes no initial error, so its strategy has no effect
        for strategy in (None, "assign", "addition"):
            fitted = cc.OneCoinDawidSkene(n_iter=0, initial_error_strategy=strategy).fit(toy())
            self.assertTrue(fitted.skills_.equals(oc.skills_))
        with self.assertRaises(ValueError):
            cc.OneCoinDawidSkene(initial_error_strategy="other")

    def test_initial_error_addition(self):
        """Crowd-Kit's inner-state example: counts added before the first
        M-step's normalisation."""
        df = toy()
        idx = pd.MultiIndex.from_product([["w2"], ["yes", "no"]], names=["worker", "label"])
        init = pd.DataFrame([[1.1, 0.9], [0.6, 0.4]], index=idx, columns=["no", "yes"])
        ds = cc.DawidSkene(n_iter=0, tol=0.0, initial_error_strategy="addition").fit(df, initial_error=init)
        self.assertAlmostEqual(ds.errors_.loc[("w2", "yes"), "yes"], 0.75, places=12)
        self.assertAlmostEqual(ds.errors_.loc[("w2", "no"), "no"], 0.5, places=12)

    def test_bradley_terry_steps(self):
        """Hunter's MM steps: one step on a beats b twice, b beats a once."""
        df = pd.DataFrame([("w", "a", "b", "a"), ("w", "a", "b", "a"), ("w", "b", "a", "b")],
                          columns=["worker", "left", "right", "label"])
        self.assertEqual(cc.BradleyTerry(n_iter=0).fit(df).scores_.tolist(), [0.5, 0.5])
        bt = cc.BradleyTerry(n_iter=1, tol=0).fit(df)
        # p_a ∝ 2 / (3 / (1/2 + 1/2)), p_b ∝ 1 / 3: 2/3 and 1/3
        self.assertTrue(np.allclose(bt.scores_.tolist(), [2 / 3, 1 / 3]))
        self.assertEqual(bt.scores_.name, "agg_score")
        self.assertEqual(cc.BradleyTerry().fit(df).scores_.name, "agg_score")

    def test_noisy_bradley_terry_tol(self):
        """func_tol (--func-tol) is SciPy's ftol: a coarse one stops the CLI's L-BFGS fit earlier."""
        rows = [("w%d" % (i % 3), "abcd"[i % 4], "abcd"[(i + 1 + i // 4) % 4]) for i in range(40)]
        rows = [(w, l, r, l if (i % 5) else r) for i, (w, l, r) in enumerate(rows) if l != r]
        df = pd.DataFrame(rows, columns=["worker", "left", "right", "label"])
        iters = re.compile(r"(\d+) iterations")
        full = cc.NoisyBradleyTerry().fit(df)
        coarse = cc.NoisyBradleyTerry(max_iter=100, func_tol=0.1).fit(df)
        self.assertLess(int(iters.search(coarse.result_.log).group(1)), int(iters.search(full.result_.log).group(1)))
        self.assertEqual(coarse.scores_.name, "agg_score")

    def test_zero_iterations(self):
        df = toy()
        zbs = cc.ZeroBasedSkill(n_iter=0).fit(df)
        self.assertTrue((zbs.skills_ == 0.5 + 1e-5).all())  # Crowd-Kit's 1/K + eps
        glad = cc.GLAD(n_iter=0).fit(df)
        self.assertTrue((glad.alphas_ == 1).all() and (glad.betas_ == 1).all())
        self.assertEqual(glad.labels_["t4"], "yes")
        # KOS(n_iter=0): Crowd-Kit's start, the signs of the random draws
        # (test_crowdkit_seeds has Crowd-Kit's labels)
        self.assertEqual(len(cc.KOS(n_iter=0).fit(df).labels_), 5)
        # MMSR's start: s = u, numpy's RandomState(0) draws, with the sign of
        # the skill-weighted agreement (w1 disagrees with its partners).
        mmsr = cc.MMSR(n_iter=0).fit(df)
        u = np.random.RandomState(0).random_sample(5)
        x = np.clip(u * [-1, 1, 1, 1, 1], -1 + 1 / math.sqrt(5), 1 - 1 / math.sqrt(5))
        p = x / 2 + 0.5
        self.assertTrue(np.allclose(mmsr.skills_.to_numpy(), np.log(p / (1 - p))))


class TestFrames(unittest.TestCase):
    def test_missing_column_is_key_error(self):
        for cls in (cc.MajorityVote, cc.Wawa, cc.DawidSkene, cc.MMSR, cc.ZeroBasedSkill):
            with self.assertRaises(KeyError):
                cls().fit(pd.DataFrame({"task": ["t1"], "label": ["a"]}))
        with self.assertRaises(KeyError):
            cc.GoldMajorityVote().fit(pd.DataFrame({"task": ["t1"], "label": ["a"]}), pd.Series({"t1": "a"}))
        with self.assertRaises(ValueError):  # and still a ValueError, as before
            cc.aggregate(pd.DataFrame({"task": ["t1"], "label": ["a"]}), "mv")

    def test_empty_input(self):
        empty = pd.DataFrame([], columns=["task", "worker", "label"])
        for cls in (cc.MajorityVote, cc.Wawa, cc.DawidSkene, cc.OneCoinDawidSkene, cc.GLAD, cc.KOS, cc.MMSR):
            m = cls().fit(empty)
            self.assertEqual(len(m.labels_), 0, cls.__name__)
            self.assertEqual(m.labels_.name, "agg_label")
        self.assertEqual(len(cc.BradleyTerry().fit(pd.DataFrame([], columns=["worker", "left", "right", "label"]))
                             .scores_), 0)

    def test_bad_input_is_value_error(self):
        three = pd.DataFrame([("t1", "a", "x"), ("t1", "b", "y"), ("t2", "a", "z")],
                             columns=["task", "worker", "label"])
        with self.assertRaises(ValueError):
            cc.KOS().fit(three)


class TestAttributes(unittest.TestCase):
    def test_mmsr(self):
        df = toy()
        m = cc.MMSR().fit(df)
        k = 2
        p = m.workers_["skill"]
        self.assertTrue(np.allclose(m.skills_, np.log((k - 1) * p / (1 - p))))
        # Crowd-Kit's skills on its toy data (its test fixture)
        want = {"w1": -0.9486439852160969, "w2": 0.9764628672747041, "w3": 1.2428113335479982,
                "w4": 0.948643985216097, "w5": 0.9764628672747041}
        for w, v in want.items():
            self.assertAlmostEqual(m.skills_[w], v, places=5)
        scores = m.predict_score(df)
        self.assertIs(scores, m.scores_)
        # t1: w1 and w5 say no, w2 and w4 yes: the weights' shares
        yes = m.skills_["w2"] + m.skills_["w4"]
        no = m.skills_["w1"] + m.skills_["w5"]
        self.assertAlmostEqual(scores.loc["t1", "yes"], yes / (yes + no), places=12)
        self.assertIs(m.predict(df), m.labels_)
        self.assertTrue(m.fit_predict_score(df).equals(scores))

    def test_mmsr_vote_signs(self):
        """labels_ is the argmax of the weighted sums: with a negative total
        (t1) the shares turn around, and with a zero total (t2) they are
        undefined, but the label is the heavier class."""
        m = cc.MMSR()
        m.skills_ = pd.Series({"a": -1.0, "b": 0.5, "c": 1.0})
        df = pd.DataFrame([("t1", "a", "x"), ("t1", "b", "y"), ("t2", "a", "x"), ("t2", "c", "y")],
                          columns=["task", "worker", "label"])
        self.assertEqual(m.predict(df).to_dict(), {"t1": "y", "t2": "y"})
        self.assertEqual(m.scores_.loc["t1"].tolist(), [2.0, -1.0])
        self.assertTrue(m.scores_.loc["t2"].isna().all())

    def test_mmsr_diverges(self):
        """The six tasks whose rank-one iteration overflows: a clear error."""
        pat = {"w1": "yes no yes yes no no", "w2": "yes no no yes no no", "w3": "yes no yes yes yes yes",
               "w4": "yes yes yes yes yes yes", "w5": "no no yes yes no no", "w6": "yes yes yes yes"}
        df = pd.DataFrame([("t%d" % (j + 1), w, y) for w, s in pat.items() for j, y in enumerate(s.split())],
                          columns=["task", "worker", "label"])
        with self.assertRaisesRegex(cc.ConsensusError, "rank-one iteration diverged") as ctx:
            cc.MMSR().fit(df)
        self.assertNotIn("internal error", str(ctx.exception))

    def test_kos_constant_workers(self):
        df = pd.DataFrame([("t1", "w1", True), ("t2", "w1", True), ("t1", "w2", True), ("t2", "w2", True),
                           ("t1", "w3", False), ("t2", "w3", False)], columns=["task", "worker", "label"])
        self.assertEqual(cc.KOS(n_iter=10).fit(df).labels_.tolist(), [True, True])

    def test_gold_several_true_labels(self):
        df = pd.DataFrame([("t1", "w1", "l1"), ("t2", "w1", "l1"), ("t3", "w1", "l1"), ("t1", "w2", "l2"),
                           ("t2", "w2", "l1"), ("t3", "w2", "l2"), ("t1", "w3", "l3"), ("t3", "w3", "l3")],
                          columns=["task", "worker", "label"])
        truth = pd.Series(["l1", "l2", "l2"], index=["t1", "t1", "t3"])
        g = cc.GoldMajorityVote()
        labels = g.fit_predict(df, truth)
        self.assertEqual(g.skills_.to_dict(), {"w1": 0.5, "w2": 1.0, "w3": 0.0})
        self.assertEqual(labels.to_dict(), {"t1": "l2", "t2": "l1", "t3": "l2"})

    def test_majority_vote_skills(self):
        df = toy()
        mv = cc.MajorityVote().fit(df)
        self.assertEqual(mv.skills_.name, "skill")
        skills = pd.Series({"w1": 1.0, "w2": 2.0, "w3": 1.0, "w4": 1.0})
        ignored = cc.MajorityVote(on_missing_skill="ignore").fit(df, skills)
        self.assertNotIn("w5", ignored.skills_.index)
        with self.assertRaisesRegex(ValueError, "tasks have no worker with a skill"):
            cc.MajorityVote(on_missing_skill="ignore").fit(df, pd.Series([], dtype=float))
        with self.assertRaisesRegex(ValueError, "no skill for worker"):
            cc.MajorityVote().fit(df, skills)
        # aggregate: an empty skills table is named as such, not as a file
        with self.assertRaisesRegex(ValueError, "skills: empty: no worker has a skill"):
            cc.aggregate(df, "mv", skills={})
        same = cc.MajorityVote(on_missing_skill="value", default_skill=2.0).fit(df, pd.Series([], dtype=float))
        self.assertTrue(same.probas_.equals(cc.MajorityVote().fit(df).probas_))

    def test_glad_mace_attributes(self):
        df = toy()
        glad = cc.GLAD().fit(df)
        self.assertEqual(glad.priors_.to_dict(), {"no": 0.5, "yes": 0.5})
        mace = cc.MACE().fit(df)
        self.assertEqual(mace.spamming_.shape, (5, 2))
        self.assertTrue(np.allclose(mace.spamming_.sum(axis=1), 1))
        self.assertTrue(np.allclose(mace.thetas_.sum(axis=1), 1))
        ck = cc.MACE(n_restarts=1, n_iter=5, method="em").fit(df)
        self.assertEqual(ck.thetas_.shape, (5, 2))
        self.assertTrue(np.allclose(ck.spamming_.sum(axis=1), 1))
        self.assertEqual(ck.labels_.to_dict(), {"t1": "yes", "t2": "yes", "t3": "no", "t4": "yes", "t5": "no"})
        for cls in (cc.DawidSkene, cc.GLAD, cc.MajorityVote, cc.Wawa):
            self.assertIsInstance(cls().fit(df).loss_history_, list)


class TestBinaryRelevance(unittest.TestCase):
    def test_sets(self):
        df = pd.DataFrame([("t1", "w1", ["house", "tree"]), ("t1", "w2", ["house"]), ("t1", "w3", ["house", "tree"]),
                           ("t2", "w1", ["car"]), ("t2", "w2", ["car", "tree"]), ("t2", "w3", [])],
                          columns=["task", "worker", "label"])
        for base in (cc.MajorityVote(), cc.DawidSkene(n_iter=10), cc.Wawa()):
            br = cc.BinaryRelevance(base)
            labels = br.fit_predict(df)
            self.assertEqual(labels.to_dict(), {"t1": ["house", "tree"], "t2": ["car"]})
            self.assertEqual(sorted(br.aggregators_), ["car", "house", "tree"])
        with self.assertRaisesRegex(ValueError, "not a collection"):
            cc.BinaryRelevance().fit(pd.DataFrame([("t1", "w1", "house")], columns=["task", "worker", "label"]))


if __name__ == "__main__":
    unittest.main()

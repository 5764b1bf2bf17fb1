"""Tests of the pandas side: DataFrame input, the *_ attributes and the
Crowd-Kit-named classes. They skip when pandas is not installed."""

import math
import os
import re
import sys
import tempfile
import unittest

try:
    import numpy as np
except ImportError:  # pandas brings numpy; without pandas these tests skip
    np = None

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import consensus_crowd as cc  # noqa: E402
from support import binary, cli, export, read_table  # noqa: E402

try:
    import pandas as pd
except ImportError:
    pd = None


def setUpModule():
    if pd is None:
        raise unittest.SkipTest("pandas is not installed (apt-get install python3-pandas or pip install pandas)")
    binary()


class RTE(unittest.TestCase):
    """Tests on the shipped rte data set, read as Crowd-Kit users read it."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        export("rte", cls.tmp.name)
        cls.df = pd.read_csv(os.path.join(cls.tmp.name, "labels.csv"))  # int tasks and labels, str workers

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def cli_fit(self, model, *args):
        out = os.path.join(self.tmp.name, model + ".csv")
        log = cli("fit", "--dataset", "rte", "--model", model, "--output", out, *args)
        header, rows = read_table(out)
        ps = [h for h in header[2:] if h.startswith("p_")]  # vb-ds adds q_ columns after them
        probas = {int(r[0]): [float(x) for x in r[2:2 + len(ps)]] for r in rows}
        return [int(h[2:]) for h in ps], probas, log

    def assert_probas(self, frame, classes, probas):
        self.assertEqual(list(frame.columns), classes)
        self.assertEqual(len(frame), len(probas))
        for task, row in frame.iterrows():
            self.assertEqual(row.tolist(), probas[task])

    def test_classes_agree_with_the_cli(self):
        for cls, model in [(cc.DawidSkene, "la-ds"), (cc.Consensus, "vb-ds"), (cc.MajorityVote, "mv"),
                           (cc.Wawa, "wawa"), (cc.OneCoinDawidSkene, "la-onecoin")]:
            with self.subTest(model):
                classes, probas, _ = self.cli_fit(model, "-q")
                agg = cls()
                labels = agg.fit_predict(self.df)
                self.assertEqual(labels.name, "agg_label")
                self.assertEqual(labels.index.name, "task")
                self.assertEqual(labels.dtype, "int64")
                self.assert_probas(agg.probas_, classes, probas)
                self.assertTrue((labels == agg.probas_.idxmax(axis=1)).all() or model in ("mv", "wawa"))

    def test_true_labels(self):
        gold = pd.read_csv(os.path.join(self.tmp.name, "gold.csv"), index_col="task")["label"]
        train = gold.iloc[::2]
        path = os.path.join(self.tmp.name, "train.csv")
        train.to_csv(path)
        for cls, model in [(cc.GoldMajorityVote, "gmv"), (cc.DawidSkene, "la-ds")]:
            with self.subTest(model):
                classes, probas, _ = self.cli_fit(model, "--train-gold", path, "-q")
                agg = cls()
                agg.fit(self.df, train)
                self.assert_probas(agg.probas_, classes, probas)
                if model == "la-ds":  # clamped; gmv votes on every task
                    self.assertTrue((agg.labels_[train.index] == train).all())
        with self.assertRaises(TypeError) as ctx:
            cc.GoldMajorityVote().fit(self.df)
        self.assertIn("true_labels", str(ctx.exception))

    def test_init_workers_from_a_frame(self):
        """workers_ of one fit holds the workers of the next as the Result
        itself does: the tasks of even id by workers of the odd ones."""
        odd, even = self.df[self.df.task % 2 == 1], self.df[self.df.task % 2 == 0]
        old = cc.aggregate(odd, "la-ds")
        by_result = cc.aggregate(even, "la-ds", init_workers=old, fix_workers=True)
        by_frame = cc.aggregate(even, "la-ds", init_workers=old.workers_, fix_workers=True)
        self.assertEqual(by_frame.probas, by_result.probas)
        self.assertEqual(by_frame.workers, by_result.workers)
        common = by_frame.workers_.index.intersection(old.workers_.index)
        self.assertGreater(len(common), 0)
        cols = ["p[0,0]", "p[0,1]", "p[1,0]", "p[1,1]"]
        diff = (by_frame.workers_.loc[common, cols] - old.workers_.loc[common, cols]).abs().max().max()
        self.assertLess(diff, 1e-12)

    def test_dawid_skene_attributes(self):
        ds = cc.DawidSkene(max_iter=100).fit(self.df)
        _, _, log = self.cli_fit("la-ds", "--max-iter", "100")
        # priors_: the mean of probas_, which the summary prints to 4 places
        m = re.search(r"class prior: 0 ([0-9.]+), 1 ([0-9.]+)", log)
        self.assertIsNotNone(m, log)
        self.assertAlmostEqual(ds.priors_[0], float(m.group(1)), delta=5e-5)
        self.assertAlmostEqual(ds.priors_[1], float(m.group(2)), delta=5e-5)
        self.assertEqual(ds.priors_.name, "prior")
        # errors_: P(observed | true), so every (worker, true) column sums to 1
        self.assertEqual(ds.errors_.index.names, ["worker", "label"])
        self.assertEqual(len(ds.errors_), 2 * self.df.worker.nunique())
        sums = ds.errors_.groupby(level="worker").sum()
        self.assertTrue(((sums - 1).abs() < 1e-12).all().all())
        w = ds.workers_.iloc[0]
        self.assertEqual(ds.errors_.loc[(w.name, 1), 0], w["p[0,1]"])
        self.assertEqual(list(ds.skills_.index), list(ds.workers_.index))

    def test_one_coin_errors(self):
        oc = cc.OneCoinDawidSkene().fit(self.df)
        w = oc.skills_.index[0]
        self.assertEqual(oc.errors_.loc[(w, 0), 0], oc.skills_[w])
        self.assertAlmostEqual(oc.errors_.loc[(w, 1), 0], 1 - oc.skills_[w])

    def test_dawid_skene_initial_error(self):
        """initial_error with the 'assign' strategy is a start from those
        matrices (init_workers), in counts or in probabilities."""
        ds = cc.DawidSkene(max_iter=100).fit(self.df)
        via = cc.aggregate(self.df, "la-ds", init_workers=ds.result_, max_iter=100)
        for scale in [1, 10]:
            again = cc.DawidSkene(max_iter=100, initial_error_strategy="assign").fit(
                self.df, initial_error=ds.errors_ * scale)
            diff = (again.probas_ - via.probas_).abs().max().max()
            self.assertLess(diff, 1e-9)
            self.assertIn("164 of 164 workers start from", again.result_.log)
        with self.assertRaises(TypeError):
            cc.DawidSkene(initial_error_strategy="addition", max_iter=5)  # Crowd-Kit's loop only
        with self.assertRaises(TypeError) as ctx:
            cc.DawidSkene().fit(self.df, initial_error=ds.errors_)
        self.assertIn("initial_error_strategy='assign'", str(ctx.exception))
        partial = ds.errors_.drop(index=ds.errors_.index.get_level_values(0)[0], level=0)
        with self.assertRaises(ValueError) as ctx:
            cc.DawidSkene(initial_error_strategy="assign").fit(self.df, initial_error=partial)
        self.assertIn("no error matrix for worker", str(ctx.exception))

    def test_predict_with_fitted_skills(self):
        """Wawa, ZeroBasedSkill and GoldMajorityVote predict as Crowd-Kit's:
        the vote weighted by their skills_, which on the data they were fitted
        to is their own consensus, bit for bit; on other tasks by the same
        workers, a weighted vote."""
        gold = self.df.groupby("task").label.first()  # any labels: gmv needs some
        for make, fit in [(cc.Wawa, lambda m: m.fit(self.df)), (cc.ZeroBasedSkill, lambda m: m.fit(self.df)),
                          (cc.GoldMajorityVote, lambda m: m.fit(self.df, gold))]:
            with self.subTest(model=make.__name__):
                m = fit(make())
                fitted = m.probas_
                again = m.predict_proba(self.df)
                self.assertEqual(again.to_dict(), fitted.to_dict())
                part = self.df[self.df.task % 3 == 0]
                labels = m.predict(part)
                self.assertEqual(set(labels.index), set(part.task))
                self.assertEqual(len(m.probas_), part.task.nunique())
        with self.assertRaises(ValueError):
            cc.Wawa().predict(self.df)

    def test_weighted_majority_vote(self):
        """MajorityVote.fit(data, skills) is the CLI's --skills, to the last
        bit; skills_ is the agreement with the consensus; on_missing_skill
        decides about a worker without a skill."""
        workers = sorted(self.df.worker.unique())
        skills = pd.Series({w: 0.1 + (i % 7) / 10 for i, w in enumerate(workers)})
        path = os.path.join(self.tmp.name, "skills.csv")
        skills.rename("skill").rename_axis("worker").to_csv(path)
        classes, probas, log = self.cli_fit("mv", "--skills", path)
        self.assertIn("164 of 164 workers have a skill", log)
        mv = cc.MajorityVote().fit(self.df, skills)
        self.assert_probas(mv.probas_, classes, probas)
        agree = (self.df.label == self.df.task.map(mv.labels_)).groupby(self.df.worker).mean()
        self.assertTrue(((mv.skills_ - agree[mv.skills_.index]).abs() < 1e-12).all())
        partial = skills.iloc[:-1]
        with self.assertRaises(ValueError) as ctx:
            cc.MajorityVote().fit(self.df, partial)
        self.assertIn("no skill for worker %r" % workers[-1], str(ctx.exception))
        by_value = cc.MajorityVote(on_missing_skill="value", default_skill=skills.iloc[-1]).fit(self.df, partial)
        self.assertEqual(by_value.probas_.to_dict(), mv.probas_.to_dict())
        ignored = cc.MajorityVote(on_missing_skill="ignore").fit(self.df, partial)
        self.assertEqual(len(ignored.probas_), len(mv.probas_))
        with self.assertRaises(ValueError):
            cc.MajorityVote(on_missing_skill="value")
        with self.assertRaises(ValueError):
            cc.MajorityVote(on_missing_skill="sometimes")

    def test_vote_skills(self):
        # Wawa's skills_ are each worker's agreement with the majority vote
        # (ties to the first class), computed here from the labels.
        counts = self.df.groupby(["task", "label"]).size().unstack(fill_value=0)
        mv = counts.idxmax(axis=1)
        agree = (self.df.label == self.df.task.map(mv)).groupby(self.df.worker).mean()
        wawa = cc.Wawa().fit(self.df)
        self.assertEqual(len(wawa.skills_), self.df.worker.nunique())
        for w, s in wawa.skills_.items():
            self.assertAlmostEqual(s, agree[w], places=12)
        for cls in (cc.ZeroBasedSkill, cc.MMSR):
            m = cls().fit(self.df)
            self.assertEqual(list(m.skills_.index), list(m.workers_.index))
        # MMSR's skills_ are Crowd-Kit's vote weights, the log-odds of the
        # one-coin accuracy p (the CLI's skill column) with K = 2 classes.
        mmsr = cc.MMSR().fit(self.df)
        p = mmsr.workers_["skill"]
        self.assertTrue(((mmsr.skills_ - np.log(p / (1 - p))).abs() < 1e-12).all())
        self.assertEqual(mmsr.skills_.name, "skill")

    def test_n_iter_reaches_the_cli(self):
        # zbs, kos and mmsr take --max-iter as their own iteration count:
        # one iteration gives other probabilities than the default. (KOS
        # and ZeroBasedSkill with n_iter named run Crowd-Kit's, in Python.)
        for cls, n_iter in ((cc.ZeroBasedSkill, "max_iter"), (cc.KOS, "max_iter"), (cc.MMSR, "n_iter")):
            one, default = cls(**{n_iter: 1}).fit(self.df), cls().fit(self.df)
            self.assertFalse(one.probas_.equals(default.probas_), cls.__name__)

    def test_glad_attributes(self):
        g = cc.GLAD().fit(self.df)
        self.assertEqual(len(g.betas_), self.df.task.nunique())
        tasks, workers = g.result_.tasks_, g.result_.workers_
        t = tasks.index[0]
        self.assertEqual(g.betas_[t], math.log(tasks.loc[t, "difficulty"]))
        self.assertEqual(list(g.alphas_), list(workers["ability"]))
        # workers_ and tasks_ are the names in order of first appearance, as Crowd-Kit's
        self.assertEqual(list(g.workers_), list(self.df.worker.unique()))
        self.assertEqual(list(g.tasks_), list(self.df.task.unique()))

    def test_load_dataset(self):
        # Crowd-Kit's shape: a DataFrame of the labels in the file's order,
        # every value text, and the gold labels as a Series "true_label"
        # indexed by "task".
        df, gt = cc.load_dataset("rte")
        self.assertEqual(list(df.columns), ["task", "worker", "label"])
        self.assertEqual(len(df), len(self.df))
        self.assertTrue((df.task == self.df.task.astype(str)).all())
        self.assertTrue((df.worker == self.df.worker.astype(str)).all())
        self.assertEqual((gt.name, gt.index.name, len(gt)), ("true_label", "task", 800))
        acc = (cc.DawidSkene().fit_predict(df).reindex(gt.index) == gt).mean()
        self.assertAlmostEqual(acc, 0.9275, places=4)  # la-ds on rte, as docs/crowdkit.md

    def test_glad_prior_as_crowdkit(self):
        # GLAD() fits Crowd-Kit's priors N(1, 1) (--glad-prior 1), whose
        # optimum is finite; glad_prior=0 is the paper's maximum likelihood,
        # which stops at its iteration limit with other probabilities.
        default, prior1 = cc.GLAD().fit(self.df), cc.GLAD(glad_prior=1).fit(self.df)
        self.assertTrue(default.probas_.equals(prior1.probas_))
        direct = cc.aggregate(self.df, "la-glad", glad_prior=1.0)
        self.assertTrue(default.probas_.equals(direct.probas_))
        ml = cc.GLAD(glad_prior=0, max_iter=50).fit(self.df)
        self.assertFalse(ml.probas_.equals(default.probas_))

    def test_every_class_fits(self):
        for cls in [cc.MajorityVote, cc.Wawa, cc.ZeroBasedSkill, cc.DawidSkene, cc.OneCoinDawidSkene, cc.GLAD,
                    cc.MACE, cc.KOS, cc.MMSR, cc.Consensus, cc.Auto]:
            with self.subTest(cls.__name__):
                p = cls().fit_predict_proba(self.df)
                self.assertEqual(p.shape, (800, 2))
                self.assertTrue(((p.sum(axis=1) - 1).abs() < 1e-9).all())
                self.assertEqual(sorted(p.index), sorted(self.df.task.unique()))


class TestFrames(unittest.TestCase):

    def test_column_names_and_ids(self):
        df = pd.DataFrame({
            "item": ["0001", "0001", "0002", "0002", "0003", "0003"],
            "annotator": ["a", "b", "a", "b", "a", "b"],
            "answer": [1, 1, 0, 0, 1, 0],
        })
        r = cc.aggregate(df, "mv", task_column="item", worker_column="annotator", label_column="answer")
        self.assertEqual(list(r.labels_.index), ["0001", "0002", "0003"])
        self.assertEqual(r.labels_["0001"], 1)
        self.assertEqual(r.labels_.dtype, "int64")
        self.assertEqual(r.classes, [0, 1])
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(df)
        self.assertIn("no column 'task', 'worker', 'label'", str(ctx.exception))

    def test_missing_values_name_the_row(self):
        df = pd.DataFrame({"task": ["x", "y"], "worker": ["a", "b"], "label": ["p", None]}, index=[10, 20])
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(df)
        self.assertIn("labels row 1 (index 20): label is missing", str(ctx.exception))
        df = pd.DataFrame({"task": ["x", "y"], "worker": ["a", "b"], "label": pd.array([1, None], dtype="Int64")})
        with self.assertRaises(ValueError) as ctx:
            cc.aggregate(df)
        self.assertIn("label is missing", str(ctx.exception))

    def test_crowdkit_parameters(self):
        accepted = [
            lambda: cc.DawidSkene(100),
            lambda: cc.DawidSkene(max_iter=50, seed=3, threads=1),
            lambda: cc.DawidSkene(n_iter=50, tol=1e-5),
            lambda: cc.ZeroBasedSkill(n_iter=100, lr_init=1.0),
            lambda: cc.KOS(n_iter=10, random_state=0),
            lambda: cc.ZeroBasedSkill(n_iter=50),
            lambda: cc.MMSR(n_iter=10000, tol=1e-10, random_state=0),
            lambda: cc.GLAD(silent=False, glad_prior=4.0),
            lambda: cc.MajorityVote(on_missing_skill="error"),
            lambda: cc.MACE(verbose=1),
            lambda: cc.Consensus("vb-hda-ds", q_prior=1.0),
            lambda: cc.Auto(auto_models=["vb-da-ds", "vb-la-ds"]),
        ]
        for make in accepted:
            make()
        refused = [
            (lambda: cc.DawidSkene(n_iter=50, seed=3), "runs Crowd-Kit's iterations, which take no option seed"),
            (lambda: cc.ZeroBasedSkill(lr_init=0.5, seed=1), "runs Crowd-Kit's ZBS, which takes no option seed"),
            (lambda: cc.KOS(random_state=3, max_iter=5), "runs Crowd-Kit's KOS, which takes no option max_iter"),
            (lambda: cc.KOS(n_iter=5, max_iter=5), "takes no option max_iter"),
            (lambda: cc.MACE(n_restarts=10, max_iter=5), "runs Crowd-Kit's fit, which takes no option max_iter"),
            (lambda: cc.GLAD(labels_priors=[0.5, 0.5], glad_prior=1), "take no option glad_prior"),
            (lambda: cc.DawidSkene(n_iter=5, max_iter=5), "take no option max_iter"),
            (lambda: cc.Wawa(n_iter=5), "unexpected keyword argument 'n_iter'"),
            (lambda: cc.Consensus(q_prior="sharp"), "q_prior must be a number"),
            (lambda: cc.Auto(model="la-ds"), "Auto() chooses the model"),
        ]
        for make, want in refused:
            with self.assertRaises(TypeError) as ctx:
                make()
            self.assertIn(want, str(ctx.exception))


if __name__ == "__main__":
    unittest.main()

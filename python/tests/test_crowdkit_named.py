"""Crowd-Kit's settings named, Crowd-Kit's meaning: GLAD(n_iter, tol, ...)
runs Crowd-Kit's EM with SciPy's conjugate-gradient M-steps
(consensus_crowd._ckglad and _cg); KOS(n_iter, random_state) runs
Crowd-Kit's KOS from numpy's RandomState(random_state).normal(1, 1) draws;
MMSR(random_state) starts from its random_sample draws (the CLI's
--random-state). The expected numbers are Crowd-Kit 1.4.1's (on its toy
data, printed with repr; SciPy 1.10); the conjugate gradients are compared
with SciPy's own where SciPy is installed. They skip without pandas."""

import math
import os
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

try:
    from scipy import optimize
except ImportError:
    optimize = None


def setUpModule():
    if pd is None:
        raise unittest.SkipTest("pandas is not installed (apt-get install python3-pandas)")


def toy():
    """Crowd-Kit's toy data in its row order: five workers, five tasks."""
    rows = {"w1": "no yes yes yes yes", "w2": "yes yes no yes no", "w3": "- yes no yes no",
            "w4": "yes no yes yes no", "w5": "no no no yes no"}
    return pd.DataFrame([(w, "t%d" % (j + 1), y) for w, labels in rows.items()
                         for j, y in enumerate(labels.split()) if y != "-"], columns=["worker", "task", "label"])


class TestConjugateGradients(unittest.TestCase):
    def test_iterates_equal_scipy(self):
        if optimize is None:
            self.skipTest("SciPy is not installed")
        from consensus_crowd import _cg
        rng = np.random.RandomState(1)
        a = rng.randn(6, 6)
        a = a @ a.T + 0.1 * np.eye(6)
        b = rng.randn(6)
        cases = [
            ("rosenbrock", optimize.rosen, optimize.rosen_der, np.array([-1.2, 1, 0.5, 2.0])),
            ("quadratic", lambda x: 0.5 * x @ a @ x - b @ x, lambda x: a @ x - b, np.zeros(6)),
            ("softplus", lambda x: np.sum(np.logaddexp(0, 3 * x - 1)) + 0.05 * np.sum(x ** 4),
             lambda x: 3 / (1 + np.exp(1 - 3 * x)) + 0.2 * x ** 3, rng.randn(5) * 3),
        ]
        for name, f, g, x0 in cases:
            for gtol, maxiter in [(1e-2, 25), (1e-5, 3), (1e-8, 200)]:
                with self.subTest(name=name, gtol=gtol, maxiter=maxiter):
                    want = optimize.minimize(f, x0, method="CG", jac=g, tol=gtol, options={"maxiter": maxiter}).x
                    self.assertTrue(np.array_equal(_cg.minimize(f, g, x0, gtol, maxiter), want))


class TestGLADCrowdKit(unittest.TestCase):
    def test_crowdkit_iterates(self):
        # Crowd-Kit: GLAD(n_iter=3, tol=0).fit(toy)
        g = cc.GLAD(n_iter=3, tol=0).fit(toy())
        np.testing.assert_allclose(g.loss_history_, [-0.45122847843985, -0.44196690069657524, -0.43924251329323694],
                                   rtol=0, atol=1e-12)
        alphas = {"w1": -0.022491508897443842, "w2": 1.1189252528096891, "w3": 1.194242801306722,
                  "w4": 0.32671010296097736, "w5": 0.5415114619766227}
        betas = {"t1": 0.5034304697141748, "t2": 0.40401719893714366, "t3": 0.9650878362322142,
                 "t4": 1.490007477937767, "t5": 1.54810205756291}
        yes = {"t1": 0.7811628901788792, "t2": 0.8890264727955157, "t3": 0.001451943584572932,
               "t4": 0.9999994611676639, "t5": 6.392346115616664e-07}
        for got, want in [(g.alphas_, alphas), (g.betas_, betas), (g.probas_["yes"], yes)]:
            np.testing.assert_allclose(got[list(want)].to_numpy(), list(want.values()), rtol=0, atol=1e-10)
        self.assertEqual(list(g.labels_), ["yes", "yes", "no", "yes", "no"])
        self.assertEqual((g.alphas_.name, g.alphas_.index.name, list(g.alphas_.index)),
                         ("alpha", "worker", ["w1", "w2", "w3", "w4", "w5"]))
        self.assertEqual((g.betas_.name, g.betas_.index.name), ("beta", "task"))
        self.assertEqual((g.probas_.index.name, g.probas_.columns.name, list(g.probas_.columns)),
                         ("task", "variable", ["no", "yes"]))
        self.assertEqual((list(g.workers_), list(g.tasks_)), (list(alphas), list(betas)))

    def test_crowdkit_settings(self):
        # Crowd-Kit: GLAD(m_step_max_iter=2, n_iter=4, tol=0,
        # labels_priors=pd.Series({"no": 0.3, "yes": 0.7})).fit(toy)
        prior = pd.Series({"no": 0.3, "yes": 0.7})
        g = cc.GLAD(m_step_max_iter=2, n_iter=4, tol=0, labels_priors=prior).fit(toy())
        np.testing.assert_allclose(g.loss_history_, [-0.45946682123854393, -0.44213187898093526,
                                                     -0.430902551239474, -0.4274567734833605], rtol=0, atol=1e-10)
        np.testing.assert_allclose(g.alphas_.to_numpy(), [-0.01753903191613289, 1.3118670988807497,
                                                          1.2733922810670069, 0.35587411462705126,
                                                          0.37987838883641606], rtol=0, atol=1e-8)
        self.assertTrue(g.priors_.equals(prior))

    def test_stopping_rule(self):
        # Crowd-Kit: GLAD(tol=1e-3) stops after 6 iterations, the last
        # gaining less than 1e-3. The first iteration is compared with the
        # start's Q itself (-30.09), not Q per label and class (-0.451 after
        # it), so tol=1 stops the fit after two iterations, tol=30 after one.
        g = cc.GLAD(tol=1e-3).fit(toy())
        self.assertEqual(len(g.loss_history_), 6)
        np.testing.assert_allclose(g.loss_history_[-2:], [-0.43646803929880584, -0.4356813797525046], atol=1e-12)
        gains = np.diff(g.loss_history_)
        self.assertLess(gains[-1], 1e-3)
        self.assertTrue((gains[:-1] >= 1e-3).all())
        self.assertEqual(len(cc.GLAD(tol=1).fit(toy()).loss_history_), 2)
        self.assertEqual(len(cc.GLAD(tol=30).fit(toy()).loss_history_), 1)

    def test_start(self):
        # n_iter=0: every α = β = 1, so every label is right with
        # probability σ(e); t4 has five "yes" and no "no".
        g = cc.GLAD(n_iter=0).fit(toy())
        self.assertTrue((g.alphas_ == 1).all() and (g.betas_ == 1).all())
        self.assertEqual(g.loss_history_, [])
        right = 1 / (1 + math.exp(-math.e))
        odds = (right / (1 - right)) ** 5
        self.assertAlmostEqual(g.probas_.loc["t4", "yes"], odds / (1 + odds), places=14)

    def test_one_class_has_no_nan(self):
        # With one class there is no wrong class (Crowd-Kit's 0 · log 0 is
        # NaN): every task gets the class with probability 1.
        df = pd.DataFrame({"task": ["t1", "t1", "t2"], "worker": ["a", "b", "a"], "label": ["x", "x", "x"]})
        g = cc.GLAD(n_iter=3).fit(df)
        self.assertEqual(g.probas_["x"].tolist(), [1.0, 1.0])
        self.assertEqual(g.labels_.tolist(), ["x", "x"])
        self.assertTrue(np.isfinite(g.loss_history_).all() and np.isfinite(g.alphas_).all())

    def test_gradient_is_the_objectives(self):
        from consensus_crowd import _ckglad
        fit, _, _, _ = _ckglad.fit(pd, toy(), 2, 0, 25, 1e-2)
        alpha, beta = fit.alpha.copy(), fit.beta.copy()
        da, db = fit.q_gradient(alpha, beta)
        h = 1e-6
        for i in range(len(alpha)):
            up, down = alpha.copy(), alpha.copy()
            up[i] += h
            down[i] -= h
            self.assertAlmostEqual((fit.q_value(up, beta) - fit.q_value(down, beta)) / (2 * h), da[i], places=6)
        for j in range(len(beta)):
            up, down = beta.copy(), beta.copy()
            up[j] += h
            down[j] -= h
            self.assertAlmostEqual((fit.q_value(alpha, up) - fit.q_value(alpha, down)) / (2 * h), db[j], places=6)

    def test_refusals(self):
        for make, err, want in [
            (lambda: cc.GLAD(n_iter=5, max_iter=5), TypeError, "take no option max_iter"),
            (lambda: cc.GLAD(m_step_max_iter=-1), TypeError, "m_step_max_iter=-1"),
            (lambda: cc.GLAD(m_step_tol="x"), TypeError, "m_step_tol='x'"),
        ]:
            with self.assertRaises(err) as ctx:
                make()
            self.assertIn(want, str(ctx.exception))
        with self.assertRaisesRegex(ValueError, "no mean for worker 'w5'"):
            cc.GLAD(alphas_priors_mean=pd.Series(1.0, index=["w1", "w2", "w3", "w4"])).fit(toy())
        with self.assertRaisesRegex(TypeError, "takes no true_labels"):
            cc.GLAD(n_iter=2).fit(toy(), {"t1": "yes"})

    def test_unnamed_is_the_converged_fit(self):
        binary()
        g = cc.GLAD().fit(toy())
        self.assertIsNotNone(g.result_)
        self.assertEqual(g.result_.model, "la-glad")
        self.assertEqual(len(g.loss_history_), 1)


class TestGLADPrivateMethods(unittest.TestCase):
    """Crowd-Kit's private GLAD methods on its long table, as a subclass or
    Crowd-Kit's tests call them; the numbers are Crowd-Kit 1.4.1's
    (scripts/crowdkit-expected.py)."""

    def test_as_crowdkit(self):
        g, df = cc.GLAD(), toy()
        g._init(df)
        self.assertEqual((list(g.workers_), list(g.tasks_)), (["w1", "w2", "w3", "w4", "w5"],
                                                              ["t1", "t2", "t3", "t4", "t5"]))
        table = g._e_step(g._join_all(df, g.alphas_, g.betas_, g.priors_))
        self.assertEqual(len(table), 2 * len(df))
        yes = [0.5, 0.9380968325850061, 0.06190316741499357, 0.9999987488036614, 0.00028725714039173135]
        np.testing.assert_allclose(g.probas_["yes"].to_numpy(), yes, rtol=0, atol=1e-14)
        g._current_data = table
        x = np.concatenate([g.alphas_.to_numpy(), g.betas_.to_numpy()]) * 1.1
        g._update_alphas_betas(*g._get_alphas_betas_by_point(x))
        self.assertAlmostEqual(g._compute_Q(g._current_data), -33.64881906647855, places=12)
        d_alpha, d_beta = g._gradient_Q(g._current_data)
        np.testing.assert_allclose(d_alpha.to_numpy(), [-7.0776034801507794, -1.4429321531860995,
                                                        -0.047239615287988944, -6.707394631787798,
                                                        -4.075163392486949], rtol=0, atol=1e-12)
        np.testing.assert_allclose(d_beta.to_numpy(), [-6.241047166751688, -6.328581776824139, -6.328581776824139,
                                                       0.48512693400467133, -2.8222828137942852], rtol=0, atol=1e-12)
        g._m_step(g._current_data)
        np.testing.assert_allclose(g.alphas_.to_numpy(), [0.0990971792372588, 0.9693744999872563,
                                                          1.1800277392713099, 0.3182536571849938,
                                                          0.5899873152235664], rtol=0, atol=1e-9)

    def test_gradient_is_the_objectives(self):
        g, df = cc.GLAD(), toy()
        g._init(df)
        g._current_data = g._e_step(g._join_all(df, g.alphas_, g.betas_, g.priors_))
        x0 = np.linspace(0.5, 1.5, len(g.workers_) + len(g.tasks_))
        grad = -g._optimize_df(x0)
        h = 1e-6
        for i in range(len(x0)):
            up, down = x0.copy(), x0.copy()
            up[i] += h
            down[i] -= h
            self.assertAlmostEqual((g._optimize_f(down) - g._optimize_f(up)) / (2 * h), grad[i], places=6)


class TestZeroBasedSkillCrowdKit(unittest.TestCase):
    """ZeroBasedSkill with Crowd-Kit's settings named runs Crowd-Kit's ZBS;
    the numbers are Crowd-Kit 1.4.1's on the toy data with w1's first four
    labels given twice (scripts/crowdkit-expected.py)."""

    def test_as_crowdkit(self):
        repeated = pd.concat([toy(), toy().iloc[:4]])
        for kw, want in [
            (dict(n_iter=0), [0.50001] * 5),
            (dict(eps=0.1, n_iter=3), [0.6, 0.8, 1.0, 0.4, 0.8]),
            (dict(lr_init=0.3, lr_steps_to_reduce=3, lr_reduce_factor=0.9, n_iter=30),
             [0.5998265988491904, 0.799479761863873, 0.9991329248785555, 0.40017343583450804, 0.799479761863873]),
        ]:
            with self.subTest(**kw):
                z = cc.ZeroBasedSkill(**kw)
                labels = z.fit_predict(repeated)
                np.testing.assert_allclose(z.skills_.sort_index().to_numpy(), want, rtol=0, atol=1e-15)
                self.assertEqual(labels.sort_index().tolist(), ["no", "yes", "no", "yes", "no"])
                self.assertIsNone(z.result_)

    def test_refusals(self):
        for make, want in [
            (lambda: cc.ZeroBasedSkill(eps=0.1, max_iter=5), "runs Crowd-Kit's ZBS, which takes no option max_iter"),
            (lambda: cc.ZeroBasedSkill(lr_steps_to_reduce=0), "lr_steps_to_reduce=0): want an int at least 1"),
            (lambda: cc.ZeroBasedSkill(eps="x"), "eps='x'): want a finite number"),
        ]:
            with self.assertRaises(TypeError) as ctx:
                make()
            self.assertIn(want, str(ctx.exception))

    def test_unnamed_is_the_clis(self):
        binary()
        z = cc.ZeroBasedSkill().fit(toy())
        self.assertEqual(z.result_.model, "zbs")


class TestNoisyBradleyTerryCrowdKit(unittest.TestCase):
    """NoisyBradleyTerry with Crowd-Kit's settings named runs Crowd-Kit's
    fit (SciPy's L-BFGS-B on its objective and gradient); the numbers are
    Crowd-Kit 1.4.1's on its tests' data_equal (scripts/crowdkit-expected.py)."""

    def setUp(self):
        if optimize is None:
            self.skipTest("SciPy is not installed")
        self.equal = pd.DataFrame([("w1", "a", "b", "a"), ("w1", "b", "c", "b"), ("w1", "c", "a", "c")],
                                  columns=["worker", "left", "right", "label"])

    def test_as_crowdkit(self):
        for kw, scores, skill, bias in [
            # the line search fails at once: σ of the start's draws
            (dict(n_iter=100), [0.6715468044437242, 0.6462882683525435, 0.632947637600415],
             0.6560846148735882, 0.6043574796303949),
            (dict(regularization_ratio=0.1, random_state=5), [0.7048980528306481, 0.5514965366701033,
                                                             0.7147589840919817], 0.6483384980823951,
             0.6197320776673426),
        ]:
            with self.subTest(**kw):
                m = cc.NoisyBradleyTerry(**kw).fit(self.equal)
                np.testing.assert_allclose(m.scores_.to_numpy(), scores, rtol=0, atol=1e-12)
                self.assertAlmostEqual(m.skills_["w1"], skill, places=12)
                self.assertAlmostEqual(m.biases_["w1"], bias, places=12)
                self.assertEqual((m.scores_.name, m.scores_.index.name, m.skills_.name, m.biases_.name),
                                 ("agg_score", "label", "skill", "bias"))
                self.assertIsNone(m.result_)

    def test_gradient_is_crowdkits(self):
        # Crowd-Kit's gradient is not its objective's: with one worker, the
        # bias term of its last comparison is assigned to the last item's
        # slot (c), replacing c's sum, and the skill term to the bias slot;
        # the skill slot stays 0.
        from consensus_crowd import _cknbt
        items, codes, workers, w = _cknbt._codes(pd, self.equal)
        problem = _cknbt._Problem(codes, w, len(items), len(workers), 0.0)
        x = np.random.RandomState(0).rand(6)
        grad = problem.gradient(x)
        h = 1e-6
        numeric = [(problem.objective(x + h * e) - problem.objective(x - h * e)) / (2 * h) for e in np.eye(6)]
        np.testing.assert_allclose(grad[[1, 2]], numeric[1:3], atol=1e-6)  # a and b: the objective's
        self.assertEqual(grad[5], 0.0)
        self.assertGreater(abs(grad[3] - numeric[3]), 1e-3)
        self.assertGreater(abs(grad[4] - numeric[4]), 1e-3)

    def test_unnamed_is_the_clis(self):
        binary()
        m = cc.NoisyBradleyTerry().fit(self.equal)
        self.assertEqual(m.result_.model, "noisy-bt")


class TestMACECrowdKit(unittest.TestCase):
    """MACE with Crowd-Kit's parameters named gives Crowd-Kit's numbers,
    its E-step's reading of the spamming counts in sorted order included;
    on the toy data in reverse row order (workers w5..w1 in order of first
    appearance) that reading matters. The numbers are Crowd-Kit 1.4.1's
    (scripts/crowdkit-expected.py)."""

    def test_as_crowdkit(self):
        data = toy().iloc[::-1]
        for method, thetas, yes in [
            ("vb", [[0.4375906116325658, 0.5417075243214406], [0.4796556731459558, 0.49605414859925456],
                    [0.4870904045826406, 0.4880169465957103], [0.474481843452138, 0.5043415859694294],
                    [0.5376166063258768, 0.4404764731015929]],
             [0.8447992977114686, 0.9859543458994657, 0.003950232035013471, 0.9989994059363115, 0.001492481908622197]),
            ("em", [[0.21520438591372734, 0.7847956140862726], [0.17146734267947575, 0.8285326573205243],
                    [0.20906807100618852, 0.7909319289938116], [0.3195905466025139, 0.6804094533974862],
                    [0.8148881605409977, 0.18511183945900236]],
             [0.24828438247280812, 0.8082034732974736, 0.0021459569928586036, 0.9979980684125251,
              0.0006000990923899738]),
        ]:
            with self.subTest(method=method):
                m = cc.MACE(n_restarts=1, n_iter=5, method=method).fit(data)
                np.testing.assert_allclose(m.thetas_, thetas, rtol=0, atol=1e-12)
                np.testing.assert_allclose(m.probas_["yes"].sort_index().to_numpy(), yes, rtol=0, atol=1e-12)

    def test_smoothing_is_crowdkits(self):
        # Crowd-Kit's fit ignores smoothing (smoothing_ is 0.01 / K)
        a = cc.MACE(smoothing=0.5).fit(toy())
        b = cc.MACE(random_state=0).fit(toy())
        self.assertIsNone(a.result_)
        self.assertTrue(np.array_equal(a.thetas_, b.thetas_))
        self.assertEqual(a.smoothing_, 0.005)


class TestMMSRState(unittest.TestCase):
    def test_matrices_do_not_change_the_fit(self):
        # Crowd-Kit's MMSR.fit recomputes its matrices and mappings from the
        # data (_construnct_covariation_matrix), so the ones given to its
        # constructor change nothing.
        binary()
        given = cc.MMSR(observation_matrix=np.ones((2, 2)), covariation_matrix=np.eye(3), n_common_tasks=np.ones(1),
                        n_workers=7, n_tasks=1, n_labels=9, labels_mapping={"x": 1}, workers_mapping={"w": 0},
                        tasks_mapping={"t": 0}).fit(toy())
        plain = cc.MMSR().fit(toy())
        self.assertTrue(given.skills_.equals(plain.skills_))
        self.assertTrue(given.scores_.equals(plain.scores_))

    def test_tol(self):
        # Crowd-Kit's tol (--tol): a large one stops after the first sweep,
        # 0 runs every sweep of n_iter.
        binary()
        one = cc.MMSR(n_iter=1).fit(toy())
        self.assertTrue(cc.MMSR(tol=1e3).fit(toy()).skills_.equals(one.skills_))
        self.assertEqual(cc.MMSR(tol=1e3).fit(toy()).result_.summary["converged"], True)
        with self.assertRaisesRegex(cc.ConsensusError, "IterationLimit after 3 iterations"):
            cc.MMSR(tol=0, n_iter=3, strict=True).fit(toy())


class TestRandomState(unittest.TestCase):
    def test_kos_as_crowdkit(self):
        # labels of t1..t5 (y: yes, n: no) after 0, 1, 2 and 100 iterations
        want = {0: ["nynyn", "ynnnn", "ynyny", "nynny"], 7: ["nnyyn", "ynnnn", "nyyny", "ynnnn"],
                2 ** 32 - 1: ["yynyn", "yynnn", "nnyyy", "nynny"]}
        for seed, by_iter in want.items():
            for n_iter, labels in zip([0, 1, 2, 100], by_iter):
                with self.subTest(seed=seed, n_iter=n_iter):
                    got = cc.KOS(n_iter=n_iter, random_state=seed).fit(toy()).labels_
                    self.assertEqual("".join(v[0] for v in got), labels)
                    self.assertEqual((got.name, got.index.name, list(got.index)),
                                     ("agg_label", "task", ["t1", "t2", "t3", "t4", "t5"]))

    def test_mmsr_as_crowdkit(self):
        binary()
        want = {3: [-0.8124262244858, 1.0815994763504573, 1.050041384896288, 0.8124262244857998, 1.0815994763504573],
                2 ** 32 - 1: [-0.46002304373665015, 1.244769953577429, 0.9921297046018924, 1.1077690564171045,
                              1.244769953577429]}
        for seed, skills in want.items():
            with self.subTest(seed=seed):
                got = cc.MMSR(n_iter=1, random_state=seed).fit(toy()).skills_
                np.testing.assert_allclose(got[["w1", "w2", "w3", "w4", "w5"]].to_numpy(), skills, rtol=0, atol=1e-12)
        # n_iter=0: the start is numpy's draws, u_w = RandomState(seed).random_sample
        start = cc.MMSR(n_iter=0, random_state=3).fit(toy()).skills_
        self.assertAlmostEqual(start["w2"], 1.244769953577429, places=12)  # clipped
        self.assertNotEqual(start["w3"], cc.MMSR(n_iter=0).fit(toy()).skills_["w3"])

    def test_refused(self):
        for make, err, want in [
            (lambda: cc.KOS(random_state=2 ** 32), ValueError, "from 0 to 2**32 - 1"),
            (lambda: cc.KOS(random_state=-1), ValueError, "from 0 to 2**32 - 1"),
            (lambda: cc.KOS(random_state=1.5), TypeError, "want an int"),
            (lambda: cc.KOS(random_state=1, seed=3), TypeError, "takes no option seed"),
            (lambda: cc.MMSR(random_state=2 ** 32), ValueError, "from 0 to 2**32 - 1"),
        ]:
            with self.assertRaises(err) as ctx:
                make()
            self.assertIn(want, str(ctx.exception))
        with self.assertRaisesRegex(ValueError, "two classes only, and the labels have 3"):
            cc.KOS(n_iter=3).fit(pd.DataFrame({"task": ["a", "a", "b"], "worker": ["x", "y", "x"],
                                               "label": [1, 2, 3]}))
        binary()
        with self.assertRaisesRegex(cc.ConsensusError, "--random-state: model la-ds has no random start"):
            cc.aggregate(toy(), "la-ds", random_state=3)

    def test_unnamed_kos_is_the_clis(self):
        binary()
        k = cc.KOS().fit(toy())
        self.assertEqual(k.result_.model, "kos")
        self.assertEqual(k.probas_.shape, (5, 2))


if __name__ == "__main__":
    unittest.main()

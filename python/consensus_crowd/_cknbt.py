"""Crowd-Kit's NoisyBradleyTerry fit, which ``NoisyBradleyTerry`` runs
where a user names one of Crowd-Kit's settings (``n_iter``, ``tol``,
``regularization_ratio``, ``random_state``), so that those arguments give
Crowd-Kit's numbers, defects included (docs/crowdkit.md):

- The parameters: x[0], an anchor; x[1..L], the items' scores s (items:
  the sorted values of left, right and label); x[1+L..], each worker's
  bias logit q_w; then each worker's skill logit γ_w (workers sorted).
  The start is numpy's ``RandomState(random_state).rand``.
- The objective, as Crowd-Kit writes it: the negative log-likelihood of
  the comparisons, each log(σ(γ_w) σ(y (s_left − s_right)) + (1 − σ(γ_w))
  σ(y q_w)) (y = +1 when the label is the left item, else −1), *plus*
  ``regularization_ratio`` × Σ_k [log σ(x0 − s_k) + log σ(s_k − x0)], a
  log prior added where it should be subtracted, so the objective falls
  without bound as the scores spread.
- The gradient, as Crowd-Kit computes it (its expressions and order of
  operations), which is not the objective's: each comparison's
  derivatives of its log-likelihood term are right, and the scores' are
  summed, but the bias and skill terms are assigned (the
  worker's last comparison wins) one slot below the worker's own (worker
  0's bias term replaces the last item's score's sum so far); the skill
  logit of the last worker keeps a zero gradient; and the prior's term
  has the sign of a prior subtracted, the objective's the opposite.
- SciPy's ``minimize(method="L-BFGS-B")`` with ``maxiter=n_iter`` and
  ``ftol=float32(tol)``.

numpy's warnings are left on, as Crowd-Kit leaves them: where the scores
spread, the objective's log of an underflowed likelihood warns.
"""

import numpy as np


def _codes(pd, data):
    items, codes = np.unique(data[["left", "right", "label"]].to_numpy(), return_inverse=True)
    codes = codes.reshape(-1, 3) + 1
    workers, w = np.unique(data["worker"].to_numpy(), return_inverse=True)
    return items, codes, workers, w


def _sigmoid(x):
    """σ(x) by SciPy's expit, as Crowd-Kit's objective computes it."""
    from scipy.special import expit
    return expit(x)


class _Problem:
    def __init__(self, codes, w, n_items, n_workers, ratio):
        self.left, self.right = codes[:, 0], codes[:, 1]
        self.y = np.where(codes[:, 0] == codes[:, 2], 1.0, -1.0)
        self.w, self.L, self.W, self.ratio = w, n_items, n_workers, ratio

    def objective(self, x):
        L, W = self.L, self.W
        si, sj, y = x[self.left], x[self.right], self.y
        q, g = x[1 + L + self.w], x[1 + L + W + self.w]
        a = _sigmoid(g)
        like = np.sum(np.log(a * _sigmoid(y * (si - sj)) + (1 - a) * _sigmoid(y * q)))
        s = x[1:L + 1]
        prior = np.sum(np.log(_sigmoid(x[0] - s))) + np.sum(np.log(_sigmoid(s - x[0])))
        return float(-like + self.ratio * prior)

    def gradient(self, x):
        L, W = self.L, self.W
        si, sj, y = x[self.left], x[self.right], self.y
        q, g = x[1 + L + self.w], x[1 + L + W + self.w]
        # Each comparison's derivatives of its log-likelihood log T,
        # T = σ(γ) σ(y d) + (1 − σ(γ)) σ(y q), d = s_left − s_right, in
        # s_left (lift), s_right (drop, = −lift), q_w and γ_w, written with
        # the exponentials Crowd-Kit writes them with, in its order of
        # operations, so that the rounding, on which its diverging fits
        # depend, is the same.
        e_g, e_d = np.exp(-g) + 1, np.exp(y * (-(si - sj))) + 1
        lift = (y * np.exp(y * (-(si - sj)))) / (
            e_g * e_d ** 2 * (1 / (e_g * e_d) + (1 - 1 / e_g) / (np.exp(-q * y) + 1)))
        yd = y * (si - sj)
        drop = -(y * (np.exp(q * y) + 1) * np.exp(yd + g)) / (
            (np.exp(yd) + 1) * (np.exp(yd + g + q * y) + np.exp(yd + g) + np.exp(yd + q * y) + np.exp(q * y)))
        mixed = np.exp(y * (si + q) + g) + np.exp(si * y + g) + np.exp(y * (si + q)) + np.exp(y * (sj + q))
        bias = (y * np.exp(q * y) * (np.exp(si * y) + np.exp(sj * y))) / ((np.exp(q * y) + 1) * mixed)
        skill = (np.exp(g) * (np.exp(si * y) - np.exp(y * (sj + q)))) / ((np.exp(g) + 1) * mixed)

        grad = np.zeros_like(x)
        n = len(y)
        last = np.full(W, -1)
        np.maximum.at(last, self.w, np.arange(n))  # each worker's last comparison
        # the assigned slots: worker w's last comparison's terms at L + w and L + W + w
        grad[L + np.arange(W)] = bias[last]
        grad[L + W + np.arange(W)] = skill[last]
        # the scores' terms are added comparison by comparison (left, then
        # right), except that slot L (worker 0's bias slot) keeps only those
        # after worker 0's last comparison
        slots = np.column_stack([self.left, self.right]).ravel()
        terms = np.column_stack([lift, drop]).ravel()
        keep = (slots != L) | (np.repeat(np.arange(n), 2) > last[0])
        np.add.at(grad, slots[keep], terms[keep])
        t = np.tanh((x[1:L + 1] - x[0]) / 2.0)
        grad[1:L + 1] -= self.ratio * t
        grad[0] += self.ratio * np.sum(t)
        return -grad


def fit(pd, data, n_iter, tol, ratio, random_state):
    """(items, the fitted x, workers) of Crowd-Kit's fit on data (columns
    worker, left, right, label); needs SciPy."""
    from scipy.optimize import minimize
    items, codes, workers, w = _codes(pd, data)
    problem = _Problem(codes, w, len(items), len(workers), ratio)
    x0 = np.random.RandomState(random_state).rand(1 + len(items) + 2 * len(workers))
    res = minimize(problem.objective, x0, jac=problem.gradient, method="L-BFGS-B",
                   options={"maxiter": n_iter, "ftol": np.float32(tol)})
    return items, res.x, workers

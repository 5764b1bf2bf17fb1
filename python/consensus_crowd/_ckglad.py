"""Crowd-Kit's GLAD fit (Whitehill et al. 2009), which ``GLAD`` runs where
a user names one of Crowd-Kit's iteration settings (``GLAD(n_iter=10)``).

The model: worker w with ability α_w labels task j, of inverse difficulty
e^β_j, correctly with probability σ(α_w e^β_j), and otherwise gives each
other class with probability (1 − σ) / (K − 1); the classes have prior p
(uniform unless given); α and β have Gaussian priors N(m, 1) (m = 1 unless
given). Everything starts at α = β = 1.

EM as Crowd-Kit runs it: an E-step first (the posteriors q of the tasks'
classes); then every iteration is an E-step and an M-step that maximises
the expected complete log posterior

    Q(α, β) = Σ_labels Σ_c q_j(c) log P(label | c; α_w, β_j)
              + Σ_w log φ(α_w − m_w) + Σ_j log φ(β_j − m_j)

by conjugate gradients (``_cg``, SciPy's ``minimize(method="CG")``, from
the current α and β, at most ``m_step_max_iter`` iterations, gradient
tolerance ``m_step_tol``). After iteration i the loss Q / (n K) (n labels,
K classes) is recorded, and the fit stops when it grew by less than
``tol`` since the iteration before. (Before the first iteration Crowd-Kit
compares with Q itself, not divided, so the first iteration never stops
the fit.) The posteriors reported are those of the last E-step, which
precedes the last M-step.
"""

import numpy as np

from . import _cg


def _softplus(x, limit=30):
    """log(1 + e^x), exact beyond |x| > limit as Crowd-Kit's."""
    mask = (x > limit) | (x < -limit)
    return np.log1p(np.exp(x * (1 - mask))) * (1 - mask) + x * (x > limit)


def _log_normal_pdf(x):
    """log φ(x), computed as the log of the density (so -inf where it
    underflows), as Crowd-Kit's."""
    return np.log(np.exp(-x * x / 2) / np.sqrt(2 * np.pi))


class GLADFit:
    """The state of the fit: the labels as arrays (t, w: task and worker
    codes in order of first appearance; delta: n x K, whether the label is
    class c), the priors, α, β, the posteriors q (tasks x K) and the loss
    history."""

    def __init__(self, t, w, delta, priors, alpha_mean, beta_mean):
        self.t, self.w, self.delta = t, w, delta.astype(float)
        self.T, self.W = len(beta_mean), len(alpha_mean)
        self.K = delta.shape[1]
        self.priors = np.asarray(priors, dtype=float)
        self.alpha_mean, self.beta_mean = np.asarray(alpha_mean, float), np.asarray(beta_mean, float)
        self.alpha, self.beta = np.ones(self.W), np.ones(self.T)
        self.history = []
        self.q = None

    def _wrong(self):
        with np.errstate(divide="ignore"):
            return np.log(self.K - 1)

    def _log_lik(self, alpha, beta):
        """log P(label | class c) of every label and class, n x K."""
        ab = alpha[self.w] * np.exp(beta[self.t])
        right, wrong = -_softplus(-ab), -_softplus(ab) - self._wrong()
        # Crowd-Kit's δ log σ + (1 − δ) log((1 − σ)/(K − 1)), the same
        # numbers, but with one class (no wrong class: log 0) not NaN
        return np.where(self.delta > 0, right[:, None], wrong[:, None])

    def e_step(self):
        """Set the posteriors q from α and β."""
        logp = np.zeros((self.T, self.K))
        np.add.at(logp, self.t, self._log_lik(self.alpha, self.beta))
        with np.errstate(divide="ignore"):
            logp += np.log(self.priors)
        top = logp.max(axis=1, keepdims=True)
        norm = np.log(np.exp(logp - top).sum(axis=1, keepdims=True)) + top
        self.q = np.exp(logp - norm)

    def q_value(self, alpha, beta):
        """Q(α, β) with the current posteriors; -inf where it is NaN."""
        with np.errstate(invalid="ignore", over="ignore"):
            v = float(np.sum(self.q[self.t] * self._log_lik(alpha, beta)))
            v += float(_log_normal_pdf(alpha - self.alpha_mean).sum())
            v += float(_log_normal_pdf(beta - self.beta_mean).sum())
        return -np.inf if np.isnan(v) else v

    def q_gradient(self, alpha, beta):
        """(∂Q/∂α, ∂Q/∂β) with the current posteriors."""
        eb = np.exp(beta[self.t])
        ab = alpha[self.w] * eb
        sigma = 1 / (1 + np.exp(-ab))
        r = (self.q[self.t] * (self.delta - sigma[:, None])).sum(axis=1)
        da = np.bincount(self.w, weights=r * eb, minlength=self.W) - (alpha - self.alpha_mean)
        db = np.bincount(self.t, weights=r * ab, minlength=self.T) - (beta - self.beta_mean)
        return da, db

    def m_step(self, max_iter, tol):
        """Maximise Q over (α, β) by conjugate gradients."""
        W = self.W

        def f(x):
            return -self.q_value(x[:W], x[W:])

        def g(x):
            da, db = self.q_gradient(x[:W], x[W:])
            return -np.concatenate([da, db])

        x = _cg.minimize(f, g, np.concatenate([self.alpha, self.beta]), tol, max_iter)
        self.alpha, self.beta = x[:W].copy(), x[W:].copy()

    def run(self, n_iter, tol, m_step_max_iter, m_step_tol):
        """Crowd-Kit's loop (see the module's doc)."""
        self.e_step()
        loss = self.q_value(self.alpha, self.beta)
        rows = len(self.t) * self.K
        for _ in range(n_iter):
            last = loss
            self.e_step()
            self.m_step(m_step_max_iter, m_step_tol)
            loss = self.q_value(self.alpha, self.beta) / rows
            self.history.append(loss)
            if loss - last < tol:
                break
        return self


def fit(pd, data, n_iter, tol, m_step_max_iter, m_step_tol, labels_priors=None, alphas_priors_mean=None,
        betas_priors_mean=None):
    """Crowd-Kit's GLAD on data (a frame with task, worker and label).
    Returns (the fit, tasks, workers, classes), tasks and workers in order
    of first appearance; classes those of labels_priors if given, else
    the labels' in order of first appearance."""
    t, tasks = pd.factorize(data["task"], sort=False)
    w, workers = pd.factorize(data["worker"], sort=False)
    if labels_priors is None:
        classes = pd.unique(data["label"])
        priors = np.full(len(classes), 1.0 / len(classes))
    else:
        labels_priors = pd.Series(labels_priors)
        classes, priors = labels_priors.index.to_numpy(), labels_priors.to_numpy(dtype=float)
    code = pd.Index(classes).get_indexer(data["label"])
    delta = code[:, None] == np.arange(len(classes))[None, :]
    am = _means(pd, alphas_priors_mean, workers, "alphas_priors_mean", "worker")
    bm = _means(pd, betas_priors_mean, tasks, "betas_priors_mean", "task")
    state = GLADFit(t, w, delta, priors, am, bm)
    return state.run(n_iter, tol, m_step_max_iter, m_step_tol), tasks, workers, classes


def _means(pd, given, names, what, kind):
    """The prior means of names: 1, or given (a Series by name)."""
    if given is None:
        return np.ones(len(names))
    given = pd.Series(given)
    values = given.reindex(names)
    missing = values.isna()
    if missing.any():
        raise ValueError("GLAD(%s=...): no mean for %s %r; give every %s of the data one"
                         % (what, kind, names[np.argmax(missing.to_numpy())], kind))
    return values.to_numpy(dtype=float)

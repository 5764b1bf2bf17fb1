"""Crowd-Kit's private GLAD methods on its long table, for code written
against Crowd-Kit's ``GLAD`` that calls them (a subclass, Crowd-Kit's
own tests): ``_init``, ``_join_all``, ``_e_step``, ``_compute_Q``,
``_gradient_Q``, ``_m_step`` and their helpers, with Crowd-Kit's
signatures and meaning. The fits of ``GLAD`` do not use them (they run
on arrays, ``_ckglad``); these give the same numbers on a pandas table.

The long table has a row per label and class c (``variable``): columns
``worker``, ``task``, ``variable``, ``label``, ``posterior`` (q_j(c)),
``beta``, ``alpha`` and ``delta`` (whether the label is c). The model and
objective Q are those of ``_ckglad``'s doc.
"""

import numpy as np

from . import _cg
from ._ckglad import _log_normal_pdf, _softplus


class GLADTable:
    """The private methods of Crowd-Kit's GLAD; a mixin of ``GLAD``, which
    supplies ``labels_priors``, ``alphas_priors_mean``,
    ``betas_priors_mean`` and the M-step settings."""

    def _init(self, data):
        """Start as Crowd-Kit's fit does: every ability and log difficulty
        1 (``alphas_``, ``betas_``, unnamed indexes in order of first
        appearance), ``workers_`` and ``tasks_`` (arrays), ``priors_`` and
        ``prior_labels_`` (the given ``labels_priors``, else uniform over
        the labels in order of first appearance) and the prior means
        ``alphas_priors_mean_``, ``betas_priors_mean_`` (given, else 1)."""
        import pandas as pd
        self.workers_ = pd.unique(data["worker"])
        self.tasks_ = pd.unique(data["task"])
        self.alphas_ = pd.Series(1.0, index=self.workers_)
        self.betas_ = pd.Series(1.0, index=self.tasks_)
        if self.labels_priors is None:
            self.prior_labels_ = pd.unique(data["label"])
            self.priors_ = pd.Series(1.0 / len(self.prior_labels_), index=self.prior_labels_)
        else:
            self.priors_ = self.labels_priors
            self.prior_labels_ = self.priors_.index
        self.alphas_priors_mean_ = self.alphas_priors_mean
        if self.alphas_priors_mean_ is None:
            self.alphas_priors_mean_ = pd.Series(1.0, index=self.alphas_.index)
        self.betas_priors_mean_ = self.betas_priors_mean
        if self.betas_priors_mean_ is None:
            self.betas_priors_mean_ = pd.Series(1.0, index=self.betas_.index)

    def _join_all(self, data, alphas, betas, priors):
        """The long table of data (task, worker, label) for the classes of
        priors' index: the labels repeated once per class, class by class,
        with posterior 0, each task's beta and each worker's alpha (NaN
        where the Series lacks one) and delta."""
        import pandas as pd
        classes = list(priors.index)
        n = len(data)
        variable = np.repeat(np.asarray(classes, dtype=object), n)
        table = pd.DataFrame({
            "worker": np.tile(data["worker"].to_numpy(), len(classes)),
            "task": np.tile(data["task"].to_numpy(), len(classes)),
            "variable": variable,
            "label": np.tile(data["label"].to_numpy(), len(classes)),
            "posterior": 0.0,
        })
        table["variable"] = table["variable"].infer_objects()
        table["beta"] = betas.reindex(table["task"]).to_numpy()
        table["alpha"] = alphas.reindex(table["worker"]).to_numpy()
        table["delta"] = (table["label"] == table["variable"]).to_numpy()
        return table

    def _log_lik(self, data):
        """log P(label | class variable) of every row of the table."""
        ab = (data["alpha"] * np.exp(data["beta"])).to_numpy(dtype=float)
        delta = data["delta"].to_numpy(dtype=float)
        with np.errstate(divide="ignore"):
            wrong = np.log(len(self.prior_labels_) - 1)
        return delta * -_softplus(-ab) + (1 - delta) * (-_softplus(ab) - wrong)

    def _e_step(self, data):
        """The E-step: every task's posterior over the classes from the
        table's alphas and betas and ``priors_``. Sets ``probas_`` (tasks
        by classes, both sorted) and returns the table with the new
        ``posterior`` (as its last column)."""
        import pandas as pd
        logp = pd.Series(self._log_lik(data), index=pd.MultiIndex.from_frame(data[["task", "variable"]]))
        logp = logp.groupby(level=["task", "variable"]).sum()
        with np.errstate(divide="ignore"):
            logp = logp.add(np.log(self.priors_), level=1)
        top = logp.groupby(level="task").transform("max")
        e = np.exp(logp - top)
        probas = (e / e.groupby(level="task").transform("sum")).rename("posterior")
        data = data.drop(columns="posterior")
        data["posterior"] = probas.reindex(pd.MultiIndex.from_frame(data[["task", "variable"]])).to_numpy()
        self.probas_ = probas.unstack()
        return data

    def _compute_Q(self, data):
        """Q at the table's alphas and betas and posteriors, with the
        Gaussian priors at ``alphas_`` and ``betas_``; -inf where it is
        NaN. Adds the column ``task_expectation`` (each row's term)."""
        data["task_expectation"] = data["posterior"].to_numpy(dtype=float) * self._log_lik(data)
        q = data["task_expectation"].sum()
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            q += _log_normal_pdf(self.alphas_ - self.alphas_priors_mean_).sum()
            q += _log_normal_pdf(self.betas_ - self.betas_priors_mean_).sum()
        return -np.inf if np.isnan(q) else float(q)

    def _gradient_Q(self, data):
        """(∂Q/∂α by worker, ∂Q/∂β by task), Series with sorted indexes.
        Adds the columns ``dQb`` and ``dQa`` (each row's terms)."""
        eb = np.exp(data["beta"])
        ab = data["alpha"] * eb
        r = data["posterior"] * (data["delta"] - 1 / (1 + np.exp(-ab)))
        data["dQb"] = r * ab
        data["dQa"] = r * eb
        d_beta = data.groupby("task")["dQb"].sum() - (self.betas_ - self.betas_priors_mean_)
        d_alpha = data.groupby("worker")["dQa"].sum() - (self.alphas_ - self.alphas_priors_mean_)
        return d_alpha.rename("dQa"), d_beta.rename("dQb")

    def _get_alphas_betas_by_point(self, x):
        """(alphas, betas) of the point x: the abilities of ``workers_``,
        then the log difficulties of ``tasks_``."""
        import pandas as pd
        n = len(self.workers_)
        alphas = pd.Series(x[:n], index=pd.Index(self.workers_, name="worker"), name="alpha")
        betas = pd.Series(x[n:], index=pd.Index(self.tasks_, name="task"), name="beta")
        return alphas, betas

    def _update_alphas_betas(self, alphas, betas):
        """Set ``alphas_`` and ``betas_`` and the columns alpha and beta of
        ``_current_data`` to them."""
        self.alphas_, self.betas_ = alphas, betas
        table = self._current_data
        table["alpha"] = alphas.reindex(table["worker"]).to_numpy()
        table["beta"] = betas.reindex(table["task"]).to_numpy()

    def _optimize_f(self, x):
        """−Q at the point x (on ``_current_data``), which becomes the
        current alphas and betas."""
        self._update_alphas_betas(*self._get_alphas_betas_by_point(x))
        return -self._compute_Q(self._current_data)

    def _optimize_df(self, x):
        """−∇Q at the point x, in its order."""
        self._update_alphas_betas(*self._get_alphas_betas_by_point(x))
        d_alpha, d_beta = self._gradient_Q(self._current_data)
        return -np.concatenate([d_alpha[self.workers_].to_numpy(), d_beta[self.tasks_].to_numpy()])

    def _m_step(self, data):
        """The M-step: Q maximised over the alphas and betas by conjugate
        gradients from the current ones (SciPy's ``minimize(method="CG")``
        as ``_cg`` runs it; ``m_step_max_iter`` iterations, gradient
        tolerance ``m_step_tol``, Crowd-Kit's 25 and 1e-2 unless given).
        Returns the table at the optimum."""
        self._current_data = data
        x0 = np.concatenate([self.alphas_.to_numpy(dtype=float), self.betas_.to_numpy(dtype=float)])
        steps = 25 if self.m_step_max_iter is None else self.m_step_max_iter
        tol = 1e-2 if self.m_step_tol is None else self.m_step_tol
        x = _cg.minimize(self._optimize_f, self._optimize_df, x0, tol, steps)
        self._update_alphas_betas(*self._get_alphas_betas_by_point(x))
        return self._current_data

    @staticmethod
    def _softplus(x, limit=30):
        """log(1 + e^x), exact beyond |x| > limit."""
        return _softplus(x, limit)

    @staticmethod
    def _softmax(x):
        """e^x normalised to sum 1."""
        e = np.exp(x - np.max(x))
        return e / e.sum()

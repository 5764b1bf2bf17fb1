"""Classes with Crowd-Kit's names, methods and attributes.

Each class runs one model of ``consensus fit`` (see ``MODEL``) through
:func:`consensus_crowd.aggregate`. The constructors take Crowd-Kit's
parameters where the model has them and this package's options (``seed``,
``max_iter``, ``strict``, ``threads``, ... and ``binary``) as keywords.
A Crowd-Kit parameter that has no counterpart here raises TypeError, which
says why, unless its value is the one this implementation runs anyway (for
example ``ZeroBasedSkill(n_iter=100)``): nothing is silently ignored.

The methods ``fit``, ``fit_predict`` and ``fit_predict_proba`` take a
pandas DataFrame with columns task, worker and label (or any iterable of
(task, worker, label) tuples) and need pandas for their results.
"""

import math

from ._core import DEFAULT_MODEL, _pandas, aggregate, check_options
from ._files import _clean

__all__ = [
    "MajorityVote", "Wawa", "ZeroBasedSkill", "GoldMajorityVote", "DawidSkene", "OneCoinDawidSkene",
    "GLAD", "MACE", "KOS", "MMSR", "Consensus", "Auto",
]


class _Aggregator:
    """The shared part of every class: options, fit and the attributes."""

    #: The consensus model that the class fits.
    MODEL = None

    def __init__(self, options, crowdkit=None, fixed=None):
        check_options({k: v for k, v in options.items() if k != "model"})
        self._options = dict(options)
        self._check_crowdkit(crowdkit or {}, fixed or {})

    def _check_crowdkit(self, given, fixed):
        _refuse_unsupported(type(self).__name__, given, fixed,
                            "it has no counterpart in consensus fit --model %s" % self.MODEL, "docs/python.md")

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self.

        data: a pandas DataFrame with columns task, worker and label, or an
        iterable of (task, worker, label) tuples. true_labels: the known
        classes of some tasks (a Series or dict from task to label;
        ``--train-gold``), as Crowd-Kit's ``DawidSkene.fit(data,
        true_labels)``: the la-*, da-* and vb-* models clamp those tasks, gmv
        weighs the workers by them, the other models refuse them.
        """
        _pandas()  # before the fit, whose results need it
        options = dict(self._options)
        model = options.pop("model", self.MODEL)
        if true_labels is not None:
            if "train_gold" in options:
                raise TypeError("give true_labels to fit or train_gold to the constructor, not both")
            options["train_gold"] = true_labels
        self.result_ = aggregate(data, model, **options)
        self._set_attributes(self.result_)
        return self

    def fit_predict(self, data, true_labels=None):
        """Fit the model and return ``labels_``, a Series of labels indexed by task."""
        return self.fit(data, true_labels).labels_

    def fit_predict_proba(self, data, true_labels=None):
        """Fit the model and return ``probas_``, a DataFrame of tasks by classes."""
        return self.fit(data, true_labels).probas_

    def _set_attributes(self, r):
        self.labels_ = r.labels_
        self.probas_ = r.probas_
        self.workers_ = r.workers_
        if self.workers_ is not None:
            self.skills_ = self.workers_["skill"].rename("skill")

    def __repr__(self):
        opts = ", ".join("%s=%r" % kv for kv in sorted(self._options.items()))
        return "%s(%s)" % (type(self).__name__, opts)


def _refuse_unsupported(owner, given, fixed, missing, doc, reasons=None):
    """Raise TypeError for a Crowd-Kit parameter of the class owner that has
    no counterpart here. given: the parameters that were passed (None: not
    passed); fixed: the value this implementation runs, if any, which is
    accepted; missing: why a parameter not in fixed is refused; doc: where
    to read more; reasons: a reason of its own for a parameter of fixed."""
    for name, value in given.items():
        if value is None:
            continue
        if name in fixed and value == fixed[name]:
            continue
        if name in fixed:
            why = (reasons or {}).get(name, "this implementation runs %r" % (fixed[name],))
        else:
            why = missing
        raise TypeError("%s(%s=%r): not supported: %s; see %s" % (owner, name, value, why, doc))


def _iter_options(n_iter, options):
    if n_iter is not None:
        if "max_iter" in options:
            raise TypeError("give n_iter or max_iter, not both")
        options["max_iter"] = n_iter
    return options


def _rows(data):
    """The (task, worker, label) rows of data, a DataFrame or an iterable."""
    if hasattr(data, "columns"):
        return data[["task", "worker", "label"]].itertuples(index=False, name=None)
    return data


def _error_workers(initial_error, workers):
    """Turn Crowd-Kit's initial_error (index (worker, observed label), one
    column per true label; counts or probabilities) into init_workers rows
    with the CLI's p[z,y] columns, each true label's column normalised. Every
    worker of the data must have a matrix, as Crowd-Kit's 'assign' needs."""
    observed = list(initial_error.index.get_level_values(1).unique())
    rows = []
    for w, block in initial_error.groupby(level=0, sort=False):
        block = block.droplevel(0)
        rec = {"worker": w}
        for z in initial_error.columns:
            col = block[z].reindex(observed)
            if col.isna().any():
                raise ValueError("initial_error: worker %r has no row for observed label %r"
                                 % (w, list(col[col.isna()].index)[0]))
            total = float(col.sum())
            if not total > 0:
                raise ValueError("initial_error: worker %r's column for true label %r sums to %r" % (w, z, total))
            for y, v in col.items():
                rec["p[%s,%s]" % (_clean(z, "label"), _clean(y, "label"))] = float(v) / total
        rows.append(rec)
    missing = workers - {r["worker"] for r in rows}
    if missing:
        raise ValueError("initial_error: no error matrix for worker %r (and %d others): the 'assign' strategy "
                         "needs every worker's" % (sorted(missing, key=str)[0], len(missing) - 1))
    return rows


def _errors(pd, workers, classes, texts):
    """Crowd-Kit's errors_: index (worker, observed label), one column per
    true label; errors_.loc[(w, y), z] = P(y | z)."""
    cols = [["p[%s,%s]" % (z, y) for z in texts] for y in texts]
    table = workers[[c for row in cols for c in row]].to_numpy()
    k = len(classes)
    rows, index = [], []
    for i, w in enumerate(workers.index):
        for j, y in enumerate(classes):
            index.append((w, y))
            rows.append(table[i, j * k:(j + 1) * k].tolist())
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["worker", "label"]),
                        columns=pd.Index(classes, name="label"))


def _one_coin_errors(pd, skills, classes):
    k = len(classes)
    rows, index = [], []
    for w, s in skills.items():
        for y in classes:
            index.append((w, y))
            rows.append([s if y == z else (1 - s) / (k - 1) for z in classes])
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["worker", "label"]),
                        columns=pd.Index(classes, name="label"))


class MajorityVote(_Aggregator):
    """Majority vote (model ``mv``): the labels' frequencies read through
    their argmax. ``probas_`` holds the frequencies.

    ``fit(data, skills)`` is Crowd-Kit's weighted vote: every worker's vote
    counts its skill (a Series or dict from worker to a number at least 0;
    ``--skills``), and ``skills_`` is then every worker's agreement with the
    consensus label, as Crowd-Kit's. ``on_missing_skill`` says what a worker
    without a skill gets: ``"error"`` (the default) refuses, ``"ignore"``
    leaves its labels out, ``"value"`` gives it ``default_skill``
    (``--missing-skill``). Without skills there is no ``skills_``: the CLI's
    ``--workers`` has no table for the plain vote.
    """

    MODEL = "mv"

    def __init__(self, default_skill=None, on_missing_skill="error", **options):
        if on_missing_skill not in ("error", "ignore", "value"):
            raise ValueError("MajorityVote(on_missing_skill=%r): want 'error', 'ignore' or 'value'" % (on_missing_skill,))
        if (on_missing_skill == "value") != (default_skill is not None):
            raise ValueError("MajorityVote: default_skill is given with on_missing_skill='value', and only then")
        super().__init__(options)
        self.on_missing_skill, self.default_skill = on_missing_skill, default_skill

    def fit(self, data, skills=None):
        """Fit the model to data, with every worker's vote weighted by its
        skill in skills if given, and return self."""
        _pandas()
        options = dict(self._options)
        model = options.pop("model", self.MODEL)
        if skills is not None:
            options["skills"] = skills
            options["missing_skill"] = self.default_skill if self.on_missing_skill == "value" else self.on_missing_skill
        self.result_ = aggregate(data, model, **options)
        self._set_attributes(self.result_)
        return self

    def fit_predict(self, data, skills=None):
        """Fit the model and return ``labels_``."""
        return self.fit(data, skills).labels_

    def fit_predict_proba(self, data, skills=None):
        """Fit the model and return ``probas_``."""
        return self.fit(data, skills).probas_


class _SkillVote:
    """predict and predict_proba of the skill-weighted votes (Wawa,
    ZeroBasedSkill, GoldMajorityVote), as Crowd-Kit's: the majority vote of
    data weighted by the fitted ``skills_`` (``fit -m mv --skills``), which
    also sets ``labels_`` and ``probas_``. A worker of data without a skill
    is refused, as by Crowd-Kit's MajorityVote; ties are broken with the
    ``seed`` option (Crowd-Kit takes the first class)."""

    def predict(self, data):
        """The labels of data's tasks by the vote weighted by ``skills_``."""
        return self._apply(data).labels_

    def predict_proba(self, data):
        """The vote of data's tasks weighted by ``skills_``, a DataFrame of
        tasks by classes."""
        return self._apply(data).probas_

    def _apply(self, data):
        skills = getattr(self, "skills_", None)
        if skills is None:
            raise ValueError("%s.predict: fit the model first; predict weighs the votes by its skills_"
                             % type(self).__name__)
        options = {k: v for k, v in self._options.items() if k in ("binary", "seed", "max_memory")}
        r = aggregate(data, "mv", skills=skills, workers=False, **options)
        self.labels_, self.probas_ = r.labels_, r.probas_
        return self


class Wawa(_SkillVote, _Aggregator):
    """Worker agreement with aggregate (model ``wawa``): majority vote
    weighted by each worker's agreement with the majority vote, which is
    ``skills_``; ``predict(data)`` weighs the votes of new data by them."""

    MODEL = "wawa"

    def __init__(self, **options):
        super().__init__(options)


class ZeroBasedSkill(_SkillVote, _Aggregator):
    """Zero-based skill (model ``zbs``): a weighted vote whose skills move
    towards each worker's agreement with it, 100 iterations, step 1 halved
    every 20. ``n_iter`` bounds the iterations (``--max-iter``; None: 100);
    the step schedule is the CLI's, so ``lr_init``, ``lr_steps_to_reduce``
    and ``lr_reduce_factor`` are accepted at its values alone; ``eps`` is not
    supported. ``skills_`` holds the final skills; ``predict(data)`` weighs
    the votes of new data by them."""

    MODEL = "zbs"

    def __init__(self, n_iter=None, lr_init=None, lr_steps_to_reduce=None, lr_reduce_factor=None, eps=None,
                 **options):
        super().__init__(_iter_options(n_iter, options),
                         {"lr_init": lr_init, "lr_steps_to_reduce": lr_steps_to_reduce,
                          "lr_reduce_factor": lr_reduce_factor, "eps": eps},
                         {"lr_init": 1.0, "lr_steps_to_reduce": 20, "lr_reduce_factor": 0.5})


class GoldMajorityVote(_SkillVote, _Aggregator):
    """Gold majority vote (model ``gmv``): a vote weighted by each worker's
    accuracy on the tasks of ``true_labels``, which ``fit`` needs, as
    Crowd-Kit's ``fit(data, true_labels)``. A worker with no label on those
    tasks gets the pooled accuracy of all labels on them (Crowd-Kit refuses
    such a worker). ``skills_`` holds those accuracies; ``predict(data)``
    weighs the votes of new data by them."""

    MODEL = "gmv"

    def __init__(self, **options):
        super().__init__(options)

    def fit(self, data, true_labels=None):
        """Fit the model to data with the known labels true_labels and
        return self."""
        if true_labels is None and "train_gold" not in self._options:
            raise TypeError("GoldMajorityVote.fit(data, true_labels): true_labels, the known labels of some "
                            "tasks, is required")
        return super().fit(data, true_labels)


class DawidSkene(_Aggregator):
    """Dawid and Skene (model ``la-ds``): a confusion matrix per worker and a
    learned class prior, maximum likelihood by EM (accelerated by SQUAREM).

    ``n_iter`` is the iteration limit (``--max-iter``; None: the CLI's
    1000; Crowd-Kit's default is 100). Crowd-Kit's ``tol`` (an absolute
    change of its lower bound per label) has no counterpart: use
    ``func_tol=``, a relative change of the mean log-likelihood.

    ``fit(data, true_labels, initial_error)`` with
    ``initial_error_strategy="assign"`` starts EM from the given error
    matrices (``--init-workers``), as Crowd-Kit's: ``initial_error`` is
    indexed by (worker, observed label) with one column per true label, in
    counts or probabilities (each column of a worker is normalised), and
    must hold every worker of the data. Crowd-Kit's ``"addition"``, which
    adds counts to the first M-step's, has no counterpart.

    Attributes after fit: ``labels_``, ``probas_``, ``errors_`` (index
    (worker, observed label), one column per true label), ``priors_`` (the
    mean of ``probas_``, which is EM's update of the prior), ``skills_``
    (the probability that the worker reports the consensus class) and
    ``workers_`` (the CLI's whole worker table).
    """

    MODEL = "la-ds"

    def __init__(self, n_iter=None, tol=None, initial_error_strategy=None, **options):
        super().__init__(_iter_options(n_iter, options), {"tol": tol, "initial_error_strategy": initial_error_strategy},
                         {"initial_error_strategy": "assign"})
        self.initial_error_strategy = initial_error_strategy

    def fit(self, data, true_labels=None, initial_error=None):
        """Fit the model to data (with the known labels true_labels, and
        from the error matrices initial_error) and return self."""
        if initial_error is None:
            return super().fit(data, true_labels)
        if self.initial_error_strategy != "assign":
            raise TypeError("DawidSkene.fit(initial_error=...) needs initial_error_strategy='assign' (Crowd-Kit "
                            "would not use the matrices without a strategy, and 'addition' has no counterpart)")
        if "init_workers" in self._options:
            raise TypeError("give initial_error to fit or init_workers to the constructor, not both")
        workers = {w for _, w, _ in _rows(data)}
        saved = self._options
        self._options = dict(saved, init_workers=_error_workers(initial_error, workers))
        try:
            return super().fit(data, true_labels)
        finally:
            self._options = saved

    def fit_predict(self, data, true_labels=None, initial_error=None):
        """Fit the model and return ``labels_``."""
        return self.fit(data, true_labels, initial_error).labels_

    def fit_predict_proba(self, data, true_labels=None, initial_error=None):
        """Fit the model and return ``probas_``."""
        return self.fit(data, true_labels, initial_error).probas_

    def _set_attributes(self, r):
        super()._set_attributes(r)
        import pandas as pd
        self.errors_ = _errors(pd, self.workers_, r.classes, r.class_texts)
        self.priors_ = self.probas_.mean().rename("prior")


class OneCoinDawidSkene(_Aggregator):
    """One-coin Dawid-Skene (model ``la-onecoin``): one accuracy per worker,
    errors uniform over the other classes, a learned class prior; fitted by
    L-BFGS. Parameters as ``DawidSkene``; ``skills_`` is the accuracy,
    ``errors_`` the matrices it implies, ``priors_`` the mean of
    ``probas_``."""

    MODEL = "la-onecoin"

    def __init__(self, n_iter=None, tol=None, **options):
        super().__init__(_iter_options(n_iter, options), {"tol": tol})

    def _set_attributes(self, r):
        super()._set_attributes(r)
        import pandas as pd
        self.skills_ = self.workers_["accuracy"].rename("skill")
        self.errors_ = _one_coin_errors(pd, self.skills_, r.classes)
        self.priors_ = self.probas_.mean().rename("prior")


class GLAD(_Aggregator):
    """GLAD (model ``la-glad``): a worker is right with probability
    σ(ability × difficulty), uniform class prior, fitted by L-BFGS.

    As Crowd-Kit's GLAD, it fits the posterior mode under Gaussian priors
    N(1, 1) on the abilities and the log difficulties (``glad_prior=1``,
    ``--glad-prior 1``), whose optimum is finite; ``glad_prior=VAR`` sets
    their variance, and ``glad_prior=0`` fits the paper's maximum
    likelihood, whose optimum lies at infinity (the fit stops at its
    iteration limit). ``n_iter`` is the iteration limit (``--max-iter``).
    Crowd-Kit's own prior settings (``labels_priors``,
    ``alphas_priors_mean``, ``betas_priors_mean``) and its inner M-step
    settings (``tol``, ``m_step_max_iter``, ``m_step_tol``) are not
    supported. ``silent`` is accepted (the fit never prints).

    Attributes after fit: ``alphas_`` (abilities), ``betas_`` (log
    difficulties, as Crowd-Kit's), ``skills_``, ``workers_`` and ``tasks_``.
    """

    MODEL = "la-glad"

    def __init__(self, n_iter=None, tol=None, silent=True, labels_priors=None, alphas_priors_mean=None,
                 betas_priors_mean=None, m_step_max_iter=None, m_step_tol=None, **options):
        options.setdefault("glad_prior", 1.0)
        super().__init__(_iter_options(n_iter, options),
                         {"tol": tol, "labels_priors": labels_priors, "alphas_priors_mean": alphas_priors_mean,
                          "betas_priors_mean": betas_priors_mean, "m_step_max_iter": m_step_max_iter,
                          "m_step_tol": m_step_tol})
        self.silent = silent

    def _set_attributes(self, r):
        super()._set_attributes(r)
        self.alphas_ = self.workers_["ability"].rename("alpha")
        self.tasks_ = r.tasks_
        self.betas_ = self.tasks_["difficulty"].map(math.log).rename("beta")


class MACE(_Aggregator):
    """MACE (model ``la-mace``): a worker is truthful with probability θ_w,
    else draws a label from its own distribution; maximum likelihood by
    L-BFGS, one deterministic start. ``n_iter`` is the iteration limit;
    Crowd-Kit's variational and restart settings (``n_restarts``,
    ``method``, ``smoothing``, ``default_noise``, ``alpha``, ``beta``,
    ``random_state``) are not supported; ``verbose`` is accepted (the fit
    never prints). ``workers_`` has the columns ``truthful`` (θ_w) and
    ``spam[<class>]`` (the worker's own distribution)."""

    MODEL = "la-mace"

    def __init__(self, n_restarts=None, n_iter=None, method=None, smoothing=None, default_noise=None, alpha=None,
                 beta=None, random_state=None, verbose=0, **options):
        super().__init__(_iter_options(n_iter, options),
                         {"n_restarts": n_restarts, "method": method, "smoothing": smoothing,
                          "default_noise": default_noise, "alpha": alpha, "beta": beta,
                          "random_state": random_state})
        self.verbose = verbose


class KOS(_Aggregator):
    """Karger, Oh and Shah (model ``kos``): message passing, two classes
    only, each worker's labels centred before the iterations (see
    docs/crowdkit.md). ``n_iter`` is the number of iterations
    (``--max-iter``; None: the CLI's 100, where Crowd-Kit's default is 10);
    the CLI draws the start from seed 0, so ``random_state`` is accepted as 0
    only."""

    MODEL = "kos"

    def __init__(self, n_iter=None, random_state=None, **options):
        super().__init__(_iter_options(n_iter, options), {"random_state": random_state}, {"random_state": 0})


class MMSR(_Aggregator):
    """Matrix mean-subsequence-reduced (model ``mmsr``): skills by robust
    rank-one completion of the workers' agreement matrix, then a log-odds
    weighted vote. ``n_iter`` bounds the sweeps (``--max-iter``; None:
    10000); the CLI's tolerance is 1e-10 and its seed 0, so ``tol`` and
    ``random_state`` are accepted at those values only; the precomputed
    matrices and mappings of Crowd-Kit's constructor are not supported. ``skills_`` is the signed skill s_w, as Crowd-Kit's
    (the CLI's ``signed_skill`` column; its ``skill`` column is the one-coin
    accuracy (1 + (M - 1) s_w) / M, with s_w clipped)."""

    MODEL = "mmsr"

    def __init__(self, n_iter=None, tol=None, random_state=None, observation_matrix=None, covariation_matrix=None,
                 n_common_tasks=None, n_workers=None, n_tasks=None, n_labels=None, labels_mapping=None,
                 workers_mapping=None, tasks_mapping=None, **options):
        super().__init__(_iter_options(n_iter, options),
                         {"tol": tol, "random_state": random_state,
                          "observation_matrix": observation_matrix, "covariation_matrix": covariation_matrix,
                          "n_common_tasks": n_common_tasks, "n_workers": n_workers, "n_tasks": n_tasks,
                          "n_labels": n_labels, "labels_mapping": labels_mapping,
                          "workers_mapping": workers_mapping, "tasks_mapping": tasks_mapping},
                         {"tol": 1e-10, "random_state": 0})

    def _set_attributes(self, r):
        super()._set_attributes(r)
        self.skills_ = self.workers_["signed_skill"].rename("skill")


class Consensus(_Aggregator):
    """Any model of ``consensus models``, by default ``vb-da-ds``: the
    calibrated default, whose ``probas_`` estimate each task's distribution
    of subjective labels rather than the posterior of one true label.

    Every option of :data:`consensus_crowd.OPTIONS` is a keyword
    (``q_prior``, ``max_iter``, ``seed``, ``strict``, ``threads``, ...).
    After fit, ``model_`` is the model that was fitted.
    """

    MODEL = DEFAULT_MODEL

    def __init__(self, model=DEFAULT_MODEL, **options):
        options["model"] = model
        super().__init__(options)

    def _set_attributes(self, r):
        super()._set_attributes(r)
        self.model_ = r.model
        self.tasks_ = r.tasks_


class Auto(Consensus):
    """``--model auto``: chooses among a few Bayesian models on held-out
    labels (``auto_models``, default those of ``consensus fit --help``; the
    criterion ``auto_criterion``, default the held-out label likelihood)
    and fits the choice, the model ``consensus compare`` and ``consensus
    report`` recommend; ``model_`` names it.
    """

    def __init__(self, auto_models=None, auto_criterion=None, **options):
        if "model" in options:
            raise TypeError("Auto() chooses the model; use Consensus(model=...) to name one")
        super().__init__("auto", auto_models=auto_models, auto_criterion=auto_criterion, **options)

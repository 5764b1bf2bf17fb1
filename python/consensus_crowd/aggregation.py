"""Classes with Crowd-Kit's names, methods and attributes.

Each class runs one model of ``consensus fit`` (see ``MODEL``) through
:func:`consensus_crowd.aggregate`, or, where Crowd-Kit's settings are
named, Crowd-Kit's algorithm in Python. The constructors take every
parameter of Crowd-Kit's, with its meaning, and this package's options
(``seed``, ``max_iter``, ``strict``, ``threads``, ... and ``binary``) as
keywords; an option that the chosen fit does not take raises TypeError,
which says why: nothing is silently ignored.

The methods ``fit``, ``fit_predict`` and ``fit_predict_proba`` take a
pandas DataFrame with columns task, worker and label (or any iterable of
(task, worker, label) tuples) and need pandas for their results.
"""

import math

from ._core import DEFAULT_MODEL, _pandas, aggregate, check_options
from ._frames import (_accuracy, _em_frames, _error_workers, _errors, _final_loss, _frame, _initial_arrays,
                      _mmsr_start, _one_coin_errors, _sorted_columns, _weighted_vote)
from ._glad_table import GLADTable

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
        weighs the workers by them, the other models refuse them. A frame
        without one of the columns raises KeyError (and ValueError), as
        pandas; one without rows gives empty results, as Crowd-Kit's.
        """
        pd = _pandas()  # before the fit, whose results need it
        data = _frame(pd, data)
        if len(data) == 0:
            self._set_empty(pd)
            return self
        options = dict(self._options)
        model = options.pop("model", self.MODEL)
        if true_labels is not None:
            if "train_gold" in options:
                raise TypeError("give true_labels to fit or train_gold to the constructor, not both")
            options["train_gold"] = true_labels
        self.result_ = aggregate(data, model, **options)
        self._set_attributes(self.result_)
        return self

    def _crowdkit_frame(self, data, true_labels, fit):
        """(pd, data as a frame) where Crowd-Kit's algorithm (self._ck) is
        to run in Python, else None after the CLI's fit (nothing of
        Crowd-Kit's named, or no rows). fit names that algorithm in the
        refusal of true_labels, which it does not take."""
        pd = _pandas()
        data = _frame(pd, data)
        if self._ck is None or len(data) == 0:
            _Aggregator.fit(self, data, true_labels)
            return None
        if true_labels is not None:
            raise TypeError("%s.fit: %s takes no true_labels" % (type(self).__name__, fit))
        return pd, data

    #: The dtype of an empty ``labels_``, as Crowd-Kit's.
    _EMPTY_LABELS = object

    def _set_empty(self, pd):
        """The attributes of a fit to no labels: empty, as Crowd-Kit's."""
        self.result_ = None
        if self._EMPTY_LABELS is float:  # as Crowd-Kit's, whose two kinds differ in their index
            self.labels_ = pd.Series(dtype=float, name="agg_label")
        else:
            self.labels_ = pd.Series([], dtype=object, name="agg_label")
        self.probas_ = pd.DataFrame()
        self.distributions_ = None
        self.workers_ = None
        self.skills_ = pd.Series([], dtype=float, name="skill")
        self.loss_history_ = []

    def fit_predict(self, data, true_labels=None):
        """Fit the model and return ``labels_``, a Series of labels indexed by task."""
        return self.fit(data, true_labels).labels_

    def fit_predict_proba(self, data, true_labels=None):
        """Fit the model and return ``probas_``, a DataFrame of tasks by classes."""
        return self.fit(data, true_labels).probas_

    def _set_attributes(self, r):
        self.labels_ = r.labels_
        self.probas_ = r.probas_
        self.distributions_ = r.distributions_
        self.workers_ = r.workers_
        if self.workers_ is not None:
            self.skills_ = self.workers_["skill"].rename("skill")
        self.loss_history_ = _final_loss(r)

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


class MajorityVote(_Aggregator):
    """Majority vote (model ``mv``): the labels' frequencies read through
    their argmax. ``probas_`` holds the frequencies; ``labels_`` their
    argmax, a tie going to the first class in sorted order, as Crowd-Kit's;
    ``skills_`` every worker's agreement with ``labels_`` (its share of
    distinct (task, label) pairs that match), as Crowd-Kit's.

    ``fit(data, skills)`` is Crowd-Kit's weighted vote: every worker's vote
    counts its skill (a Series or dict from worker to a number at least 0;
    ``--skills``). ``on_missing_skill`` says what a worker without a skill
    gets: ``"error"`` (the default) raises ValueError, ``"ignore"`` leaves
    its labels out (and out of ``skills_``; a task left without labels
    raises ValueError), ``"value"`` gives it ``default_skill``.
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
        pd = _pandas()
        data = _frame(pd, data)
        options = dict(self._options)
        model = options.pop("model", self.MODEL)
        if skills is not None:
            skills = pd.Series(skills, dtype=float) if not isinstance(skills, pd.Series) else skills
            data = self._skilled(pd, data, skills)
            options["skills"] = skills
            if self.on_missing_skill == "value":
                options["missing_skill"] = self.default_skill
        if len(data) == 0:
            self._set_empty(pd)
            return self
        self.result_ = aggregate(data, model, **options)
        self.workers_ = self.result_.workers_
        self.probas_ = _sorted_columns(self.result_.probas_)
        self.labels_ = self.probas_.idxmax(axis=1).rename("agg_label")
        self.skills_ = _accuracy(pd, data, self.labels_)
        self.loss_history_ = []
        return self

    def _skilled(self, pd, data, skills):
        """data without the labels of workers that have no skill, for
        on_missing_skill="ignore"; for "error", a ValueError naming one."""
        has = data["worker"].isin(skills.index)
        if has.all() or self.on_missing_skill == "value":
            return data
        missing = data.loc[~has, "worker"]
        if self.on_missing_skill == "error":
            raise ValueError("MajorityVote: no skill for worker %r (and %d other workers); give every worker a "
                             "skill or use on_missing_skill='ignore' or 'value'"
                             % (missing.iloc[0], missing.nunique() - 1))
        kept = data[has]
        lost = set(data["task"]) - set(kept["task"])
        if lost:
            raise ValueError("MajorityVote(on_missing_skill='ignore'): %d tasks have no worker with a skill, "
                             "such as %r; give a skill to at least one worker of every task"
                             % (len(lost), sorted(lost, key=str)[0]))
        return kept

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
        pd = _pandas()
        data = _frame(pd, data)
        options = {k: v for k, v in self._options.items() if k in ("binary", "seed", "max_memory")}
        r = aggregate(data, "mv", skills=skills, workers=False, **options)
        self.probas_ = _sorted_columns(r.probas_)
        self.labels_ = self.probas_.idxmax(axis=1).rename("agg_label")
        return self


class Wawa(_SkillVote, _Aggregator):
    """Worker agreement with aggregate (model ``wawa``): majority vote
    weighted by each worker's agreement with the majority vote, which is
    ``skills_``; ``predict(data)`` weighs the votes of new data by them."""

    MODEL = "wawa"

    def __init__(self, **options):
        super().__init__(options)


class ZeroBasedSkill(_SkillVote, _Aggregator):
    """Zero-based skill: a weighted vote whose skills move towards each
    worker's agreement with it. Two fits, by what is named:

    - ``ZeroBasedSkill()``: the CLI's ``zbs``: skills from 1/K, 100
      iterations, step 1 multiplied by 0.5 every 20 (a worker's repeated
      label on a task counts each time).
    - With ``n_iter``, ``eps`` or a step schedule other than Crowd-Kit's
      defaults named (``lr_init`` 1, ``lr_steps_to_reduce`` 20,
      ``lr_reduce_factor`` 0.5): Crowd-Kit's ZBS, in Python (numpy), with
      its defaults for the others (``n_iter`` 100, ``eps`` 1e-5): skills
      from 1/K + eps, ``n_iter`` iterations (0: the start), each worker's
      accuracy over its distinct (task, label) pairs (``_ckvote``).

    ``skills_`` holds the final skills; ``labels_`` and ``probas_`` the
    vote they weigh; ``predict(data)`` weighs the votes of new data by
    them (``fit -m mv --skills``)."""

    MODEL = "zbs"

    def __init__(self, n_iter=None, lr_init=1.0, lr_steps_to_reduce=20, lr_reduce_factor=0.5, eps=None,
                 **options):
        schedule = (lr_init, lr_steps_to_reduce, lr_reduce_factor)
        self._ck = None
        if n_iter is not None or eps is not None or schedule != (1.0, 20, 0.5):
            other = sorted(set(options) - {"binary"})
            if other:
                raise TypeError("ZeroBasedSkill(n_iter, eps, lr_...) runs Crowd-Kit's ZBS, which takes no option "
                                "%s; leave them out for the CLI's zbs" % ", ".join(other))
            n = 100 if n_iter is None else n_iter
            for name, v, least in (("n_iter", n, 0), ("lr_steps_to_reduce", lr_steps_to_reduce, 1)):
                if isinstance(v, bool) or not hasattr(v, "__index__") or v < least:
                    raise TypeError("ZeroBasedSkill(%s=%r): want an int at least %d" % (name, v, least))
            e = 1e-5 if eps is None else eps
            for name, v in (("lr_init", lr_init), ("lr_reduce_factor", lr_reduce_factor), ("eps", e)):
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                    raise TypeError("ZeroBasedSkill(%s=%r): want a finite number" % (name, v))
            self._ck = (int(n), float(lr_init), int(lr_steps_to_reduce), float(lr_reduce_factor), float(e))
        super().__init__(options)
        self.n_iter, self.eps = n_iter, eps
        self.lr_init, self.lr_steps_to_reduce, self.lr_reduce_factor = schedule

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self."""
        framed = self._crowdkit_frame(data, true_labels, "Crowd-Kit's ZBS")
        if framed is None:
            return self
        pd, data = framed
        from ._ckfit import Coded
        from ._ckvote import vote, zero_based_skill
        coded = Coded(pd, data)
        skills = zero_based_skill(coded, *self._ck)
        codes, shares = vote(coded, skills)
        self.probas_ = pd.DataFrame(shares, index=pd.Index(coded.tasks, name="task"),
                                    columns=pd.Index(coded.classes, name="label"))
        self.labels_ = pd.Series(coded.classes[codes], index=self.probas_.index, name="agg_label")
        self.skills_ = pd.Series(skills, index=pd.Index(coded.workers, name="worker"), name="skill")
        self.result_, self.workers_, self.loss_history_ = None, None, []
        return self


class GoldMajorityVote(_SkillVote, _Aggregator):
    """Gold majority vote: a vote weighted by each worker's accuracy on the
    tasks of ``true_labels``, which ``fit`` needs, as Crowd-Kit's
    ``fit(data, true_labels)``.

    ``skills_`` is Crowd-Kit's accuracy: each worker's share of its
    distinct (task, label) pairs on the known tasks that match the true
    label; ``true_labels`` may hold several labels for one task (a Series
    with a repeated index), and a pair then matches if it equals any of
    them. A worker with no label on those tasks gets the pooled accuracy
    of all pairs on them (Crowd-Kit leaves it out of ``skills_`` and its
    ``predict`` then refuses it), as the CLI's ``gmv`` does. ``fit`` also
    sets ``labels_`` and ``probas_``, the vote of data weighted by
    ``skills_`` (``fit -m mv --skills``); ``predict(data)`` weighs the
    votes of new data by them.
    """

    MODEL = "gmv"

    def __init__(self, **options):
        super().__init__(options)

    def fit(self, data, true_labels=None):
        """Fit the skills to data with the known labels true_labels, weigh
        the votes of data by them and return self."""
        pd = _pandas()
        if true_labels is None:
            raise TypeError("GoldMajorityVote.fit(data, true_labels): true_labels, the known labels of some "
                            "tasks, is required")
        data = _frame(pd, data)
        truth = true_labels if isinstance(true_labels, pd.Series) else pd.Series(true_labels)
        if isinstance(true_labels, pd.DataFrame) or not isinstance(truth, pd.Series):
            raise TypeError("true_labels must be a Series or dict from task to label")
        if len(data) == 0:
            self._set_empty(pd)
            return self
        skills = _accuracy(pd, data, truth)
        if len(skills) == 0:
            raise ValueError("GoldMajorityVote.fit: no label of data is on a task of true_labels, so no worker's "
                             "accuracy can be measured")
        joined = data.join(truth.rename("true_label"), on="task", how="inner")
        joined = joined.assign(score=(joined["label"] == joined["true_label"]).astype(float))
        pooled = joined.sort_values("score", kind="mergesort").drop_duplicates(
            ["task", "worker", "label"], keep="last")["score"].mean()
        others = sorted(set(data["worker"]) - set(skills.index), key=str)
        if others:
            skills = pd.concat([skills, pd.Series(pooled, index=others)]).rename("skill")
        skills.index.name = "worker"
        self.skills_ = skills.sort_index()
        self.workers_ = None
        self.loss_history_ = []
        self._apply(data)
        self.result_ = None
        return self

    def fit_predict(self, data, true_labels=None):
        """Fit the model and return ``labels_``."""
        return self.fit(data, true_labels).labels_

    def fit_predict_proba(self, data, true_labels=None):
        """Fit the model and return ``probas_``."""
        return self.fit(data, true_labels).probas_


def _crowdkit_iterations(owner, n_iter, tol, options, default_n_iter=100, default_tol=1e-5):
    """(n_iter, tol) of Crowd-Kit's iterations when either is named, else
    None (the CLI's converged fit). Named, the CLI's fit options do not
    apply and are refused."""
    if n_iter is None and tol is None:
        return None
    n_iter = default_n_iter if n_iter is None else n_iter
    tol = default_tol if tol is None else tol
    if isinstance(n_iter, bool) or not isinstance(n_iter, int) and not hasattr(n_iter, "__index__") or n_iter < 0:
        raise TypeError("%s(n_iter=%r): want an int at least 0" % (owner, n_iter))
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not tol >= 0:
        raise TypeError("%s(tol=%r): want a number at least 0" % (owner, tol))
    other = sorted(k for k in options if k != "binary")
    if other:
        raise TypeError("%s(n_iter=..., tol=...) runs Crowd-Kit's iterations, which take no option %s; leave "
                        "n_iter and tol out for the CLI's converged fit" % (owner, ", ".join(other)))
    return int(n_iter), float(tol)


class DawidSkene(_Aggregator):
    """Dawid and Skene: a confusion matrix per worker and a learned class
    prior, maximum likelihood by EM.

    Two fits, by what is named:

    - ``DawidSkene()``: the CLI's ``la-ds``, EM (accelerated by SQUAREM)
      run to convergence (``max_iter``, ``func_tol`` and the other options
      of ``OPTIONS`` apply).
    - ``DawidSkene(n_iter, tol)`` with either named: Crowd-Kit's loop, k
      plain EM steps from the majority vote (ties to the first class; the
      M-step first, so ``n_iter=0`` is the majority vote and the matrices
      it implies), stopping after ``n_iter`` steps (default 100) or when
      the evidence lower bound per label grows by less than ``tol``
      (default 1e-5). ``loss_history_`` holds that bound at every step.
      It runs in Python (numpy), in seconds for 10⁵ labels.

    ``fit(data, true_labels, initial_error)``: ``true_labels`` clamps the
    known tasks to their class. ``initial_error`` (index (worker, observed
    label), one column per true label) with ``initial_error_strategy``:
    ``"assign"`` starts from those matrices (counts or probabilities,
    every worker of the data needs one; in Crowd-Kit's loop probabilities
    must sum to one per worker and true class), ``"addition"`` adds them
    as counts to the first M-step's (Crowd-Kit's loop; with neither
    ``n_iter`` nor ``tol`` named, its defaults 100 and 1e-5).

    Attributes after fit: ``labels_``, ``probas_``, ``errors_`` (index
    (worker, observed label), one column per true label), ``priors_``,
    ``loss_history_``; the converged fit adds ``skills_`` (the probability
    that the worker reports the consensus class) and ``workers_`` (the
    CLI's worker table).
    """

    MODEL = "la-ds"
    _EMPTY_LABELS = float

    def __init__(self, n_iter=None, tol=None, initial_error_strategy=None, **options):
        if initial_error_strategy not in (None, "assign", "addition"):
            raise ValueError("DawidSkene(initial_error_strategy=%r): want None, 'assign' or 'addition'"
                             % (initial_error_strategy,))
        if initial_error_strategy == "addition" and n_iter is None and tol is None:
            n_iter = 100  # the addition is Crowd-Kit's loop's alone
        self._ck = _crowdkit_iterations(type(self).__name__, n_iter, tol, options)
        super().__init__(options if self._ck else _iter_options(n_iter, options))
        self.n_iter, self.tol = n_iter, tol
        self.initial_error_strategy = initial_error_strategy

    def fit(self, data, true_labels=None, initial_error=None):
        """Fit the model to data (with the known labels true_labels, and
        from the error matrices initial_error) and return self."""
        pd = _pandas()
        data = _frame(pd, data)
        if initial_error is not None and self.initial_error_strategy is None:
            raise TypeError("DawidSkene.fit(initial_error=...) needs initial_error_strategy='assign' or "
                            "'addition' (Crowd-Kit ignores the matrices without one)")
        if len(data) == 0:
            self._set_empty(pd)
            self.errors_, self.priors_ = pd.DataFrame(), pd.Series(dtype=float, name="prior")
            return self
        if self._ck is not None:
            return self._fit_crowdkit(pd, data, true_labels, initial_error)
        if initial_error is None:
            return super().fit(data, true_labels)
        if "init_workers" in self._options:
            raise TypeError("give initial_error to fit or init_workers to the constructor, not both")
        workers = set(data["worker"])
        saved = self._options
        self._options = dict(saved, init_workers=_error_workers(initial_error, workers))
        try:
            return super().fit(data, true_labels)
        finally:
            self._options = saved

    def _fit_crowdkit(self, pd, data, true_labels, initial_error):
        from . import _ckfit
        coded = _ckfit.Coded(pd, data)
        gold = _ckfit.gold_codes(pd, coded, true_labels)
        initial = None
        if initial_error is not None:
            initial = _initial_arrays(pd, coded, initial_error, self.initial_error_strategy)
        n_iter, tol = self._ck
        fit = _ckfit.dawid_skene(coded, n_iter, tol, gold, initial, self.initial_error_strategy)
        _em_frames(pd, coded, fit, self)
        if n_iter == 0 and initial_error is not None and self.initial_error_strategy == "assign":
            errors = initial_error.clip(lower=_ckfit.EPS)
            self.errors_ = errors / errors.groupby(level="worker", sort=False).transform("sum")
        return self

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
    """One-coin Dawid-Skene: one accuracy per worker, errors uniform over
    the other classes, a learned class prior.

    ``OneCoinDawidSkene()`` is the CLI's ``la-onecoin`` fitted to
    convergence by L-BFGS. With ``n_iter`` or ``tol`` named it is
    Crowd-Kit's loop, as ``DawidSkene``'s: plain EM steps from the majority
    vote, each worker's skill the mean posterior probability of the labels
    it gave, stopping on ``n_iter`` or on ``tol``. ``skills_`` is the
    accuracy, ``errors_`` the matrices it implies, ``priors_`` the class
    prior. ``initial_error_strategy`` is Crowd-Kit's parameter of the base
    class, which its one-coin fit, taking no initial error, never uses: any
    of its values is accepted, without effect, as in Crowd-Kit.
    """

    MODEL = "la-onecoin"
    _EMPTY_LABELS = float

    def __init__(self, n_iter=None, tol=None, initial_error_strategy=None, **options):
        if initial_error_strategy not in (None, "assign", "addition"):
            raise ValueError("OneCoinDawidSkene(initial_error_strategy=%r): want None, 'assign' or 'addition'"
                             % (initial_error_strategy,))
        self._ck = _crowdkit_iterations(type(self).__name__, n_iter, tol, options)
        super().__init__(options if self._ck else _iter_options(n_iter, options))
        self.n_iter, self.tol, self.initial_error_strategy = n_iter, tol, initial_error_strategy

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self."""
        pd = _pandas()
        data = _frame(pd, data)
        if len(data) == 0:
            self._set_empty(pd)
            self.errors_, self.priors_ = pd.DataFrame(), pd.Series(dtype=float, name="prior")
            return self
        if self._ck is None:
            return super().fit(data, true_labels)
        if true_labels is not None:
            raise TypeError("OneCoinDawidSkene(n_iter=..., tol=...).fit: Crowd-Kit's loop takes no true_labels; "
                            "leave n_iter and tol out for the CLI's fit, which clamps them")
        from . import _ckfit
        coded = _ckfit.Coded(pd, data)
        fit = _ckfit.one_coin(coded, *self._ck)
        _em_frames(pd, coded, fit, self)
        self.skills_ = pd.Series(fit.skills, index=pd.Index(coded.workers, name="worker"), name="skill")
        return self

    def _set_attributes(self, r):
        super()._set_attributes(r)
        import pandas as pd
        self.skills_ = self.workers_["accuracy"].rename("skill")
        self.errors_ = _one_coin_errors(pd, self.skills_, r.classes)
        self.priors_ = self.probas_.mean().rename("prior")


class GLAD(GLADTable, _Aggregator):
    """GLAD (model ``la-glad``): a worker is right with probability
    σ(ability × difficulty), uniform class prior, under Gaussian priors
    N(1, 1) on the abilities and the log difficulties.

    Two fits, by what is named:

    - ``GLAD()``: the CLI's ``la-glad --glad-prior 1``, the posterior mode
      by L-BFGS to convergence (``max_iter``, ``func_tol`` and the other
      options of ``OPTIONS`` apply; ``glad_prior=VAR`` sets the priors'
      variance, ``glad_prior=0`` fits the paper's maximum likelihood,
      whose optimum lies at infinity).
    - With any of Crowd-Kit's settings named (``n_iter``, ``tol``,
      ``labels_priors``, ``alphas_priors_mean``, ``betas_priors_mean``,
      ``m_step_max_iter``, ``m_step_tol``): Crowd-Kit's EM, in Python
      (numpy), with its defaults for the others (100, 1e-5, uniform,
      1, 1, 25, 1e-2): from every ability and log difficulty 1, an
      E-step, then ``n_iter`` iterations of an E-step and an M-step by
      conjugate gradients as SciPy's ``minimize(method="CG")`` runs them
      (``m_step_max_iter`` iterations, gradient tolerance
      ``m_step_tol``), stopping early when the objective per label and
      class (``loss_history_``) grew by less than ``tol``; ``n_iter=0``
      is the start. Its iterates equal Crowd-Kit's to about 1e-12
      (docs/crowdkit.md).

    ``silent`` is accepted (the fit never prints). Crowd-Kit's private
    methods on its long table (``_init``, ``_join_all``, ``_e_step``,
    ``_compute_Q``, ``_gradient_Q``, ``_m_step``, ...) are there with its
    signatures and meaning, for code that calls them (``_glad_table``).

    Attributes after fit: ``labels_``, ``probas_`` (columns named
    ``variable``, as Crowd-Kit's), ``alphas_`` (abilities), ``betas_`` (log
    difficulties), ``priors_`` (the class prior, unnamed as Crowd-Kit's),
    ``prior_labels_``, ``alphas_priors_mean_``, ``betas_priors_mean_``,
    ``loss_history_``, ``workers_`` and ``tasks_`` (the names, in order
    of first appearance, as Crowd-Kit's). The converged fit adds
    ``skills_``; its ``loss_history_`` has one entry, the fitted mean
    log-likelihood per label, and ``result_`` holds the CLI's worker and
    task tables (``result_.workers_``, ``result_.tasks_``).
    """

    MODEL = "la-glad"

    def __init__(self, n_iter=None, tol=None, silent=True, labels_priors=None, alphas_priors_mean=None,
                 betas_priors_mean=None, m_step_max_iter=None, m_step_tol=None, **options):
        named = {"labels_priors": labels_priors, "alphas_priors_mean": alphas_priors_mean,
                 "betas_priors_mean": betas_priors_mean, "m_step_max_iter": m_step_max_iter,
                 "m_step_tol": m_step_tol}
        self._ck = None
        if any(v is not None for v in named.values()) and n_iter is None and tol is None:
            n_iter = 100
        self._ck = _crowdkit_iterations("GLAD", n_iter, tol, options)
        if self._ck is not None:
            steps = 25 if m_step_max_iter is None else m_step_max_iter
            if isinstance(steps, bool) or not hasattr(steps, "__index__") or steps < 0:
                raise TypeError("GLAD(m_step_max_iter=%r): want an int at least 0" % (steps,))
            m_tol = 1e-2 if m_step_tol is None else m_step_tol
            if isinstance(m_tol, bool) or not isinstance(m_tol, (int, float)) or not m_tol >= 0:
                raise TypeError("GLAD(m_step_tol=%r): want a number at least 0" % (m_tol,))
            self._ck += (int(steps), float(m_tol))
        else:
            options.setdefault("glad_prior", 1.0)
        super().__init__(options)
        self.n_iter, self.tol, self.silent = n_iter, tol, silent
        self.labels_priors, self.alphas_priors_mean, self.betas_priors_mean = (
            labels_priors, alphas_priors_mean, betas_priors_mean)
        self.m_step_max_iter, self.m_step_tol = m_step_max_iter, m_step_tol

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self."""
        pd = _pandas()
        data = _frame(pd, data)
        framed = self._crowdkit_frame(data, true_labels, "Crowd-Kit's EM")
        if framed is None:
            if self.result_ is None:  # no rows
                self.priors_ = pd.Series(dtype=float)
            else:  # the names, as Crowd-Kit's
                self.workers_, self.tasks_ = pd.unique(data["worker"]), pd.unique(data["task"])
            return self
        pd, data = framed
        from . import _ckglad
        n_iter, tol, steps, m_tol = self._ck
        fit, tasks, workers, classes = _ckglad.fit(pd, data, n_iter, tol, steps, m_tol, self.labels_priors,
                                                   self.alphas_priors_mean, self.betas_priors_mean)
        probas = pd.DataFrame(fit.q, index=pd.Index(tasks, name="task"), columns=pd.Index(classes, name="variable"))
        try:
            probas = probas.sort_index().sort_index(axis=1)  # as Crowd-Kit's groupby and unstack
        except TypeError:
            pass
        self.probas_ = probas
        self.labels_ = probas.idxmax(axis=1).rename("agg_label")
        # index names as Crowd-Kit's: none before its first M-step
        after = n_iter > 0
        self.alphas_ = pd.Series(fit.alpha, index=pd.Index(workers, name="worker" if after else None), name="alpha")
        self.betas_ = pd.Series(fit.beta, index=pd.Index(tasks, name="task" if after else None), name="beta")
        self._crowdkit_priors(pd, list(classes), workers, tasks)
        if self.labels_priors is not None:
            self.priors_ = pd.Series(self.labels_priors)
            self.prior_labels_ = self.priors_.index
        if self.alphas_priors_mean is not None:
            self.alphas_priors_mean_ = self.alphas_priors_mean
        if self.betas_priors_mean is not None:
            self.betas_priors_mean_ = self.betas_priors_mean
        self.workers_, self.tasks_ = workers.to_numpy(), tasks.to_numpy()
        self.loss_history_ = list(fit.history)
        self.result_ = None
        return self

    def _crowdkit_priors(self, pd, classes, workers, tasks):
        """Crowd-Kit's names for the priors: ``priors_`` (the uniform class
        prior, unnamed, as Crowd-Kit's), ``prior_labels_``, and the means
        of the priors on the abilities and log difficulties (1)."""
        import numpy as np
        self.priors_ = pd.Series(1.0 / len(classes), index=classes)
        self.prior_labels_ = pd.Series(classes).to_numpy()  # object for text, as Crowd-Kit's pd.unique
        self.alphas_priors_mean_ = pd.Series(1.0, index=list(workers))
        self.betas_priors_mean_ = pd.Series(1.0, index=list(tasks))

    def _set_attributes(self, r):
        super()._set_attributes(r)
        import pandas as pd
        self.alphas_ = self.workers_["ability"].rename("alpha")
        self.betas_ = r.tasks_["difficulty"].map(math.log).rename("beta")
        self.probas_.columns.name = "variable"  # as Crowd-Kit's, whose columns come from a melt
        self._crowdkit_priors(pd, list(r.classes), self.alphas_.index, self.betas_.index)


class MACE(_Aggregator):
    """MACE (Hovy et al. 2013): a worker knows the task's class with
    probability θ_w and gives it, else spams, drawing a label from its own
    distribution.

    ``MACE()``: the CLI's ``la-mace``, maximum likelihood by L-BFGS from one
    deterministic start (``max_iter`` and the options of ``OPTIONS``
    apply). With any of Crowd-Kit's parameters named (``n_restarts``,
    ``n_iter``, ``method``, ``smoothing``, ``default_noise``, ``alpha``,
    ``beta``, ``random_state``): Crowd-Kit's fit, in Python (numpy), with
    Crowd-Kit's defaults for the others (10 restarts of 50 iterations,
    ``method="vb"``, default_noise 0.5, alpha = beta = 0.5, random_state
    0): every restart starts from parameters drawn uniformly from
    [1, 2 + default_noise] (normalised) with ``random_state``, and runs
    ``n_iter`` M- and E-steps, "em" with smoothed counts (smoothing
    0.01/K), "vb" the variational updates under Beta(alpha, beta) on
    (spamming, knowing) and Dirichlet(10, ..., 10) on the spamming
    distributions; the restart of the highest marginal likelihood is
    kept. (As in Crowd-Kit, every restart draws from the same
    ``random_state``, so restarts repeat one start.) The E-step's
    expected spamming counts are read as Crowd-Kit reads them: in sorted
    worker and label order, as if in order of first appearance
    (docs/crowdkit.md), so the numbers are Crowd-Kit's. ``smoothing``
    other than 0.1 also selects Crowd-Kit's fit, which ignores its value,
    as Crowd-Kit's does.

    Attributes after fit: ``labels_``, ``probas_``, ``spamming_`` (an
    array, a row per worker in order of first appearance: P(spamming),
    P(knowing)), ``thetas_`` (an array, workers by classes in order of
    first appearance: the spamming distributions); the CLI's fit adds
    ``skills_`` (θ_w) and ``workers_`` (columns ``truthful`` and
    ``spam[<class>]``). ``smoothing_``, ``theta_priors_`` and
    ``strategy_priors_`` are Crowd-Kit's fit's (the CLI's maximum
    likelihood has 0 and None). ``verbose`` is accepted (the fit never
    prints).
    """

    MODEL = "la-mace"

    def __init__(self, n_restarts=None, n_iter=None, method=None, smoothing=0.1, default_noise=None, alpha=None,
                 beta=None, random_state=None, verbose=0, **options):
        named = {"n_restarts": n_restarts, "n_iter": n_iter, "method": method, "default_noise": default_noise,
                 "alpha": alpha, "beta": beta, "random_state": random_state,
                 "smoothing": None if smoothing == 0.1 else smoothing}
        self._ck = None
        if any(v is not None for v in named.values()):
            other = sorted(set(options) - {"binary"})
            if other:
                raise TypeError("MACE(%s) runs Crowd-Kit's fit, which takes no option %s" % (
                    ", ".join("%s=%r" % kv for kv in named.items() if kv[1] is not None), ", ".join(other)))
            settings = {"n_restarts": 10, "n_iter": 50, "method": "vb", "default_noise": 0.5, "alpha": 0.5,
                        "beta": 0.5, "random_state": 0}
            settings.update({k: v for k, v in named.items() if v is not None})
            if settings["method"] not in ("vb", "em"):
                raise ValueError("MACE(method=%r): want 'vb' or 'em'" % (settings["method"],))
            for k in ("n_restarts", "n_iter", "random_state"):
                v = settings[k]
                if isinstance(v, bool) or not hasattr(v, "__index__") or v < 0:
                    raise TypeError("MACE(%s=%r): want an int at least 0" % (k, v))
            if settings["n_restarts"] < 1:
                raise ValueError("MACE(n_restarts=%r): want at least 1" % (settings["n_restarts"],))
            self._ck = settings
        super().__init__(options)
        self.verbose, self.smoothing = verbose, smoothing

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self."""
        framed = self._crowdkit_frame(data, true_labels, "Crowd-Kit's MACE")
        if framed is None:
            return self
        pd, data = framed
        import numpy as np
        from ._ckfit import Coded, mace, mace_mixed_up
        coded = Coded(pd, data, sort=False)
        st = self._ck
        state, post = mace(coded, st["n_restarts"], st["n_iter"], st["method"], st["default_noise"], st["alpha"],
                           st["beta"], st["random_state"], mace_mixed_up(coded))
        self.spamming_, self.thetas_ = state.spamming, state.thetas
        classes = pd.Index(coded.classes, name="label")
        order = _sorted_columns(pd.DataFrame(post, columns=classes)).columns
        self.probas_ = pd.DataFrame(post, index=pd.Index(coded.tasks, name="task"), columns=classes)[order]
        self.probas_ = self.probas_.sort_index()
        self.probas_.columns.name = None
        self.labels_ = self.probas_.idxmax(axis=1).rename("agg_label")
        self.result_, self.workers_, self.loss_history_ = None, None, []
        self.smoothing_ = 0.01 / coded.K
        if st["method"] == "vb":
            self.theta_priors_ = np.tile([float(st["alpha"]), float(st["beta"])], (coded.W, 1))
            self.strategy_priors_ = np.full((coded.W, coded.K), 10.0)
        else:
            self.theta_priors_ = self.strategy_priors_ = None
        return self

    def _set_attributes(self, r):
        super()._set_attributes(r)
        import numpy as np
        w = self.workers_
        self.skills_ = w["truthful"].rename("skill")
        self.spamming_ = np.column_stack([1 - w["truthful"].to_numpy(), w["truthful"].to_numpy()])
        self.thetas_ = w[["spam[%s]" % c for c in r.class_texts]].to_numpy()
        self.probas_.columns.name = None
        # maximum likelihood: no smoothing and no priors
        self.smoothing_, self.theta_priors_, self.strategy_priors_ = 0.0, None, None


class KOS(_Aggregator):
    """Karger, Oh and Shah's message passing, two classes only. Two fits,
    by what is named:

    - ``KOS()``: the CLI's ``kos``: each worker's labels centred, 100
      iterations, the sign under which the workers beat random
      (docs/crowdkit.md).
    - ``KOS(n_iter, random_state)`` with either named: Crowd-Kit's KOS, in
      Python (numpy): the labels as given (the first label +1, the other
      −1), worker messages starting as numpy's
      ``RandomState(random_state).normal(1, 1)`` draws, one per row in the
      rows' order, ``n_iter`` iterations (default 100; 0: the start's
      signs), stopping early when a sum passes 10³⁰⁰; ``labels_`` is the
      sign of each task's score (a score of exactly 0, where Crowd-Kit
      raises KeyError, gives the first label). ``random_state`` is an int
      from 0 to 2³² − 1 (default 0). ``probas_`` is None, as Crowd-Kit's
      KOS has none.
    """

    MODEL = "kos"

    def __init__(self, n_iter=None, random_state=None, **options):
        self._ck = None
        if n_iter is not None or random_state is not None:
            from ._ckfit import check_random_state
            other = sorted(set(options) - {"binary"})
            if other:
                raise TypeError("KOS(n_iter=..., random_state=...) runs Crowd-Kit's KOS, which takes no option %s; "
                                "leave both out for the CLI's kos" % ", ".join(other))
            n = 100 if n_iter is None else n_iter
            if isinstance(n, bool) or not hasattr(n, "__index__") or n < 0:
                raise TypeError("KOS(n_iter=%r): want an int at least 0" % (n,))
            self._ck = (int(n), check_random_state("KOS", 0 if random_state is None else random_state))
        super().__init__(options)
        self.n_iter, self.random_state = n_iter, random_state

    def fit(self, data, true_labels=None):
        """Fit the model to data and return self."""
        framed = self._crowdkit_frame(data, true_labels, "Crowd-Kit's KOS")
        if framed is None:
            return self
        pd, data = framed
        import numpy as np
        from ._ckfit import kos
        classes = pd.unique(data["label"])
        if len(classes) != 2:
            raise ValueError("KOS: two classes only, and the labels have %d; use another model" % len(classes))
        t, tasks = pd.factorize(data["task"], sort=False)
        w, _ = pd.factorize(data["worker"], sort=False)
        a = np.where((data["label"] == classes[0]).to_numpy(), 1.0, -1.0)
        score = kos(t, w, a, *self._ck)
        labels = pd.Series(np.where(score >= 0, classes[0], classes[1]), index=pd.Index(tasks, name="task"),
                           name="agg_label").infer_objects()  # the dtype of the labels, as Crowd-Kit's
        try:
            labels = labels.sort_index()  # as Crowd-Kit's groupby
        except TypeError:
            pass
        self.labels_, self.probas_, self.result_, self.workers_ = labels, None, None, None
        return self


class MMSR(_Aggregator):
    """Matrix mean-subsequence-reduced (model ``mmsr``): skills by robust
    rank-one completion of the workers' agreement matrix, then a log-odds
    weighted vote.

    ``n_iter`` bounds the sweeps (``--max-iter``; default 10000, as
    Crowd-Kit's, unless the option ``max_iter`` is given; 0: the
    skills of the start, without a sweep); the start is Crowd-Kit's (u = v
    drawn as numpy's ``RandomState(random_state)`` draws them, ``--random-state``;
    an int from 0 to 2³² − 1, None: 0), so the skills equal Crowd-Kit's;
    ``tol`` is Crowd-Kit's (``--tol``): the sweeps stop when one changes
    u vᵀ by less than that in Frobenius norm (0: every sweep runs). The
    matrices and mappings of Crowd-Kit's constructor (``observation_matrix``,
    ``covariation_matrix``, ``n_common_tasks``, ``n_workers``, ``n_tasks``,
    ``n_labels``, ``*_mapping``) are its fit's working state, which its fit
    recomputes from the data: accepted with that meaning, any value, no
    effect on the fit.

    After fit, as Crowd-Kit's: ``skills_`` is each worker's vote weight,
    the log-odds log((K − 1) p_w / (1 − p_w)) of its one-coin accuracy
    p_w = (1 + (K − 1) s_w) / K, where s_w is the signed skill clipped to
    [−1/(K − 1) + 1/√n, 1 − 1/√n] (n tasks, K classes); ``labels_`` and
    ``scores_`` are the vote of the data weighted by ``skills_``
    (``labels_``: the class of the largest weighted sum, ties to the first
    class, which is the argmax of ``probas_``; ``scores_``: each class's
    share of a task's total weight, as Crowd-Kit's, which negative weights
    can push outside [0, 1], turn around when the total is negative, and
    leave undefined, NaN, when it is 0; Crowd-Kit takes its labels from the
    shares, so they differ from these on tasks of negative total).
    ``predict(data)`` and ``predict_score(data)`` weigh the labels of data
    by the fitted ``skills_``. ``probas_`` is the one-coin posterior of the
    CLI and ``workers_`` its worker table (``skill`` p_w, ``signed_skill``
    s_w unclipped).
    """

    MODEL = "mmsr"

    def __init__(self, n_iter=10000, tol=1e-10, random_state=0, observation_matrix=None, covariation_matrix=None,
                 n_common_tasks=None, n_workers=0, n_tasks=0, n_labels=0, labels_mapping=None,
                 workers_mapping=None, tasks_mapping=None, **options):
        from ._ckfit import check_random_state
        self._seed = check_random_state("MMSR", 0 if random_state is None else random_state)
        if self._seed != 0:
            if "random_state" in options:
                raise TypeError("MMSR(random_state=...) is the option random_state; give it once")
            options["random_state"] = self._seed
        if n_iter == 10000 and not isinstance(n_iter, bool) and "max_iter" in options:
            n_iter = None  # the default, and max_iter given
        if tol != 1e-10:
            if "tol" in options:
                raise TypeError("MMSR(tol=...) is the option tol; give it once")
            options["tol"] = tol
        super().__init__(_iter_options(n_iter, options))
        # Crowd-Kit's fit recomputes these from the data, whatever was given
        self._observation_matrix, self._covariation_matrix = observation_matrix, covariation_matrix
        self._n_common_tasks, self._n_workers, self._n_tasks, self._n_labels = (
            n_common_tasks, n_workers, n_tasks, n_labels)
        self._labels_mapping, self._workers_mapping, self._tasks_mapping = (
            labels_mapping, workers_mapping, tasks_mapping)
        self._start_only = n_iter == 0 and not isinstance(n_iter, bool)
        if self._start_only:
            self._options.pop("max_iter")

    def fit(self, data, true_labels=None):
        """Fit the skills to data, weigh its labels by them and return self
        (true_labels: refused, as by the CLI's mmsr)."""
        pd = _pandas()
        data = _frame(pd, data)
        if self._start_only and len(data) > 0:
            if true_labels is not None:
                raise TypeError("MMSR.fit takes no true_labels")
            self.skills_ = _mmsr_start(pd, data, self._seed)
            self.result_, self.workers_, self.probas_, self.loss_history_ = None, None, None, []
            return self._apply(pd, data)
        super().fit(data, true_labels)
        if len(data) == 0:
            self.scores_ = pd.DataFrame()
        else:
            self._apply(pd, data)
        return self

    def _set_attributes(self, r):
        import numpy as np
        super()._set_attributes(r)
        k = len(r.classes)
        p = self.workers_["skill"]
        self.skills_ = np.log(p * (k - 1) / (1 - p)).rename("skill")

    def _apply(self, pd, data):
        skills = getattr(self, "skills_", None)
        if skills is None:
            raise ValueError("MMSR.predict: fit the model first; predict weighs the votes by its skills_")
        self.labels_, self.scores_ = _weighted_vote(pd, data, skills)
        return self

    def predict(self, data):
        """The labels of data's tasks by the vote weighted by ``skills_``."""
        pd = _pandas()
        return self._apply(pd, _frame(pd, data)).labels_

    def predict_score(self, data):
        """The vote of data's tasks weighted by ``skills_``, a DataFrame of
        tasks by classes (``scores_``)."""
        pd = _pandas()
        return self._apply(pd, _frame(pd, data)).scores_

    def fit_predict(self, data, true_labels=None):
        """Fit the model and return ``labels_``."""
        return self.fit(data, true_labels).labels_

    def fit_predict_score(self, data):
        """Fit the model and return ``scores_``."""
        return self.fit(data).scores_


class Consensus(_Aggregator):
    """Any model of ``consensus models``, by default ``vb-ds``: the
    default, whose ``probas_`` are the calibrated probabilities of each
    task's true class (Crowd-Kit's meaning) and whose ``distributions_``
    (after fit) are each task's label distribution q_j.

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

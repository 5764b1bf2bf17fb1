"""Pairwise comparisons: Crowd-Kit's BradleyTerry and NoisyBradleyTerry over
``consensus pairwise fit``.

    >>> from consensus_crowd import BradleyTerry, NoisyBradleyTerry, aggregate_pairwise
    >>> BradleyTerry(n_iter=100).fit_predict(df)   # df: columns worker, left, right, label
    >>> r = aggregate_pairwise(df, "noisy-bt")      # every output: r.scores, r.ranks, r.workers

The comparisons are written to a temporary CSV file (each value's text
recorded, so that the results use the values given), the CLI fits them, and
its tables are read back. See docs/pairwise.md for the models.
"""

import csv
import math
import os
import tempfile

from ._binary import find_binary
from ._core import _error, _locate, _message, _open_output, _pandas, _run
from ._files import MissingColumnError, _clean, _texts
from .aggregation import _iter_options, _refuse_unsupported

__all__ = ["aggregate_pairwise", "PairwiseResult", "BradleyTerry", "NoisyBradleyTerry"]

_MODELS = ("bt", "noisy-bt")


class PairwiseResult:
    """The outcome of one pairwise fit.

    Attributes:
        model: ``"bt"`` or ``"noisy-bt"``.
        items: the items, best first.
        scores: a dict from item to its score θ (the item beats another with
            probability σ(θ − θ_other)).
        weights: a dict from item to exp θ normalised to sum to 1.
        ranks: a dict from item to its rank, 1 for the best.
        wins, comparisons: dicts from item to the comparisons it won and
            those it took part in.
        ties: with ``tie=``, a dict from item to its comparisons that were
            ties; else None.
        workers: for ``noisy-bt``, a list of dicts with the keys
            ``worker``, ``skill``, ``bias`` and ``comparisons``; else None.
        log: the CLI's summary on standard error.

    With pandas, ``scores_``, ``weights_`` and ``workers_`` give the same
    data as a Series indexed by item and a DataFrame indexed by worker.
    """

    def __init__(self, model, rows, workers, log):
        self.model = model
        self.items = [r["item"] for r in rows]
        self.scores = {r["item"]: r["score"] for r in rows}
        self.weights = {r["item"]: r["weight"] for r in rows}
        self.ranks = {r["item"]: r["rank"] for r in rows}
        self.wins = {r["item"]: r["wins"] for r in rows}
        self.comparisons = {r["item"]: r["comparisons"] for r in rows}
        self.ties = {r["item"]: r["ties"] for r in rows} if rows and "ties" in rows[0] else None
        self.workers = workers
        self.log = log

    def __repr__(self):
        return "<PairwiseResult model=%r: %d items, %s workers>" % (
            self.model, len(self.items), "no" if self.workers is None else len(self.workers))

    def _series(self, values, name):
        pd = _pandas()
        return pd.Series([values[i] for i in self.items], index=pd.Index(self.items, name="label"), name=name)

    @property
    def scores_(self):
        """The scores θ as a pandas Series indexed by item, best first."""
        return self._series(self.scores, "score")

    @property
    def weights_(self):
        """The weights (exp θ normalised to sum to 1) as a pandas Series
        indexed by item, best first: Crowd-Kit's BradleyTerry ``scores_``."""
        return self._series(self.weights, "score")

    @property
    def workers_(self):
        """The workers' table as a pandas DataFrame indexed by worker, or
        None for ``bt``."""
        if self.workers is None:
            return None
        pd = _pandas()
        return pd.DataFrame(self.workers, columns=["worker", "skill", "bias", "comparisons"]).set_index("worker")


def aggregate_pairwise(comparisons, model="bt", *, prior=1.0, max_iter=None, tie=None, func_tol=None, binary=None,
                       worker_column="worker", left_column="left", right_column="right", label_column="label"):
    """Fit Bradley-Terry (``"bt"``) or noisy Bradley-Terry (``"noisy-bt"``)
    scores to pairwise comparisons with ``consensus pairwise fit``.

    Args:
        comparisons: a pandas DataFrame with the columns named by
            ``left_column``, ``right_column``, ``label_column`` (the chosen
            item, equal to the row's left or right item) and, for
            ``"noisy-bt"``, ``worker_column``; or an iterable of (worker,
            left, right, label) tuples. Values may be of any type whose
            ``str()`` identifies them; the results use the values as given.
        model: ``"bt"`` or ``"noisy-bt"``.
        prior: the weight of the logistic prior on the scores (``--prior``);
            0 fits Bradley-Terry's maximum likelihood, as Crowd-Kit does.
        max_iter: the iteration limit (``--max-iter``: Newton steps for
            ``"bt"``, L-BFGS iterations for ``"noisy-bt"``).
        tie: the label of a tie (``--tie``, ``"bt"`` only): a row whose
            label is ``tie`` is a comparison in which neither item was
            chosen, half a win for each; ``ties`` then counts them.
        func_tol: ``"noisy-bt"`` only: stop when an iteration changes the
            objective by less than this fraction (``--func-tol``, SciPy's
            L-BFGS-B ``ftol``, Crowd-Kit's ``tol``).
        binary: the path of the ``consensus`` executable (default: the
            environment variable CONSENSUS_BIN, else ``consensus`` on PATH).

    Returns:
        PairwiseResult

    Raises:
        TypeError, ValueError: an argument or value the CLI cannot take (the
            message names the row).
        ConsensusError: the CLI failed; the message is its one-line message,
            naming the row of ``comparisons``.
    """
    if model not in _MODELS:
        raise ValueError("model %r: want one of %s" % (model, ", ".join(_MODELS)))
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not math.isfinite(prior) or prior < 0:
        raise TypeError("prior must be a finite number at least 0, not %r" % (prior,))
    if max_iter is not None and (isinstance(max_iter, bool) or not isinstance(max_iter, int) or max_iter < 1):
        raise TypeError("max_iter must be a positive int, not %r" % (max_iter,))
    if func_tol is not None and (isinstance(func_tol, bool) or not isinstance(func_tol, (int, float))
                                 or not func_tol >= 0):
        raise TypeError("func_tol must be a number at least 0, not %r" % (func_tol,))
    tie_text = None
    if tie is not None:
        tie_text = _clean(tie, "tie")
    exe = find_binary(binary)
    columns, describe = _pairwise_columns(comparisons, model, (worker_column, left_column, right_column, label_column))
    back_item, back_worker = {}, {}
    texts = [None if col is None else _texts(col, role, describe, back)
             for col, role, back in zip(columns, ("worker", "item", "item", "item"),
                                        (back_worker, back_item, back_item, back_item))]
    if not texts[1]:
        raise ValueError("comparisons: no rows")
    with tempfile.TemporaryDirectory(prefix="consensus-crowd-") as tmp:
        in_path = os.path.join(tmp, "comparisons.csv")
        out_path = os.path.join(tmp, "scores.csv")
        workers_path = os.path.join(tmp, "workers.csv")
        header = ["left", "right", "label"]
        cols = texts[1:]
        if texts[0] is not None:
            header, cols = ["worker"] + header, texts
        with open(in_path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows(zip(*cols))
        multiline = any("\n" in t or "\r" in t for col in cols for t in set(col))
        cmd = [exe, "pairwise", "fit", in_path, "-o", out_path, "-m", model, "--prior", repr(float(prior))]
        if max_iter is not None:
            cmd += ["--max-iter", str(max_iter)]
        if tie_text is not None:
            cmd += ["--tie", tie_text]
        if func_tol:
            cmd += ["--func-tol", repr(float(func_tol))]
        if model == "noisy-bt":
            cmd += ["--workers", workers_path]
        proc = _run(cmd)
        if proc.returncode != 0:
            message = _locate(_message(proc.stderr, proc.returncode), in_path, describe, multiline, "comparisons")
            raise _error(message, proc.returncode, proc.stderr, cmd)
        kinds = {"rank": int, "score": float, "weight": float, "wins": int, "comparisons": int}
        if tie_text is not None:
            kinds["ties"] = int
        rows = _read(out_path, "item", back_item, kinds)
        workers = None
        if model == "noisy-bt":
            workers = _read(workers_path, "worker", back_worker, {"skill": float, "bias": float, "comparisons": int})
    return PairwiseResult(model, rows, workers, proc.stderr)


def _pairwise_columns(comparisons, model, names):
    """Return the worker (None if absent and not needed), left, right and
    label columns as lists, and describe(i), which names row i."""
    if hasattr(comparisons, "columns") and hasattr(comparisons, "index"):  # a pandas DataFrame
        need = names if model == "noisy-bt" or names[0] in comparisons.columns else names[1:]
        missing = [c for c in need if c not in comparisons.columns]
        if missing:
            raise MissingColumnError("comparisons: no column %s (columns: %s)" % (
                ", ".join(repr(c) for c in missing), ", ".join(repr(c) for c in comparisons.columns)))
        index = comparisons.index
        cols = [comparisons[c].tolist() if c in comparisons.columns else None for c in names]
        return cols, lambda i: "comparisons row %d (index %r)" % (i, index[i])
    if isinstance(comparisons, (str, bytes)):
        raise TypeError("comparisons must be a DataFrame or an iterable of (worker, left, right, label) tuples")
    rows = list(comparisons)
    for i, row in enumerate(rows):
        try:
            ok = len(row) == 4
        except TypeError:
            ok = False
        if not ok:
            raise ValueError("comparisons item %d: %r is not a (worker, left, right, label) tuple" % (i, row))
    return [[row[k] for row in rows] for k in range(4)], lambda i: "comparisons item %d" % i


def _read(path, key, back, kinds):
    """Read a table of the CLI: the key column mapped back to the values
    given, the others converted by kinds."""
    with _open_output(path) as f:
        r = csv.DictReader(f)
        rows = []
        for row in r:
            rec = {key: back[row[key]]}
            for name, kind in kinds.items():
                rec[name] = kind(row[name])
            rows.append(rec)
    return rows


class _Pairwise:
    """The shared part of the two classes."""

    MODEL = None

    def __init__(self, n_iter, options, unsupported, fixed=None, reasons=None):
        _refuse_unsupported(type(self).__name__, unsupported, fixed or {},
                            "it has no counterpart in consensus pairwise fit --model %s" % self.MODEL,
                            "docs/pairwise.md", reasons)
        options = _iter_options(n_iter, options)
        unknown = set(options) - {"prior", "max_iter", "tie", "func_tol", "binary", "worker_column", "left_column",
                                  "right_column", "label_column"}
        if unknown:
            raise TypeError("%s: unknown option %s" % (type(self).__name__, ", ".join(sorted(unknown))))
        self._options = options

    def fit(self, data):
        """Fit the model to data (columns worker, left, right and label)
        and return self. No comparisons give empty results."""
        pd = _pandas()
        if hasattr(data, "columns") and len(data) == 0:
            self._set_empty(pd)
            return self
        self.result_ = aggregate_pairwise(data, self.MODEL, **self._options)
        self._set_attributes(self.result_)
        return self

    def _set_empty(self, pd):
        self.result_ = None
        self.scores_ = pd.Series([], dtype=float, name="agg_score")
        self.loss_history_ = []

    def fit_predict(self, data):
        """Fit the model and return ``scores_``."""
        return self.fit(data).scores_

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % kv for kv in sorted(self._options.items())))


def _win_matrix(pd, data):
    """Crowd-Kit's BradleyTerry input: the items (every value of left,
    right and label, sorted) and wins[i, j], how often i beat j."""
    import numpy as np
    frame = data[["left", "right", "label"]]
    items, codes = np.unique(frame.to_numpy(), return_inverse=True)
    codes = codes.reshape(frame.shape)
    wins = np.zeros((len(items), len(items)))
    left = codes[:, 0] == codes[:, 2]
    right = codes[:, 1] == codes[:, 2]
    np.add.at(wins, (codes[left, 0], codes[left, 1]), 1)
    np.add.at(wins, (codes[right, 1], codes[right, 0]), 1)
    return items, wins


class BradleyTerry(_Pairwise):
    """Crowd-Kit's ``BradleyTerry``.

    ``BradleyTerry()``: ``consensus pairwise fit -m bt``, by default the
    maximum likelihood, Crowd-Kit's model (``prior=0``); ``prior=1`` adds
    the logistic prior of the CLI's default, which keeps every score
    finite; ``max_iter`` bounds its Newton steps, which stop when no score
    moves by more than 1e-9.

    ``BradleyTerry(n_iter, tol=1e-5)``: Crowd-Kit's fit, Hunter's MM steps
    from equal weights, ``n_iter`` of them (0: the equal weights), stopping
    early when a step moves the weights by less than ``tol`` in total. (Crowd-Kit
    1.4.1's loop compares an array with itself and always stops after two
    steps when ``tol`` > 0; here the rule is the one it documents.) It runs
    in Python (numpy). ``loss_history_`` holds every step's change.

    ``scores_`` are the weights, normalised to sum to 1, indexed by item,
    named ``agg_score``; ``result_`` holds every output of the CLI's fit.
    """

    MODEL = "bt"

    def __init__(self, n_iter=None, tol=1e-5, **options):
        if n_iter is None and tol != 1e-5:
            raise TypeError("BradleyTerry(tol=%r) needs n_iter, as Crowd-Kit's" % (tol,))
        self._ck = None
        if n_iter is not None:
            if isinstance(n_iter, bool) or not hasattr(n_iter, "__index__") or n_iter < 0:
                raise TypeError("BradleyTerry(n_iter=%r): want an int at least 0" % (n_iter,))
            if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not tol >= 0:
                raise TypeError("BradleyTerry(tol=%r): want a number at least 0" % (tol,))
            other = sorted(set(options) - {"binary"})
            if other:
                raise TypeError("BradleyTerry(n_iter=...) runs Crowd-Kit's MM steps, which take no option %s"
                                % ", ".join(other))
            self._ck = (int(n_iter), float(tol))
            n_iter = None
        options.setdefault("prior", 0.0)
        super().__init__(n_iter, options, {})

    def fit(self, data):
        """Fit the model to data (columns worker, left, right and label)
        and return self. No comparisons give empty results."""
        if self._ck is None:
            return super().fit(data)
        pd = _pandas()
        for c in ("left", "right", "label"):
            if c not in data.columns:
                raise MissingColumnError("comparisons: no column %r (columns: %s)"
                                         % (c, ", ".join(repr(c) for c in data.columns)))
        if len(data) == 0:
            self._set_empty(pd)
            return self
        from ._ckfit import bradley_terry
        items, wins = _win_matrix(pd, data)
        p, history = bradley_terry(wins, *self._ck)
        self.result_ = None
        self.scores_ = pd.Series(p, index=items, name="agg_score")
        self.loss_history_ = history
        return self

    def _set_attributes(self, r):
        self.scores_ = r.weights_.rename("agg_score").rename_axis(None)
        self.loss_history_ = []


class NoisyBradleyTerry(_Pairwise):
    """Crowd-Kit's ``NoisyBradleyTerry``. Two fits, by what is named:

    - ``NoisyBradleyTerry()``: ``consensus pairwise fit -m noisy-bt``, the
      maximum a posteriori fit by L-BFGS from the Bradley-Terry scores
      (``max_iter``, ``func_tol``, ``prior`` (the weight of the scores'
      logistic prior, default 1) and the options of the CLI apply).
    - With ``n_iter``, ``tol``, ``regularization_ratio`` or
      ``random_state`` named: Crowd-Kit's fit, defects included, with its
      defaults for the others (100, 1e-5, 1e-5, 0): SciPy's L-BFGS-B
      (``maxiter=n_iter``, ``ftol=float32(tol)``) from numpy's
      ``RandomState(random_state).rand`` draws, on Crowd-Kit's objective
      and gradient as it computes them (``_cknbt``: the regulariser enters
      with the sign that rewards scores far apart, and the gradient is not
      the objective's). It needs SciPy, as Crowd-Kit does.

    ``scores_`` are σ(θ), Crowd-Kit's scale, indexed by item, named
    ``agg_score``; ``skills_`` and ``biases_`` the workers' γ_w and β_w
    (σ of the logits in Crowd-Kit's fit); ``result_`` holds every output
    of the CLI's fit (None after Crowd-Kit's).
    """

    MODEL = "noisy-bt"

    def __init__(self, n_iter=None, tol=None, regularization_ratio=None, random_state=None, **options):
        named = {"n_iter": n_iter, "tol": tol, "regularization_ratio": regularization_ratio,
                 "random_state": random_state}
        self._ck = None
        if any(v is not None for v in named.values()):
            other = sorted(set(options) - {"binary"})
            if other:
                raise TypeError("NoisyBradleyTerry(%s) runs Crowd-Kit's fit, which takes no option %s; leave "
                                "n_iter, tol, regularization_ratio and random_state out for the CLI's fit"
                                % (", ".join("%s=%r" % kv for kv in named.items() if kv[1] is not None),
                                   ", ".join(other)))
            st = {"n_iter": 100, "tol": 1e-5, "regularization_ratio": 1e-5, "random_state": 0}
            st.update({k: v for k, v in named.items() if v is not None})
            if isinstance(st["n_iter"], bool) or not hasattr(st["n_iter"], "__index__") or st["n_iter"] < 0:
                raise TypeError("NoisyBradleyTerry(n_iter=%r): want an int at least 0" % (st["n_iter"],))
            for k in ("tol", "regularization_ratio"):
                v = st[k]
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                    raise TypeError("NoisyBradleyTerry(%s=%r): want a number at least 0" % (k, v))
            from ._ckfit import check_random_state
            self._ck = (int(st["n_iter"]), float(st["tol"]), float(st["regularization_ratio"]),
                        check_random_state("NoisyBradleyTerry", st["random_state"]))
        super().__init__(None, options, {})

    def fit(self, data):
        """Fit the model to data (columns worker, left, right and label)
        and return self."""
        if self._ck is None:
            return super().fit(data)
        pd = _pandas()
        for c in ("worker", "left", "right", "label"):
            if c not in data.columns:
                raise MissingColumnError("comparisons: no column %r (columns: %s)"
                                         % (c, ", ".join(repr(c) for c in data.columns)))
        if len(data) == 0:
            self._set_empty(pd)
            return self
        try:
            from . import _cknbt
            items, x, workers = _cknbt.fit(pd, data, *self._ck)
        except ImportError as e:
            raise ImportError("NoisyBradleyTerry(n_iter, tol, regularization_ratio, random_state) runs Crowd-Kit's "
                              "fit, SciPy's L-BFGS-B, and SciPy is not installed (%s); install it (Debian: "
                              "python3-scipy) or leave those arguments out for the CLI's fit" % e) from e
        n = len(items)
        sig = _cknbt._sigmoid(x)
        self.result_ = None
        self.scores_ = pd.Series(sig[1:n + 1], index=pd.Index(items, name="label"), name="agg_score")
        self.biases_ = pd.Series(sig[n + 1:n + 1 + len(workers)], index=pd.Index(workers), name="bias")
        self.skills_ = pd.Series(sig[n + 1 + len(workers):], index=pd.Index(workers), name="skill")
        self.loss_history_ = []
        return self

    def _set_attributes(self, r):
        pd = _pandas()
        s = r.scores_
        self.scores_ = pd.Series([1 / (1 + math.exp(-v)) for v in s], index=s.index, name="agg_score")
        w = r.workers_
        self.skills_ = w["skill"].rename("skill").rename_axis(None)  # unnamed index, as Crowd-Kit's
        self.biases_ = w["bias"].rename("bias").rename_axis(None)
        self.loss_history_ = []

"""The pandas side of the Crowd-Kit classes: frames checked as pandas and
Crowd-Kit check them, Crowd-Kit's tables built from the CLI's results or
from the iterations of _ckfit, and the votes Crowd-Kit's classes compute
from skills."""

import math

from ._files import MissingColumnError, _clean

_COLUMNS = ["task", "worker", "label"]


def _frame(pd, data, columns=_COLUMNS):
    """data as a DataFrame of columns (a DataFrame's own columns, an
    iterable's tuples); a missing column raises MissingColumnError, a
    KeyError as pandas raises."""
    if hasattr(data, "columns") and hasattr(data, "index"):
        missing = [c for c in columns if c not in data.columns]
        if missing:
            raise MissingColumnError("labels: no column %s (columns: %s)" % (
                ", ".join(repr(c) for c in missing), ", ".join(repr(c) for c in data.columns)))
        return data[columns]
    if isinstance(data, (str, bytes)):
        raise TypeError("labels must be a DataFrame or an iterable of (task, worker, label) tuples, not a %s"
                        % type(data).__name__)
    rows = list(data)
    for i, row in enumerate(rows):
        if not isinstance(row, (tuple, list)) or len(row) != len(columns):
            raise ValueError("labels item %d: %r is not a (%s) tuple" % (i, row, ", ".join(columns)))
    return pd.DataFrame(rows, columns=columns)


def _final_loss(r):
    """The converged fit's loss_history_: one entry, the fitted mean
    log-likelihood per label from the CLI's summary (Result.summary; the
    CLI keeps no history of its iterations); empty for the models without
    one."""
    s = r.summary or {}
    if s.get("log_likelihood") is None or not s.get("labels"):
        return []
    return [s["log_likelihood"] / s["labels"]]


def _sorted_columns(frame):
    """frame with its columns in Crowd-Kit's order (sorted, as pandas'
    unstack sorts them) where they can be sorted."""
    try:
        order = sorted(frame.columns)
    except TypeError:
        return frame
    return frame[order]


def _accuracy(pd, data, labels):
    """Crowd-Kit's skills_ of a vote: every worker's share of its distinct
    (task, label) pairs on the tasks of labels that equal the label there
    (a Series from task to label; a task may appear more than once, and a
    pair then counts if it matches any of them)."""
    truth = pd.Series(labels, name="true_label")
    joined = data.join(truth, on="task", how="inner")
    joined = joined.assign(score=(joined["label"] == joined["true_label"]).astype(float))
    joined = joined.sort_values("score", kind="mergesort").drop_duplicates(["task", "worker", "label"], keep="last")
    group = joined.groupby("worker")["score"]
    return (group.sum() / group.count()).rename("skill")


def _weighted_vote(pd, data, skills):
    """Crowd-Kit's MajorityVote.fit(data, skills): each label weighs its
    worker's skill (which may be negative, as MMSR's log-odds); the scores
    are the weights' shares of each task's total (NaN where the total is
    0), the labels the first argmax of the weighted sums in sorted class
    order, which is the shares' argmax when the total is positive (a
    negative total turns the shares' order around). Returns (labels,
    scores)."""
    joined = data.join(pd.Series(skills, name="skill"), on="worker")
    if joined["skill"].isna().any():
        missing = joined.loc[joined["skill"].isna(), "worker"].iloc[0]
        raise ValueError("no skill for worker %r (and every worker of the data needs one)" % (missing,))
    sums = joined.groupby(["task", "label"])["skill"].sum().unstack("label", fill_value=0.0)
    sums.columns.name = "label"
    sums.index.name = "task"
    total = sums.sum(axis=1)
    scores = sums.div(total.where(total != 0), axis=0)
    return sums.idxmax(axis=1).rename("agg_label"), scores


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
                        columns=pd.Index(classes))


def _one_coin_errors(pd, skills, classes):
    k = len(classes)
    rows, index = [], []
    for w, s in skills.items():
        for y in classes:
            index.append((w, y))
            rows.append([s if y == z else (1 - s) / (k - 1) for z in classes])
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(index, names=["worker", "label"]),
                        columns=pd.Index(classes))


def _em_frames(pd, coded, fit, self):
    """Set labels_, probas_, priors_ and errors_ of a fit of _ckfit."""
    import numpy as np
    classes = pd.Index(coded.classes, name="label")
    self.probas_ = pd.DataFrame(fit.probas, index=pd.Index(coded.tasks, name="task"), columns=classes)
    self.labels_ = self.probas_.idxmax(axis=1).rename("agg_label")
    self.priors_ = pd.Series(fit.priors, index=classes, name="prior")
    w, y = np.nonzero(fit.present)
    index = pd.MultiIndex.from_arrays([coded.workers[w], coded.classes[y]], names=["worker", "label"])
    self.errors_ = pd.DataFrame(fit.errors[w, y], index=index, columns=pd.Index(coded.classes))
    self.loss_history_ = list(fit.history)
    self.workers_ = None
    self.result_ = None


def _initial_arrays(pd, coded, initial_error, strategy):
    """Crowd-Kit's checks of initial_error, and its values as workers x
    observed x true arrays (values, given) on the codes of coded."""
    import numpy as np
    if list(initial_error.index.names) != ["worker", "label"]:
        raise ValueError("initial_error: the index must be (worker, label), not %r" % (list(initial_error.index.names),))
    pairs = set(zip(coded.workers[coded.w], coded.classes[coded.y]))
    if strategy == "assign":
        lacking = pairs - set(initial_error.index)
        if lacking:
            raise ValueError("initial_error: every (worker, label) of the data needs a row with strategy 'assign'; "
                             "%d lack one, such as %r" % (len(lacking), sorted(lacking, key=str)[0]))
        if (initial_error <= 1.0).all().all() and not np.allclose(initial_error.groupby(level="worker").sum(), 1.0):
            raise ValueError("The sum of each worker's error matrix in initial_error should be 1.0 "
                             "(for every true class, over the observed labels)")
    workers, classes = pd.Index(coded.workers), pd.Index(coded.classes)
    values = np.zeros((coded.W, coded.K, coded.K))
    given = np.zeros((coded.W, coded.K), dtype=bool)
    z = classes.get_indexer(initial_error.columns)
    for (worker, label), row in zip(initial_error.index, initial_error.to_numpy(dtype=float)):
        w, y = workers.get_indexer([worker])[0], classes.get_indexer([label])[0]
        if w < 0 or y < 0:
            continue  # a worker or label that the data lacks: no part of the fit
        given[w, y] = True
        values[w, y, z[z >= 0]] = row[z >= 0]
    return values, given


def _mmsr_start(pd, data, seed=0):
    """MMSR's skills_ after no sweep: the CLI's start s_w = u_w (drawn as
    numpy's RandomState(seed), in the order in which data name the workers),
    signed, clipped and turned into log-odds weights as the CLI's fit does
    after its sweeps (docs of model.MMSR)."""
    import numpy as np
    last = data.drop_duplicates(["task", "worker"], keep="last")
    workers = pd.unique(data["worker"])
    m = max(data["label"].nunique(), 2)
    n_tasks = data["task"].nunique()
    u = np.random.RandomState(seed).random_sample(len(workers))
    table = last.pivot(index="task", columns="worker", values="label")[list(workers)]
    field = np.zeros(len(workers))
    partners = np.zeros(len(workers), dtype=bool)
    for a in range(len(workers)):
        for b in range(len(workers)):
            both = table.iloc[:, a].notna() & table.iloc[:, b].notna()
            if a == b or not both.any():
                continue
            agree = (table.iloc[:, a][both] == table.iloc[:, b][both]).mean()
            field[a] += (m * agree - 1) / (m - 1) * u[b]
            partners[a] = True
    s = np.sign(field) * u * partners
    root = math.sqrt(n_tasks)
    x = np.clip(s, -1 / (m - 1) + 1 / root, 1 - 1 / root)
    p = x * (m - 1) / m + 1 / m
    return pd.Series(np.log(p * (m - 1) / (1 - p)), index=pd.Index(workers, name="worker"), name="skill")

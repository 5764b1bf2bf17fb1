"""Crowd-Kit's iterations, which the classes run where a user names an
iteration count or a tolerance (``DawidSkene(n_iter=10, tol=0)``), so that
k steps are k steps of the same algorithm with the same stopping rule:

- Dawid-Skene and one-coin Dawid-Skene: plain EM from the majority vote's
  distributions (ties to the first class), the M-step first; iteration i is
  an E-step and an M-step; the fit stops after ``n_iter`` iterations or when
  the evidence lower bound per label grows by less than ``tol``.
- Bradley-Terry: the minorisation-maximisation (MM) steps of Hunter (2004)
  from equal weights, stopping after ``n_iter`` steps or when a step moves
  the weights by less than ``tol`` in total (L1).
- MACE (Hovy et al. 2013): Crowd-Kit's restarts of EM or variational
  steps from its random draws.
- KOS (Karger, Oh and Shah 2014): the message passing on the labels as
  given, from Crowd-Kit's random start.

These are numpy loops over small arrays; the converged fits that the
classes run when no count or tolerance is named are the CLI's.
"""

import numpy as np

#: The floor of the error matrices, priors and (in the lower bound) the
#: posteriors: Crowd-Kit's ``_EPS``, 1e-10. (Crowd-Kit also clips its
#: stored ``probas_`` to it in place, leaving rows that sum to 1 + 1e-10;
#: the posteriors here are kept as computed.)
EPS = 1e-10


def factorize(pd, values):
    """Return (codes, uniques) of values, the uniques sorted when they can
    be (pandas' sort, as Crowd-Kit's groupby and unstack)."""
    try:
        return pd.factorize(values, sort=True)
    except TypeError:
        return pd.factorize(values, sort=False)


class Coded:
    """The labels of a frame as integer codes: tasks, workers and classes
    sorted, as Crowd-Kit's tables are (sort=False: in the order of first
    appearance, as Crowd-Kit's arrays)."""

    def __init__(self, pd, data, sort=True):
        def codes(values):
            return factorize(pd, values) if sort else pd.factorize(values, sort=False)
        self.t, self.tasks = codes(data["task"])
        self.w, self.workers = codes(data["worker"])
        self.y, self.classes = codes(data["label"])
        self.n = len(self.t)
        self.T, self.W, self.K = len(self.tasks), len(self.workers), len(self.classes)

    def vote(self, weights=None):
        """The (weighted) majority vote's distributions, tasks by classes."""
        counts = np.zeros((self.T, self.K))
        np.add.at(counts, (self.t, self.y), 1.0 if weights is None else weights)
        return counts / counts.sum(axis=1, keepdims=True)

    def clamp(self, probas, gold):
        """Set the rows of the tasks of gold (task -> class code) one-hot."""
        for t, z in gold:
            probas[t] = 0.0
            probas[t, z] = 1.0
        return probas


def gold_codes(pd, coded, true_labels):
    """The (task code, class code) pairs of true_labels for the tasks of the
    data; a class that no label has is refused."""
    if true_labels is None:
        return []
    true_labels = pd.Series(true_labels)
    task_index = pd.Index(coded.tasks)
    class_index = pd.Index(coded.classes)
    pairs = []
    for task, label in true_labels.items():
        t = task_index.get_indexer([task])[0]
        if t < 0:
            continue  # a gold task without labels, as Crowd-Kit's
        z = class_index.get_indexer([label])[0]
        if z < 0:
            raise ValueError("true_labels: task %r has class %r, which no label of the data has" % (task, label))
        pairs.append((t, z))
    return pairs


def ds_counts(coded, probas):
    """The expected counts E[w, y, z] of the M-step: labels y of worker w on
    tasks weighted by their probability of class z."""
    counts = np.zeros((coded.W, coded.K, coded.K))
    np.add.at(counts, (coded.w, coded.y), probas[coded.t])
    return counts


def normalize_errors(counts, present):
    """Crowd-Kit's M-step normalisation: the pairs (worker, observed label)
    of present floored at EPS, each worker's column of a true class summing
    to one over them."""
    e = np.where(present[:, :, None], np.maximum(counts, EPS), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def e_step(coded, priors, errors):
    """The posterior of every task's class given the priors and errors."""
    logp = np.tile(np.log(np.maximum(priors, EPS)), (coded.T, 1))
    np.add.at(logp, coded.t, np.log(errors[coded.w, coded.y]))
    logp -= logp.max(axis=1, keepdims=True)
    p = np.exp(logp)
    return p / p.sum(axis=1, keepdims=True)


def lower_bound(coded, probas, priors, errors):
    """Crowd-Kit's evidence lower bound per label (its stopping criterion):
    the expected log joint, with the log prior counted once per label, plus
    the entropy of the posteriors, divided by the number of labels."""
    with np.errstate(divide="ignore"):
        per_label = np.log(errors[coded.w, coded.y]) + np.log(np.maximum(priors, EPS))
    joint = np.sum(probas[coded.t] * per_label)
    q = np.maximum(probas, EPS)
    entropy = -np.sum(np.log(q) * q)
    return float(joint + entropy) / coded.n


class EMResult:
    """What an EM fit leaves: probas (tasks by classes), priors, errors
    (workers x observed x true), skills (one-coin only), the pairs present
    and the loss history."""

    def __init__(self, probas, priors, errors, present, history, skills=None):
        self.probas, self.priors, self.errors = probas, priors, errors
        self.present, self.history, self.skills = present, history, skills


def dawid_skene(coded, n_iter, tol, gold=(), initial=None, strategy=None):
    """Crowd-Kit's DawidSkene.fit. initial: None, or (values, present) of
    the initial error matrices as workers x observed x true arrays (the
    pairs of present are rows of initial_error), with strategy "assign" or
    "addition"."""
    present = np.zeros((coded.W, coded.K), dtype=bool)
    present[coded.w, coded.y] = True
    probas = coded.clamp(coded.vote(), gold)
    priors = probas.mean(axis=0)
    counts = ds_counts(coded, probas)
    first = present
    if initial is not None and strategy == "addition":
        values, given = initial
        counts = counts + values
        first = present | given
    elif initial is not None and strategy == "assign":
        values, given = initial
        counts, first = values, given
    errors = normalize_errors(counts, first)
    history, loss = [], -np.inf
    for _ in range(n_iter):
        probas = coded.clamp(e_step(coded, priors, errors), gold)
        priors = probas.mean(axis=0)
        errors = normalize_errors(ds_counts(coded, probas), present)
        new = lower_bound(coded, probas, priors, errors)
        history.append(new)
        if new - loss < tol:
            break
        loss = new
    return EMResult(probas, priors, errors, first if n_iter == 0 else present, history)


def one_coin_errors(coded, skills, present):
    """The confusion matrices of one-coin skills: s_w on the diagonal,
    (1 - s_w) / (K - 1) elsewhere, on the pairs present, clipped to
    [EPS, 1 - EPS] as Crowd-Kit's."""
    k = coded.K
    off = (1 - skills) / (k - 1) if k > 1 else np.zeros_like(skills)
    e = np.repeat(off[:, None, None], k, axis=1).repeat(k, axis=2)
    idx = np.arange(k)
    e[:, idx, idx] = skills[:, None]
    e = np.clip(e, EPS, 1 - EPS)
    return np.where(present[:, :, None], e, 0.0)


def one_coin_skills(coded, probas):
    """Each worker's mean posterior probability of the labels it gave."""
    total = np.zeros(coded.W)
    np.add.at(total, coded.w, probas[coded.t, coded.y])
    return total / np.bincount(coded.w, minlength=coded.W)


def one_coin(coded, n_iter, tol):
    """Crowd-Kit's OneCoinDawidSkene.fit."""
    present = np.zeros((coded.W, coded.K), dtype=bool)
    present[coded.w, coded.y] = True
    probas = coded.vote()
    priors = probas.mean(axis=0)
    skills = one_coin_skills(coded, probas)
    errors = one_coin_errors(coded, skills, present)
    history, loss = [], -np.inf
    for _ in range(n_iter):
        probas = e_step(coded, priors, errors)
        priors = probas.mean(axis=0)
        skills = one_coin_skills(coded, probas)
        errors = one_coin_errors(coded, skills, present)
        new = lower_bound(coded, probas, priors, errors)
        history.append(new)
        if new - loss < tol:
            break
        loss = new
    return EMResult(probas, priors, errors, present, history, skills)


def bradley_terry(wins, n_iter, tol):
    """Hunter's MM steps for Bradley-Terry from equal weights. wins[i, j]:
    how often item i beat item j. Returns (weights summing to one, the L1
    change of every step). A step whose change is below tol is the last;
    an item that never won gets weight 0 at the first step."""
    n = wins.shape[0]
    games = wins + wins.T
    won = wins.sum(axis=1)
    p = np.full(n, 1.0 / n)
    history = []
    for _ in range(n_iter):
        denom = np.zeros((n, n))
        active = games > 0
        pair = p[:, None] + p[None, :]
        denom[active] = games[active] / pair[active]
        total = denom.sum(axis=1)
        new = np.divide(won, total, out=np.zeros(n), where=total > 0)
        new /= new.sum()
        change = float(np.abs(new - p).sum())
        history.append(change)
        p = new
        if change < tol:
            break
    return p, history


def digamma(x):
    """The digamma function of an array of positive values (recurrence up
    to 6, then the asymptotic series; error below 1e-12)."""
    x = np.asarray(x, dtype=float).copy()
    out = np.zeros_like(x)
    while True:
        small = x < 6
        if not small.any():
            break
        out[small] -= 1 / x[small]
        x[small] += 1
    inv = 1 / x
    inv2 = inv * inv
    series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 / 132))))
    return out + np.log(x) - 0.5 * inv - series


class MACEState:
    """MACE's parameters: spamming[w] = (P(spamming), P(knowing)) and
    thetas[w] the distribution of w's labels when spamming."""

    def __init__(self, spamming, thetas):
        self.spamming, self.thetas = spamming, thetas


def mace_e_step(coded, state):
    """MACE's E-step: (log marginal likelihood, posteriors of the tasks'
    classes, expected spamming counts per (worker, label), expected
    (spamming, knowing) counts per worker)."""
    k = coded.K
    spam, know = state.spamming[coded.w, 0], state.spamming[coded.w, 1]
    strategy = spam * state.thetas[coded.w, coded.y]  # P(label, spamming)
    # P(label | class z) for every row and class
    p = strategy[:, None] + know[:, None] * (coded.y[:, None] == np.arange(k)[None, :])
    logm = np.full((coded.T, k), -np.log(k))
    np.add.at(logm, coded.t, np.log(p))
    marginals = np.exp(logm)
    instance = marginals.sum(axis=1)
    lml = float(np.log(instance + 1e-8).sum())
    post = marginals / instance[:, None]
    spam_rows = strategy * (post[coded.t] / p).sum(axis=1)
    know_rows = post[coded.t, coded.y] * know / (strategy + know)
    strategy_counts = np.zeros((coded.W, k))
    np.add.at(strategy_counts, (coded.w, coded.y), spam_rows)
    counts = np.zeros((coded.W, 2))
    np.add.at(counts[:, 0], coded.w, spam_rows)
    np.add.at(counts[:, 1], coded.w, know_rows)
    return lml, post, strategy_counts, counts


def _normalize(x, smoothing):
    x = x + smoothing
    norm = x.sum(axis=1, keepdims=True)
    return np.divide(x, norm, out=np.zeros_like(x), where=~np.isclose(norm, 0))


def _variational_normalize(x, prior):
    num = np.exp(digamma(x + prior))
    norm = np.exp(digamma((x + prior).sum(axis=1, keepdims=True)))
    return np.divide(num, norm, out=np.zeros_like(num), where=~np.isclose(norm, 0))


def _sorted_rank(values):
    """Each value's rank in sorted order (its position in order of first
    appearance where the values cannot be sorted)."""
    try:
        return np.argsort(np.argsort(np.asarray(values), kind="stable"), kind="stable")
    except TypeError:
        return np.arange(len(values))


def mace_mixed_up(coded):
    """Crowd-Kit's E-step, whose expected spamming counts per (worker,
    label) come out in sorted worker and label order and are read as if in
    order of first appearance: the counts of the worker and label of sorted
    rank r land on the worker and label of code r."""
    w, y = _sorted_rank(list(coded.workers)), _sorted_rank(list(coded.classes))

    def step(coded, state):
        lml, post, counts, knowing = mace_e_step(coded, state)
        out = np.zeros_like(counts)
        out[np.ix_(w, y)] = counts
        return lml, post, out, knowing
    return step


def mace(coded, n_restarts, n_iter, method, default_noise, alpha, beta, random_state, step=mace_e_step):
    """Crowd-Kit's MACE.fit (Hovy et al. 2013): from every restart (each
    drawn from random_state, as Crowd-Kit's, so that restarts repeat one
    start), n_iter EM ("em": smoothed counts) or variational ("vb":
    Beta(alpha, beta) on (spamming, knowing), Dirichlet(10) on the
    strategies) M- and E-steps; the restart of the highest marginal
    likelihood is kept. step: the E-step, ``mace_e_step``, or Crowd-Kit's as it
    computes it, ``mace_mixed_up(coded)``. Returns (state, posteriors)."""
    smoothing = 0.01 / coded.K
    best, best_lml = None, -np.inf
    for _ in range(n_restarts):
        rng = np.random.RandomState(random_state)
        spamming = 1 + (1 + default_noise) * rng.uniform(size=(coded.W, 2))
        rng = np.random.RandomState(random_state)
        thetas = 1 + (1 + default_noise) * rng.uniform(size=(coded.W, coded.K))
        state = MACEState(spamming / spamming.sum(axis=1, keepdims=True), thetas / thetas.sum(axis=1, keepdims=True))
        lml, _, strategy_counts, counts = step(coded, state)
        for _ in range(n_iter):
            if method == "vb":
                state.spamming = _variational_normalize(counts, np.array([alpha, beta]))
                state.thetas = _variational_normalize(strategy_counts, 10.0)
            else:
                state.spamming = _normalize(counts, smoothing)
                state.thetas = _normalize(strategy_counts, smoothing)
            lml, _, strategy_counts, counts = step(coded, state)
        if best is None or lml > best_lml:
            best, best_lml = MACEState(state.spamming.copy(), state.thetas.copy()), lml
    _, post, _, _ = step(coded, best)
    return best, post


#: The magnitude past which Crowd-Kit's KOS stops iterating: 10³⁰⁰.
KOS_MAX = 1e300


def check_random_state(owner, seed):
    """seed as an int, if it is one of numpy's legacy seeds (0 to 2³² − 1),
    Crowd-Kit's random_state; else TypeError or ValueError."""
    if isinstance(seed, bool) or not hasattr(seed, "__index__"):
        raise TypeError("%s(random_state=%r): want an int from 0 to 2**32 - 1, as numpy's RandomState" % (owner, seed))
    if not 0 <= seed <= 2 ** 32 - 1:
        raise ValueError("%s(random_state=%r): want an int from 0 to 2**32 - 1, as numpy's RandomState" % (owner, seed))
    return int(seed)


def kos(t, w, a, n_iter, random_state):
    """Crowd-Kit's KOS.fit on labels a (+1 or -1, in the order of the rows)
    of tasks t and workers w (codes): the worker messages start as
    RandomState(random_state).normal(1, 1) draws, one per row; every
    iteration sends each label the sum over its task's other labels, then
    over its worker's other labels, stopping early (as Crowd-Kit) when a
    sum passes 10³⁰⁰. Returns each task's score Σ a y, whose sign is the
    estimate."""
    y = np.random.RandomState(random_state).normal(loc=1, scale=1, size=len(a))
    for _ in range(n_iter):
        m = a * y
        task_sum = np.bincount(t, weights=m)[t]
        if (np.abs(task_sum) > KOS_MAX).any():
            break
        x = task_sum - m
        m = a * x
        worker_sum = np.bincount(w, weights=m)[w]
        if (np.abs(worker_sum) > KOS_MAX).any():
            break
        y = worker_sum - m
    return np.bincount(t, weights=a * y)

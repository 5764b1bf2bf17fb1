"""Crowd-Kit's data metrics (``crowdkit.metrics``) over ``consensus agreement``.

Each function writes the labels to a temporary CSV file, runs the
``consensus agreement`` command on it and reads its numbers back, so that
the definitions are the CLI's (docs/crowdkit.md, "Agreement statistics"):

    >>> from consensus_crowd.metrics import alpha_krippendorff, uncertainty, consistency
    >>> alpha_krippendorff(df), uncertainty(df), consistency(df)

The consensus these metrics compare with is the majority vote unless
``aggregator`` names another model (a class of this package, such as
``DawidSkene()``, or a model name); ties of the consensus are broken with
``seed`` (Crowd-Kit takes the first class). Crowd-Kit's arguments that have
no counterpart here (unequal given worker skills) raise TypeError.
"""

import csv
import os
import tempfile

from ._binary import find_binary
from ._core import ConsensusError, _message, _open_output, _run
from ._files import _write_labels

__all__ = ["alpha_krippendorff", "uncertainty", "consistency", "accuracy_on_aggregates"]


def alpha_krippendorff(answers, *, binary=None):
    """Krippendorff's alpha for nominal data over all labels (tasks are the
    units, every label a value), as Crowd-Kit's ``alpha_krippendorff``."""
    return _agreement(answers, None, binary, 1)["summary"]["krippendorff_alpha"]


def uncertainty(answers, workers_skills=None, aggregator=None, compute_by="task", aggregate=True, *, binary=None):
    """The entropy (nats) of the label frequencies of every task (or with
    ``compute_by="worker"`` of every worker), as Crowd-Kit's ``uncertainty``
    with equal skills: their mean, or with ``aggregate=False`` a dict from
    task (worker) to entropy. ``workers_skills`` may be given when all are
    equal, which weighs every label alike; other skills and ``aggregator``
    have no counterpart and raise TypeError."""
    if aggregator is not None or workers_skills is not None and not _constant(workers_skills):
        raise TypeError("uncertainty(workers_skills=, aggregator=): entropies weighted by unequal worker skills are "
                        "not supported; the entropy is of the label frequencies")
    if compute_by not in ("task", "worker"):
        raise TypeError("uncertainty(compute_by=%r): want 'task' or 'worker'" % (compute_by,))
    r = _agreement(answers, None, binary, 1)
    if compute_by == "worker":
        h = {w: row["entropy"] for w, row in r["workers"].items()}
        return sum(h.values()) / len(h) if aggregate else h
    if aggregate:
        return r["summary"]["mean_entropy"]
    return {t: row["entropy"] for t, row in r["tasks"].items()}


def _constant(skills):
    values = list(skills.values()) if hasattr(skills, "values") and callable(skills.values) else list(skills)
    return len(set(float(v) for v in values)) <= 1


def consistency(answers, workers_skills=None, aggregator=None, by_task=False, *, seed=1, binary=None):
    """Every task's posterior probability of its consensus label under the
    one-coin model whose skills are the workers' agreement with the
    consensus, as Crowd-Kit's ``consistency``: their mean, or with
    ``by_task=True`` a dict from task to consistency. ``workers_skills``
    (given skills) has no counterpart and raises TypeError."""
    if workers_skills is not None:
        raise TypeError("consistency(workers_skills=): given skills are not supported; the skills are the "
                        "workers' agreement with the aggregator's consensus")
    r = _agreement(answers, aggregator, binary, seed)
    if by_task:
        return {t: row["consistency"] for t, row in r["tasks"].items()}
    return r["summary"]["consistency"]


def accuracy_on_aggregates(answers, aggregator=None, by=None, *, seed=1, binary=None):
    """The fraction of labels equal to their task's consensus label, as
    Crowd-Kit's ``accuracy_on_aggregates``: over all labels, or with
    ``by="worker"`` a dict from worker to its fraction."""
    if by not in (None, "worker"):
        raise TypeError("accuracy_on_aggregates(by=%r): only None and 'worker' are supported" % (by,))
    r = _agreement(answers, aggregator, binary, seed)
    if by == "worker":
        return {w: row["agreement"] for w, row in r["workers"].items()}
    return r["summary"]["agreement"]


def _model(aggregator):
    if aggregator is None:
        return "mv"
    if isinstance(aggregator, str):
        return aggregator
    model = getattr(aggregator, "MODEL", None)
    if model is None:
        raise TypeError("aggregator=%r: give a class of consensus_crowd (such as MajorityVote()) or a model name"
                        % (aggregator,))
    options = getattr(aggregator, "_options", {})
    return options.get("model", model)


def _agreement(answers, aggregator, binary, seed):
    """Run consensus agreement on answers; return its summary (floats), its
    tasks (task: {"entropy", "consistency", ...}) and its workers (worker:
    {"agreement", "entropy"}), with the input's own task and worker values."""
    exe = find_binary(binary)
    back_task, back_worker, back_label = {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="consensus-crowd-") as tmp:
        path = os.path.join(tmp, "labels.csv")
        tasks_path = os.path.join(tmp, "tasks.csv")
        workers_path = os.path.join(tmp, "workers.csv")
        n, _, _ = _write_labels(path, answers, "task", "worker", "label", back_task, back_worker, back_label)
        if n == 0:
            raise ValueError("answers: no rows")
        cmd = [exe, "agreement", "--input", path, "--model", _model(aggregator), "--seed", str(int(seed)),
               "--tasks", tasks_path, "--workers", workers_path]
        p = _run(cmd, stdout=True)
        if p.returncode != 0:
            raise ConsensusError(_message(p.stderr, p.returncode).replace(path, "the answers"), p.returncode,
                                 p.stderr, cmd)
        summary = {}
        for line in p.stdout.splitlines():
            key, _, value = line.partition("\t")
            if key.startswith("agreement_with_"):
                key = "agreement"
            elif key.startswith("consistency_with_"):
                key = "consistency"
            summary[key] = float(value)
        tasks = {}
        with _open_output(tasks_path) as f:
            for row in csv.DictReader(f):
                tasks[back_task[row["task"]]] = {k: float(row[k]) for k in ("entropy", "normalized_entropy",
                                                                            "agreement", "consistency")}
        workers = {}
        with _open_output(workers_path) as f:
            for row in csv.DictReader(f):
                workers[back_worker[row["worker"]]] = {k: float(row[k]) for k in ("agreement", "entropy")}
    return {"summary": summary, "tasks": tasks, "workers": workers}

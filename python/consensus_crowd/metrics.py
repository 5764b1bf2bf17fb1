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
no counterpart here (given worker skills, per-worker uncertainty) raise
TypeError.
"""

import csv
import os
import subprocess
import tempfile

from ._binary import find_binary
from ._core import ConsensusError, _message, _write_labels

__all__ = ["alpha_krippendorff", "uncertainty", "consistency", "accuracy_on_aggregates"]


def alpha_krippendorff(answers, *, binary=None):
    """Krippendorff's alpha for nominal data over all labels (tasks are the
    units, every label a value), as Crowd-Kit's ``alpha_krippendorff``."""
    return _agreement(answers, None, binary, 1)["summary"]["krippendorff_alpha"]


def uncertainty(answers, workers_skills=None, aggregator=None, compute_by="task", aggregate=True, *, binary=None):
    """The entropy (nats) of every task's label frequencies, as Crowd-Kit's
    ``uncertainty`` with equal skills: their mean, or with ``aggregate=False``
    a dict from task to entropy. ``workers_skills``, ``aggregator`` and
    ``compute_by="worker"`` have no counterpart and raise TypeError."""
    if workers_skills is not None or aggregator is not None:
        raise TypeError("uncertainty(workers_skills=, aggregator=): entropies weighted by worker skills are not "
                        "supported; the entropy is of the tasks' label frequencies")
    if compute_by != "task":
        raise TypeError("uncertainty(compute_by=%r): only 'task' is supported" % (compute_by,))
    r = _agreement(answers, None, binary, 1)
    if aggregate:
        return r["summary"]["mean_entropy"]
    return {t: row["entropy"] for t, row in r["tasks"].items()}


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
        return dict(r["workers"])
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
    agreement), with the input's own task and worker values."""
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
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           encoding="utf-8", errors="replace")
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
        with open(tasks_path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                tasks[back_task[row["task"]]] = {k: float(row[k]) for k in ("entropy", "normalized_entropy",
                                                                            "agreement", "consistency")}
        workers = []
        with open(workers_path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                workers.append((back_worker[row["worker"]], float(row["agreement"])))
    return {"summary": summary, "tasks": tasks, "workers": workers}

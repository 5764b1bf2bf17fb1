"""What to label next, over ``consensus next``: the tasks whose next label
is expected to raise the accuracy of the consensus most, every worker's
evidence (spammer, adversary), and every task's confidence with credible
intervals.

    >>> from consensus_crowd import plan_next
    >>> r = plan_next(df, budget=100, workers=True, tasks=True, intervals=0.9)
    >>> r.next            # list of dicts, best first: task, labels, label, confidence, gain, p_change
    >>> r.workers_        # with pandas: a DataFrame indexed by worker

The labels are written to a temporary CSV file (every value's text
recorded, so that the results use the values given), the CLI plans, and
its tables are read back. See docs/planning.md.
"""

import csv
import os
import tempfile

from ._binary import find_binary
from ._core import ConsensusError, _locate, _message, _pandas, _run
from ._files import _write_labels, _write_workers

__all__ = ["plan_next", "NextResult"]


class NextResult:
    """The outcome of ``plan_next``.

    Attributes:
        next: the chosen tasks (or task-worker pairs with ``pool=``), best
            first, as dicts with the keys task, (worker,) labels, label,
            confidence, gain and p_change.
        workers: with ``workers=True``, one dict per worker: worker,
            labels, agreement, accuracy, accuracy_lo, accuracy_hi,
            p_spammer, p_adversarial and flag ("spammer", "adversarial" or
            "none"); else None.
        tasks: with ``tasks=True``, one dict per task: task, labels, label,
            confidence, gain, p_change and p_<class> (with p_<class>_lo and
            p_<class>_hi under ``intervals=``; q_<class> and its interval
            under ``distribution=True``); else None.
        log: the CLI's summary on standard error.

    With pandas, ``next_``, ``workers_`` and ``tasks_`` give the same data
    as DataFrames (``workers_`` indexed by worker, ``tasks_`` by task).
    """

    def __init__(self, nxt, workers, tasks, log):
        self.next = nxt
        self.workers = workers
        self.tasks = tasks
        self.log = log

    def __repr__(self):
        return "<NextResult: %d chosen, %s workers, %s tasks>" % (
            len(self.next), "no" if self.workers is None else len(self.workers),
            "no" if self.tasks is None else len(self.tasks))

    @property
    def next_(self):
        """The chosen tasks as a pandas DataFrame, best first."""
        return _pandas().DataFrame(self.next)

    @property
    def workers_(self):
        """The workers' evidence as a pandas DataFrame indexed by worker, or
        None."""
        if self.workers is None:
            return None
        return _pandas().DataFrame(self.workers).set_index("worker")

    @property
    def tasks_(self):
        """Every task's confidence and posterior as a pandas DataFrame
        indexed by task, or None."""
        if self.tasks is None:
            return None
        return _pandas().DataFrame(self.tasks).set_index("task")


def plan_next(labels, budget=100, *, stop=0.99, lookahead=3, pool=None, per_worker=None, workers=False,
              tasks=False, intervals=None, distribution=False, seed=1, binary=None,
              task_column="task", worker_column="worker", label_column="label"):
    """Choose the tasks to label next with ``consensus next``.

    Args:
        labels: a pandas DataFrame with task, worker and label columns, or
            an iterable of (task, worker, label) tuples.
        budget: the number of tasks (task-worker pairs with ``pool``) to
            choose (``--budget``).
        stop: the stopping rule (``--stop``): tasks whose consensus label
            has this posterior probability or more get nothing.
        lookahead: the labels the gain looks ahead over (``--lookahead``).
        pool: the workers available (an iterable of worker values, each
            with labels in ``labels``): choose task-worker pairs.
        per_worker: with ``pool``, the most tasks a worker gets.
        workers: also return every worker's evidence (``--workers``).
        tasks: also return every task's confidence and posterior
            (``--tasks``).
        intervals: with ``tasks``, the level of credible intervals, such as
            0.9 (``--intervals``).
        distribution: with ``tasks``, also every task's label distribution
            from vb-da-ds (``--distribution``).
        seed: the seed of the intervals' draws (``--seed``).
        binary: the path of the ``consensus`` executable.

    Returns:
        NextResult

    Raises:
        TypeError, ValueError: an argument or value the CLI cannot take.
        ConsensusError: the CLI failed; the message is its one-line
            message, naming the row of ``labels``.
    """
    for name, v in (("budget", budget), ("lookahead", lookahead), ("seed", seed)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise TypeError("%s must be an int at least 0, not %r" % (name, v))
    if per_worker is not None and (isinstance(per_worker, bool) or not isinstance(per_worker, int) or per_worker < 1):
        raise TypeError("per_worker must be a positive int, not %r" % (per_worker,))
    exe = find_binary(binary)
    back_task, back_worker, back_label = {}, {}, {}
    with tempfile.TemporaryDirectory(prefix="consensus-crowd-") as tmp:
        in_path = os.path.join(tmp, "labels.csv")
        out_path = os.path.join(tmp, "next.csv")
        workers_path = os.path.join(tmp, "workers.csv")
        tasks_path = os.path.join(tmp, "tasks.csv")
        n, describe, multiline = _write_labels(in_path, labels, task_column, worker_column, label_column,
                                               back_task, back_worker, back_label)
        if n == 0:
            raise ValueError("labels: no rows")
        cmd = [exe, "next", "--input", in_path, "--output", out_path, "--budget", str(budget),
               "--stop", repr(float(stop)), "--lookahead", str(lookahead), "--seed", str(seed)]
        if pool is not None:
            pool_path = os.path.join(tmp, "pool.csv")
            _write_workers(pool_path, [{"worker": w} for w in pool], "pool")
            cmd += ["--pool", pool_path]
            if per_worker is not None:
                cmd += ["--per-worker", str(per_worker)]
        elif per_worker is not None:
            raise ValueError("per_worker applies only with pool")
        if workers:
            cmd += ["--workers", workers_path]
        if tasks:
            cmd += ["--tasks", tasks_path]
            if intervals is not None:
                cmd += ["--intervals", repr(float(intervals))]
            if distribution:
                cmd += ["--distribution"]
        elif intervals is not None or distribution:
            raise ValueError("intervals and distribution apply only with tasks=True")
        proc = _run(cmd)
        if proc.returncode != 0:
            message = _locate(_message(proc.stderr, proc.returncode), in_path, describe, multiline)
            if pool is not None:
                message = message.replace(pool_path, "pool")
            raise ConsensusError(message, proc.returncode, proc.stderr, cmd)
        backs = {"task": back_task, "worker": back_worker, "label": back_label}
        nxt = _read(out_path, backs)
        worker_rows = _read(workers_path, backs) if workers else None
        task_rows = _read(tasks_path, backs) if tasks else None
    return NextResult(nxt, worker_rows, task_rows, proc.stderr)


def _read(path, backs):
    """Read a table of ``consensus next``: the task, worker and label
    columns mapped back to the values given, flag kept as text, labels an
    int, every other column a float."""
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            rec = {}
            for k, v in row.items():
                if k in backs:
                    if v not in backs[k]:
                        raise ConsensusError("%s: unknown %s %r in the CLI's output" % (os.path.basename(path), k, v))
                    rec[k] = backs[k][v]
                elif k == "flag":
                    rec[k] = v
                elif k == "labels":
                    rec[k] = int(v)
                else:
                    rec[k] = float(v)
            rows.append(rec)
    return rows

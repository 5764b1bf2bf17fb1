"""Crowd-Kit's BinaryRelevance: multi-label aggregation by one binary
aggregation per class."""

import copy

from ._core import _pandas

__all__ = ["BinaryRelevance"]


class BinaryRelevance:
    """Multi-label aggregation, as Crowd-Kit's ``BinaryRelevance``: every
    label of data is a collection (list, tuple or set) of the classes that
    the worker chose for the task, possibly empty. For every class c (all
    the classes of data, in sorted order) a copy of ``base_aggregator``
    (any categorical aggregator of this package, default
    ``MajorityVote()``) aggregates the binary labels "c chosen" (1) or not
    (0); a task's label is the list of the classes whose aggregate is 1.

    After fit: ``labels_``, a Series of lists indexed by task, named
    ``agg_label``; ``aggregators_``, a dict from class to its fitted
    aggregator (with its ``probas_``, ``skills_``, ...). No labels give an
    empty ``labels_``. The CLI's counterpart is ``consensus multilabel``.
    """

    def __init__(self, base_aggregator=None):
        if base_aggregator is None:
            from .aggregation import MajorityVote
            base_aggregator = MajorityVote()
        if not callable(getattr(base_aggregator, "fit_predict", None)):
            raise TypeError("BinaryRelevance(base_aggregator=%r): want a classification aggregator, such as "
                            "MajorityVote() or DawidSkene()" % (base_aggregator,))
        self.base_aggregator = base_aggregator
        self.aggregators_ = {}

    def fit(self, data):
        """Aggregate the label sets of data (columns task, worker and label)
        and return self."""
        pd = _pandas()
        from .aggregation import _frame
        data = _frame(pd, data)
        self.aggregators_ = {}
        if len(data) == 0:
            self.labels_ = pd.Series(dtype=float, name="agg_label")
            return self
        sets = []
        for i, value in enumerate(data["label"]):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise ValueError("labels row %d: label %r is not a collection of classes (a list, tuple or set)"
                                 % (i, value))
            sets.append(set(value))
        classes = set().union(*sets)
        try:
            classes = sorted(classes)
        except TypeError:
            classes = sorted(classes, key=repr)
        chosen = {}
        for c in classes:
            binary = pd.DataFrame({"task": data["task"].to_numpy(), "worker": data["worker"].to_numpy(),
                                   "label": [int(c in s) for s in sets]})
            aggregator = copy.deepcopy(self.base_aggregator)
            labels = aggregator.fit_predict(binary)
            self.aggregators_[c] = aggregator
            for task, value in labels.items():
                chosen.setdefault(task, [])
                if value:
                    chosen[task].append(c)
        self.labels_ = pd.Series(chosen, name="agg_label", dtype=object)
        self.labels_.index.name = "task"
        return self

    def fit_predict(self, data):
        """Aggregate the label sets of data and return ``labels_``."""
        return self.fit(data).labels_

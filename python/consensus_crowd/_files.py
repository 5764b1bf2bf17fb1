"""The temporary tables that aggregate and the metrics hand to the CLI:
labels, gold, worker parameters and skills written as CSV, every value
checked once and its text recorded, so that the CLI's tables map back to
the values given."""

import csv
import numbers
import operator

_NON_FINITE = frozenset({"nan", "inf", "infinity"})


class MissingColumnError(KeyError, ValueError):
    """A DataFrame lacks a column that is needed: a KeyError, as pandas
    raises for a missing column (and Crowd-Kit with it), and a ValueError,
    as this package raises for other bad input."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


def _columns(labels, task_column, worker_column, label_column):
    """Return (columns, describe): the task, worker and label columns as
    sequences, and describe(i), which names row i for a message."""
    if hasattr(labels, "columns") and hasattr(labels, "index"):  # a pandas DataFrame
        names = (task_column, worker_column, label_column)
        missing = [c for c in names if c not in labels.columns]
        if missing:
            raise MissingColumnError("labels: no column %s (columns: %s); name the columns with task_column=, "
                             "worker_column= and label_column=" % (
                                 ", ".join(repr(c) for c in missing),
                                 ", ".join(repr(c) for c in labels.columns)))
        index = labels.index
        return [labels[c].tolist() for c in names], lambda i: "labels row %d (index %r)" % (i, index[i])
    if isinstance(labels, (str, bytes)):
        raise TypeError("labels must be a DataFrame or an iterable of (task, worker, label) tuples, not a %s"
                        % type(labels).__name__)
    rows = labels if isinstance(labels, (list, tuple)) else list(labels)
    try:
        ok = set(map(len, rows)) <= {3}
    except TypeError:
        ok = False
    if not ok:
        i = next(i for i, row in enumerate(rows) if not _triple(row))
        raise ValueError("labels item %d: %r is not a (task, worker, label) tuple" % (i, rows[i]))
    columns = [list(map(operator.itemgetter(k), rows)) for k in range(3)]
    return columns, lambda i: "labels item %d" % i


def _triple(row):
    try:
        return len(row) == 3
    except TypeError:
        return False


def _write_labels(path, labels, task_column, worker_column, label_column,
                  back_task, back_worker, back_label):
    columns, describe = _columns(labels, task_column, worker_column, label_column)
    texts = [_texts(col, role, describe, back)
             for col, role, back in zip(columns, ("task", "worker", "label"), (back_task, back_worker, back_label))]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(("task", "worker", "label"))
        w.writerows(zip(*texts))
    multiline = any("\n" in t or "\r" in t for col in texts for t in set(col))
    return len(texts[0]), describe, multiline


def _texts(values, role, describe, back):
    """Return the CLI's text of every value, checking each distinct value
    once and recording text -> value in back."""
    # 1, 1.0 and True are one key of a dict but three texts: when a column
    # mixes types, its keys carry the kind of value. Numbers that are equal
    # (1, 1.0, numpy.int64(1)) are one value, as pandas and Crowd-Kit take
    # them, with the text of the first; True is not the number 1.
    typed = len(set(map(type, values))) > 1
    keys = list(zip(map(_kind, values), values)) if typed else values
    try:
        distinct = dict.fromkeys(keys)
    except TypeError:
        i = next(i for i, v in enumerate(values) if not _hashable(v))
        raise ValueError("%s: %s %r is not hashable" % (describe(i), role, values[i])) from None
    for key in distinct:
        v = key[1] if typed else key
        try:
            text = _clean(v, role)
            _remember(back, text, v, role)
        except ValueError as e:
            raise ValueError("%s: %s" % (describe(keys.index(key)), e)) from None
        distinct[key] = text
    return list(map(distinct.__getitem__, keys))


def _kind(v):
    """The kind of v in a column of mixed types: "number" for any number
    but a bool, else its type."""
    if isinstance(v, numbers.Number) and not isinstance(v, bool):
        return "number"
    return type(v)


def _write_gold(path, gold, back_task, back_label):
    """Write train_gold as a task,label CSV file, recording its texts."""
    pairs = gold.items() if hasattr(gold, "items") else gold
    rows = []
    for i, pair in enumerate(pairs):
        try:
            task, label = pair
            row = (_clean(task, "task"), _clean(label, "label"))
            _remember(back_task, row[0], task, "task")
            _remember(back_label, row[1], label, "label")
        except (TypeError, ValueError) as e:
            raise ValueError("train_gold item %d: %s" % (i, e)) from None
        rows.append(row)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(("task", "label"))
        w.writerows(rows)


def _write_workers(path, workers, what):
    """Write the argument named what (init_workers: a Result's ``workers``
    list of dicts or its ``workers_`` DataFrame; skills: dicts with "worker"
    and "skill") as a worker,<values>... CSV file; numbers are written so
    that the CLI reads back the same float."""
    if hasattr(workers, "reset_index") and hasattr(workers, "columns"):  # a DataFrame such as Result.workers_
        frame = workers.reset_index() if "worker" not in workers.columns else workers
        if "worker" not in frame.columns:
            raise ValueError("%s: the DataFrame has no worker column or index named 'worker'" % what)
        workers = frame.to_dict("records")
    columns, rows = [], []
    for i, rec in enumerate(workers):
        if not hasattr(rec, "keys") or "worker" not in rec:
            raise ValueError("%s item %d: want a dict with a 'worker' key, as Result.workers holds, not %r"
                             % (what, i, rec))
        for key in rec:
            if key != "worker" and key not in columns:
                columns.append(key)
        rows.append(rec)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["worker"] + [str(c) for c in columns])
        for i, rec in enumerate(rows):
            try:
                row = [_clean(rec["worker"], "worker")]
                for c in columns:
                    if c not in rec:
                        raise ValueError("has no %r" % (c,))
                    v = rec[c]
                    if isinstance(v, bool) or not isinstance(v, (int, float)) and not _is_number(v):
                        raise ValueError("%r is %r, not a number" % (c, v))
                    row.append(repr(float(v)))
            except ValueError as e:
                raise ValueError("%s item %d: %s" % (what, i, e)) from None
            w.writerow(row)


def _is_number(v):
    # numpy's scalars, which are not int or float subclasses.
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return not isinstance(v, (str, bytes))


def _hashable(v):
    try:
        hash(v)
    except TypeError:
        return False
    return True


def _clean(v, role):
    """Return the text the CLI will see for v, or raise ValueError."""
    if v is None or (isinstance(v, float) and v != v) or type(v).__name__ in ("NAType", "NaTType"):
        raise ValueError("%s is missing (%r); remove the row or fill in the value" % (role, v))
    if isinstance(v, (bytes, bytearray)):
        raise ValueError("%s %r is bytes; decode it to str first" % (role, v))
    # The CLI's CSV reader turns a line break \r\n inside a quoted cell into
    # \n, then trims white space.
    text = (v if isinstance(v, str) else str(v)).replace("\r\n", "\n").strip()
    if not text:
        raise ValueError("%s %r is empty; remove the row or fill in the value" % (role, v))
    if role in ("label", "class") and _non_finite(text):
        raise ValueError("%s %r is NaN or infinite: a missing value, not a class; remove the row or fill in "
                         "the value" % (role, v))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError("%s %r is not valid Unicode text: %s" % (role, v, e)) from None
    return text


def _non_finite(text):
    """Whether text spells NaN or an infinity with at most one sign, which
    the CLI reads as a missing label."""
    bare = text.lstrip("+-")
    return len(text) - len(bare) <= 1 and bare.lower() in _NON_FINITE


def _remember(back, text, v, role):
    prev = back.setdefault(text, v)
    if prev is not v and prev != v:
        raise ValueError("%ss %r and %r are both %r to the CLI (white space trimmed, \\r\\n read as \\n); "
                         "make them distinct" % (role, prev, v, text))

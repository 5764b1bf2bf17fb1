"""The data sets shipped in the consensus program, loaded as Crowd-Kit's
``crowdkit.datasets.load_dataset`` loads its own."""

import csv
import os
import tempfile

from ._binary import find_binary
from ._core import ConsensusError, _message, _open_output, _run


def load_dataset(name, binary=None):
    """Return the shipped data set ``name`` as (labels, true_labels).

    The sets are those of ``consensus datasets`` (adult, duchenne, rte,
    temp, trec2010, websearch: the paper's public data sets, with their
    provenance in ``consensus datasets --source NAME``); they are written
    out by ``consensus datasets export``, so nothing is downloaded. Every
    value is text, as the program reads it.

    With pandas, as Crowd-Kit's ``load_dataset``: ``labels`` is a DataFrame
    with the columns task, worker and label, one row per label in the
    file's order, and ``true_labels`` a Series of the gold labels indexed
    by task (index name ``task``, Series name ``true_label``). Without
    pandas: a list of (task, worker, label) tuples and a dict from task to
    gold label.

    Raises:
        ConsensusError: the program refused the name; the message lists the
            data sets.
        BinaryNotFoundError: no ``consensus`` program was found (see
            find_binary).
    """
    exe = find_binary(binary)
    with tempfile.TemporaryDirectory(prefix="consensus-crowd-") as tmp:
        out = os.path.join(tmp, "set")
        cmd = [exe, "datasets", "export", str(name), out]
        p = _run(cmd)
        if p.returncode != 0:
            raise ConsensusError(_message(p.stderr, p.returncode), p.returncode, p.stderr, cmd)
        labels = _read(os.path.join(out, "labels.csv"), ["task", "worker", "label"])
        gold = _read(os.path.join(out, "gold.csv"), ["task", "label"])
    try:
        import pandas as pd
    except ImportError:
        return labels, dict(gold)
    frame = pd.DataFrame(labels, columns=["task", "worker", "label"], dtype=str)
    truth = pd.Series([g[1] for g in gold], index=pd.Index([g[0] for g in gold], name="task"),
                      name="true_label", dtype=str)
    return frame, truth


def _read(path, header):
    """The rows of a CSV file with the given header, as tuples of text."""
    with _open_output(path) as f:
        r = csv.reader(f)
        got = next(r)
        if got != header:
            raise ConsensusError("%s: header %s, want %s" % (os.path.basename(path), ",".join(got), ",".join(header)))
        return [tuple(row) for row in r]

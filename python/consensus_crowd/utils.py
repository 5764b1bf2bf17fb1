"""Crowd-Kit's evaluation helpers (``crowdkit.aggregation.utils``):
accuracy of predicted labels against true ones, row by row."""

__all__ = ["evaluate", "evaluate_equal", "evaluate_in"]


def evaluate_equal(row):
    """1 if the row's predicted label equals its true label, else 0."""
    return int(row["label_pred"] == row["label_true"])


def evaluate_in(row):
    """1 if the row's predicted label is among its true labels, else 0."""
    return int(row["label_pred"] in row["label_true"])


def evaluate(df_true, df_pred, evaluate_func=evaluate_in):
    """The mean of evaluate_func over the tasks of df_true, joined with
    df_pred on the column or index ``task`` (each a frame with a column
    ``label``). Every task of df_true must be in df_pred (AssertionError
    otherwise, as Crowd-Kit's)."""
    df = df_true.merge(df_pred, on="task", suffixes=("_true", "_pred"))
    assert len(df_true) == len(df), "Dataset length mismatch, expected %d, got %d" % (len(df_true), len(df))
    return float(df.apply(evaluate_func, axis=1).mean())

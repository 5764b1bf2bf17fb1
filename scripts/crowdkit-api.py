#!/usr/bin/env python3
"""Compares the interface of Crowd-Kit's aggregators with consensus_crowd's.

    /usr/bin/python3 scripts/crowdkit-api.py CROWDKIT_CHECKOUT

For every name that crowdkit.aggregation exports, it prints whether
consensus_crowd has it; for every class both have, one line per
difference of:

- signature: the constructor's parameters (inspect.signature), their order
  and defaults;
- methods: the public methods;
- attributes: after fitting both on Crowd-Kit's test data, with the
  defaults and with Crowd-Kit's arguments named, every public attribute
  ending in "_": its kind (Series, DataFrame, array, list, ...), name,
  index names, columns name and dtype; with arguments named, also the
  largest difference of the probabilities and whether the labels agree;
- returns: what fit_predict, fit_predict_proba, predict, predict_proba,
  predict_score and fit_predict_score return, described the same way;
- errors: the exception class on a frame without the label column, on an
  empty frame (no exception: "ok"), and for KOS on three classes.

The last line counts the differences. Builds the consensus binary from this
checkout (CONSENSUS_BIN if set). Needs numpy, pandas and scipy (Debian:
python3-scipy) for Crowd-Kit.
"""
import inspect
import os
import subprocess
import sys
import tempfile
import warnings

warnings.simplefilter("ignore")
if len(sys.argv) != 2:
    sys.exit("usage: %s CROWDKIT_CHECKOUT" % sys.argv[0])
REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, os.path.join(REPO, "python"))
if not os.environ.get("CONSENSUS_BIN"):
    _tmp = tempfile.mkdtemp(prefix="crowdkit-api-")
    subprocess.run(["go", "build", "-o", os.path.join(_tmp, "consensus"), "./cmd/consensus"], cwd=REPO, check=True)
    os.environ["CONSENSUS_BIN"] = os.path.join(_tmp, "consensus")
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import crowdkit.aggregation as ck  # noqa: E402
import consensus_crowd as cc  # noqa: E402
import tests.conftest as cf  # noqa: E402  (Crowd-Kit's test data)
import tests.aggregation.data_image as cf_image  # noqa: E402


def fixture(module, name):
    return getattr(module, name).__pytest_wrapped__.obj()


df = fixture(cf, "toy_answers_df")
gold = fixture(cf, "toy_gold_df")
pw = pd.DataFrame([["w1", "a", "b", "a"], ["w1", "b", "c", "b"], ["w2", "c", "a", "a"], ["w2", "a", "b", "a"]],
                  columns=["worker", "left", "right", "label"])
ml = pd.DataFrame([["t1", "w1", ["a"]], ["t1", "w2", ["a", "b"]], ["t2", "w1", ["b"]], ["t2", "w2", ["b"]]],
                  columns=["task", "worker", "label"])
image = fixture(cf_image, "simple_image_df")

# How each class is built and fitted: (data, extra fit argument, Crowd-Kit
# arguments named).
FITS = {
    "MajorityVote": (df, None, {}), "Wawa": (df, None, {}), "ZeroBasedSkill": (df, None, {"eps": 0.1, "n_iter": 5}),
    "GoldMajorityVote": (df, gold, {}), "DawidSkene": (df, None, {"n_iter": 10, "tol": 0}),
    "OneCoinDawidSkene": (df, None, {"n_iter": 10}), "GLAD": (df, None, {"n_iter": 10}),
    "MACE": (df, None, {"n_iter": 5, "n_restarts": 2}), "KOS": (df, None, {"n_iter": 10}),
    "MMSR": (df, None, {"n_iter": 0, "tol": 0}), "BradleyTerry": (pw, None, {"n_iter": 100}),
    "NoisyBradleyTerry": (pw, None, {"n_iter": 100, "regularization_ratio": 0.1}), "SegmentationMajorityVote": (image, None, {}),
}
METHODS = ["fit_predict", "fit_predict_proba", "fit_predict_score", "predict", "predict_proba", "predict_score"]
differences = []


def report(name, what, text):
    differences.append((name, what))
    print("%-24s %-10s %s" % (name, what, text))


def kind(v):
    """A description of a value: its kind, name, index names, columns name
    and dtype(s)."""
    if isinstance(v, pd.Series):
        return ("Series", v.name, tuple(v.index.names), str(v.dtype))
    if isinstance(v, pd.DataFrame):
        return ("DataFrame", tuple(v.index.names), v.columns.name, tuple(sorted({str(t) for t in v.dtypes})))
    if isinstance(v, np.ndarray):
        return ("ndarray", str(v.dtype), v.ndim)
    return type(v).__name__


def attributes(o):
    out = {}
    for n in dir(o):
        if n.endswith("_") and not n.startswith("_"):
            try:
                out[n] = kind(getattr(o, n))
            except Exception as e:  # an attribute that raises
                out[n] = "raises %s" % type(e).__name__
    return out


def make(module, name, kw):
    cls = getattr(module, name)
    if name == "BinaryRelevance":
        return cls(getattr(module, "MajorityVote")())
    if name == "BradleyTerry" and not kw:
        kw = {"n_iter": 100}  # Crowd-Kit's BradleyTerry has no default
    return cls(**kw)


def fit(o, name, data, extra):
    if name == "BinaryRelevance":
        return o.fit(ml)
    return o.fit(data, extra) if extra is not None else o.fit(data)


def compare_signatures(name, a, b):
    pa, pb = inspect.signature(a).parameters, inspect.signature(b).parameters
    for p in pa.values():
        if p.name not in pb:
            if not any(q.kind == q.VAR_KEYWORD for q in pb.values()):
                report(name, "signature", "no parameter %s" % p.name)
            else:
                report(name, "signature", "parameter %s only as a keyword option" % p.name)
        elif pb[p.name].default is not p.default and pb[p.name].default != p.default:
            theirs = "none (required)" if p.default is p.empty else repr(p.default)
            report(name, "signature", "%s default %r, Crowd-Kit's %s" % (p.name, pb[p.name].default, theirs))
    order_a = [n for n in pa if n in pb]
    order_b = [n for n in pb if n in pa]
    if order_a != order_b:
        report(name, "signature", "order %s, Crowd-Kit's %s" % (order_b, order_a))


def public_methods(cls):
    return {n for n, v in inspect.getmembers(cls) if callable(v) and not n.startswith("_") and not isinstance(v, type)}


def compare_fitted(name, a, b, label):
    da, db = attributes(a), attributes(b)
    for k in sorted(da):
        if k not in db:
            report(name, "attributes", "%s: no %s %s" % (label, k, da[k]))
        elif da[k] != db[k]:
            report(name, "attributes", "%s: %s %s, Crowd-Kit's %s" % (label, k, db[k], da[k]))


def compare_returns(name, a, b, data, extra):
    for m in METHODS:
        if not hasattr(a, m):
            continue
        if not hasattr(b, m):
            report(name, "returns", "no method %s" % m)
            continue
        args = (data, extra) if m.startswith("fit") and extra is not None else (data,)
        if name == "BinaryRelevance":
            args = (ml,)
        try:
            ra = getattr(a, m)(*args)
        except Exception:
            continue  # Crowd-Kit's own method fails here
        try:
            rb = getattr(b, m)(*args)
        except Exception as e:
            report(name, "returns", "%s raises %s: %s" % (m, type(e).__name__, e))
            continue
        if kind(ra) != kind(rb):
            report(name, "returns", "%s gives %s, Crowd-Kit's %s" % (m, kind(rb), kind(ra)))


def outcome(f):
    """None if f returns, else the class of what it raises."""
    try:
        f()
        return None
    except Exception as e:
        return type(e)


def compare_errors(name, a, b, data, extra):
    if name == "BinaryRelevance":
        data = ml
    last = data.columns[-1]  # the label column, "segmentation" for images
    cases = [("no %s column" % last, data.drop(columns=[last])), ("empty", data.iloc[:0])]
    if name == "KOS":
        cases.append(("three classes", fixture(cf, "simple_answers_df")))
    for what, bad in cases:
        ea = outcome(lambda: fit(a, name, bad, extra))
        eb = outcome(lambda: fit(b, name, bad, extra))
        if ea != eb and not (ea and eb and issubclass(eb, ea)):
            report(name, "errors", "%s: %s, Crowd-Kit's %s" % (what, eb.__name__ if eb else "no error",
                                                               ea.__name__ if ea else "no error"))


def compare_values(name, a, b, kw):
    same = []
    if isinstance(getattr(a, "labels_", None), pd.Series) and len(a.labels_):
        same.append("labels %s" % bool((a.labels_.sort_index() == b.labels_.sort_index()).all()))
    pa, pb = getattr(a, "probas_", None), getattr(b, "probas_", None)
    if isinstance(pa, pd.DataFrame) and isinstance(pb, pd.DataFrame) and len(pa):
        cols = sorted(pa.columns)
        d = np.abs(pa.sort_index()[cols].to_numpy() - pb.sort_index()[cols].to_numpy()).max()
        same.append("probas_ within %.2g" % d)
    for n in ("skills_", "scores_", "alphas_", "betas_"):
        va, vb = getattr(a, n, None), getattr(b, n, None)
        if isinstance(va, pd.Series) and isinstance(vb, pd.Series) and len(va):
            same.append("%s within %.2g" % (n, (va - vb.reindex(va.index)).abs().max()))
    print("%-24s %-10s %s" % (name, "values", "%r: %s" % (kw, ", ".join(same) or "-")))


exported = [n for n in ck.__all__ if n != "base"]
for name in exported:
    if not hasattr(cc, name):
        report(name, "missing", "no counterpart in consensus_crowd")
for name in exported:
    if not hasattr(cc, name):
        continue
    ca, cb = getattr(ck, name), getattr(cc, name)
    compare_signatures(name, ca, cb)
    for m in sorted(public_methods(ca) - public_methods(cb)):
        report(name, "methods", "no method %s" % m)
    data, extra, named = FITS.get(name, (df, None, {}))
    for label, kw in [("defaults", {}), ("named", named)]:
        if label == "named" and not kw:
            continue
        a, b = make(ck, name, kw), make(cc, name, kw)
        try:
            fit(a, name, data, extra)
        except Exception as e:
            print("%-24s %-10s Crowd-Kit's fit fails: %s" % (name, label, e))
            continue
        fit(b, name, data, extra)
        compare_fitted(name, a, b, label)
        if label == "named":
            compare_values(name, a, b, kw)
    a, b = make(ck, name, {}), make(cc, name, {})
    compare_returns(name, a, b, data, extra)
    compare_errors(name, make(ck, name, {}), make(cc, name, {}), data, extra)
print("%d differences in %d classes" % (len(differences), len({n for n, _ in differences})))

#!/usr/bin/env python3
"""Compares the fitted attributes and methods of Crowd-Kit's aggregators
with consensus_crowd's, on the toy data of Crowd-Kit's tests.

    /usr/bin/python3 scripts/crowdkit-api.py CROWDKIT_CHECKOUT

For every classification and pairwise class, with its defaults and with
Crowd-Kit's arguments named (n_iter, tol, ...), it fits both and prints OK
or every public attribute ending in "_" whose kind (Series, DataFrame,
array), Series name, index names or columns name differ, and every method
that consensus_crowd lacks; with arguments named, also whether the labels
agree and the largest difference of the probabilities. Builds the consensus
binary from this checkout (CONSENSUS_BIN if set).
"""
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
df = cf.toy_answers_df.__pytest_wrapped__.obj()
gold = cf.toy_gold_df.__pytest_wrapped__.obj()
pw = pd.DataFrame([["w1","a","b","a"],["w1","b","c","b"],["w2","c","a","a"],["w2","a","b","a"]], columns=["worker","left","right","label"])
def describe(o):
    out = {}
    for n in dir(o):
        if n.endswith("_") and not n.startswith("_"):
            try: v = getattr(o, n)
            except Exception: out[n] = "ERR"; continue
            if isinstance(v, pd.Series): out[n] = ("Series", v.name, v.index.name, tuple(v.index.names) if v.index.nlevels>1 else None)
            elif isinstance(v, pd.DataFrame): out[n] = ("DataFrame", v.index.name, tuple(v.index.names), v.columns.name)
            elif v is None: out[n] = None
            else: out[n] = type(v).__name__
    meths = {m for m in ["fit","fit_predict","fit_predict_proba","predict","predict_proba","predict_score","fit_predict_score"] if hasattr(o, m)}
    return out, meths
cases = [("MajorityVote", lambda m: m.fit(df)), ("Wawa", lambda m: m.fit(df)), ("ZeroBasedSkill", lambda m: m.fit(df)),
         ("GoldMajorityVote", lambda m: m.fit(df, gold)), ("DawidSkene", lambda m: m.fit(df)), ("OneCoinDawidSkene", lambda m: m.fit(df)),
         ("GLAD", lambda m: m.fit(df)), ("MACE", lambda m: m.fit(df)), ("KOS", lambda m: m.fit(df)), ("MMSR", lambda m: m.fit(df)),
         ("BradleyTerry", lambda m: m.fit(pw)), ("NoisyBradleyTerry", lambda m: m.fit(pw))]
for name, fit in cases:
    a = getattr(ck, name)(n_iter=100) if name == "BradleyTerry" else getattr(ck, name)()
    b = getattr(cc, name)(n_iter=100) if name == "BradleyTerry" else getattr(cc, name)()
    fit(a); fit(b)
    da, ma = describe(a); db, mb = describe(b)
    diffs = []
    for k in sorted(set(da)):
        if k not in db: diffs.append("missing %s %s" % (k, da[k]))
        elif da[k] != db[k]: diffs.append("%s: ck %s here %s" % (k, da[k], db[k]))
    if ma - mb: diffs.append("methods missing %s" % (ma - mb))
    print(name, "OK" if not diffs else diffs)
print("--- named")
for name, kw, fit in [("DawidSkene", dict(n_iter=10, tol=0), lambda m: m.fit(df)), ("DawidSkene", dict(n_iter=0), lambda m: m.fit(df)),
                      ("DawidSkene", dict(n_iter=10), lambda m: m.fit(df, gold)),
                      ("OneCoinDawidSkene", dict(n_iter=10), lambda m: m.fit(df)), ("MACE", dict(n_iter=5, n_restarts=2), lambda m: m.fit(df)),
                      ("MACE", dict(method="em"), lambda m: m.fit(df)),
                      ("GLAD", dict(n_iter=0), lambda m: m.fit(df)), ("ZeroBasedSkill", dict(n_iter=0), lambda m: m.fit(df)),
                      ("MMSR", dict(n_iter=0), lambda m: m.fit(df)), ("BradleyTerry", dict(n_iter=0), lambda m: m.fit(pw)),
                      ("NoisyBradleyTerry", dict(n_iter=0), lambda m: m.fit(pw)), ("KOS", dict(n_iter=10), lambda m: m.fit(df))]:
    a = getattr(ck, name)(**kw); b = getattr(cc, name)(**kw)
    try:
        fit(a)
    except Exception as e:
        print(name, kw, "crowd-kit fails:", e); continue
    fit(b)
    da, ma = describe(a); db, mb = describe(b)
    diffs = [("missing %s" % k) if k not in db else "%s: ck %s here %s" % (k, da[k], db[k]) for k in sorted(da) if db.get(k, "MISSING") != da[k]]
    same = None
    if hasattr(a, "labels_") and a.labels_ is not None and len(a.labels_):
        same = bool((a.labels_.sort_index() == b.labels_.sort_index()).all())
    if hasattr(a, "probas_") and isinstance(a.probas_, pd.DataFrame) and len(a.probas_):
        same = (same, float(np.abs(a.probas_.sort_index()[sorted(a.probas_.columns)].to_numpy() - b.probas_.sort_index()[sorted(b.probas_.columns)].to_numpy()).max()))
    print(name, kw, "OK" if not diffs else diffs, "labels/probas same:", same)

#!/usr/bin/env python3
"""Binary relevance here and in Crowd-Kit on one multi-label file.

    /usr/bin/python3 scripts/crowdkit-multilabel.py CROWDKIT_CHECKOUT [FILE]

Writes FILE (default /tmp/multilabel.csv): 300 tasks tagged by 5 of 20
workers each from 6 classes, drawn with seed 1 (each task has every class
with probability 0.3; a worker keeps a true class with its recall, uniform
on [0.5, 0.95], and adds a false one with probability 0.1; a label lists
the chosen classes separated by "|", "none" if none). It then aggregates
the file with Crowd-Kit's BinaryRelevance and with consensus_crowd's, over
MajorityVote, DawidSkene(n_iter=100) and Wawa, and with `consensus
multilabel -m mv` (the binary built from this checkout), and prints for
each how many tasks get the same set of classes as Crowd-Kit's and the
accuracy of both against the true sets.
"""

import os
import random
import subprocess
import sys
import tempfile
import warnings

warnings.simplefilter("ignore")
if len(sys.argv) not in (2, 3):
    sys.exit("usage: %s CROWDKIT_CHECKOUT [FILE]" % sys.argv[0])
path = sys.argv[2] if len(sys.argv) == 3 else "/tmp/multilabel.csv"
repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(repo, "python"))
sys.path.insert(0, sys.argv[1])

import pandas as pd  # noqa: E402
import crowdkit.aggregation as ck  # noqa: E402

import consensus_crowd as cc  # noqa: E402

tmp = tempfile.TemporaryDirectory()
exe = os.path.join(tmp.name, "consensus")
subprocess.run(["go", "build", "-o", exe, "./cmd/consensus"], cwd=repo, check=True)
os.environ["CONSENSUS_BIN"] = exe

rng = random.Random(1)
classes = ["c%d" % i for i in range(6)]
workers = {"w%02d" % i: rng.uniform(0.5, 0.95) for i in range(20)}
truth, rows = {}, []
for j in range(300):
    task = "t%03d" % j
    truth[task] = frozenset(c for c in classes if rng.random() < 0.3)
    for w in rng.sample(sorted(workers), 5):
        chosen = {c for c in truth[task] if rng.random() < workers[w]}
        chosen |= {c for c in classes if c not in truth[task] and rng.random() < 0.1}
        rows.append((task, w, "|".join(sorted(chosen)) or "none"))
with open(path, "w") as f:
    f.write("task,worker,label\n")
    f.writelines("%s,%s,%s\n" % r for r in rows)
frame = pd.DataFrame([(t, w, [] if y == "none" else y.split("|")) for t, w, y in rows],
                     columns=["task", "worker", "label"])


def accuracy(labels):
    return sum(frozenset(labels[t]) == truth[t] for t in truth) / len(truth)


def compare(name, ours, theirs):
    same = sum(frozenset(ours[t]) == frozenset(theirs[t]) for t in truth)
    print("%-40s same set as Crowd-Kit's on %d of %d tasks; exact-set accuracy %.3f here, %.3f Crowd-Kit"
          % (name, same, len(truth), accuracy(ours), accuracy(theirs)))


for name, here, there in [("MajorityVote", cc.MajorityVote(), ck.MajorityVote()),
                          ("DawidSkene(n_iter=100)", cc.DawidSkene(n_iter=100), ck.DawidSkene(n_iter=100)),
                          ("Wawa", cc.Wawa(), ck.Wawa())]:
    theirs = ck.BinaryRelevance(there).fit_predict(frame)
    compare("BinaryRelevance(%s)" % name, cc.BinaryRelevance(here).fit_predict(frame), theirs)
    if name == "MajorityVote":
        mv = theirs

out = subprocess.run([exe, "multilabel", path, "-m", "mv", "--empty-label", "none", "-q"], check=True,
                     stdout=subprocess.PIPE, encoding="utf-8").stdout.splitlines()
cli = {}
for line in out[1:]:
    task, labels = line.split(",")[:2]
    cli[task] = [] if labels == "none" else labels.split("|")
compare("consensus multilabel -m mv", cli, mv)
tmp.cleanup()

"""Crowd-Kit's zero-based skill (ZBS), which ``ZeroBasedSkill`` runs where
a user names one of Crowd-Kit's settings (``n_iter``, ``eps``, the step
schedule): every skill starts at 1/K + eps (K the classes of the data),
the step at ``lr_init``; iteration i (from 1) multiplies the step by
``lr_reduce_factor`` when i is a multiple of ``lr_steps_to_reduce``, takes
the vote weighted by the skills, and moves each skill by the step towards
the worker's accuracy against that vote: its share of its distinct
(task, label) pairs that equal the vote's label.

The vote is Crowd-Kit's ``MajorityVote.fit(data, skills)``: each class's
share of the task's total weight, the label the first largest share in
sorted class order.
"""

import numpy as np


def vote(coded, skills):
    """(labels, shares) of the vote weighted by skills (one per worker
    code): the shares tasks by classes, the labels class codes."""
    sums = np.zeros((coded.T, coded.K))
    np.add.at(sums, (coded.t, coded.y), skills[coded.w])
    with np.errstate(invalid="ignore", divide="ignore"):
        shares = sums / sums.sum(axis=1, keepdims=True)
    bad = ~np.isfinite(shares).all(axis=1)
    if bad.any():
        raise ValueError("ZeroBasedSkill: the skills of the workers of task %r sum to %r, so the vote has no "
                         "shares there; choose lr_init, lr_reduce_factor and eps that keep skills positive"
                         % (coded.tasks[np.argmax(bad)], sums[np.argmax(bad)].sum()))
    return shares.argmax(axis=1), shares


def zero_based_skill(coded, n_iter, lr_init, lr_steps_to_reduce, lr_reduce_factor, eps):
    """The skills (one per worker code) after n_iter iterations of
    Crowd-Kit's ZBS (see the module's doc)."""
    skills = np.full(coded.W, 1.0 / coded.K + eps)
    triples = np.unique(np.column_stack([coded.t, coded.w, coded.y]), axis=0)
    t, w, y = triples.T
    pairs = np.bincount(w, minlength=coded.W).astype(float)
    lr = lr_init
    for i in range(1, n_iter + 1):
        if i % lr_steps_to_reduce == 0:
            lr *= lr_reduce_factor
        labels, _ = vote(coded, skills)
        accuracy = np.bincount(w, weights=(y == labels[t]).astype(float), minlength=coded.W) / pairs
        skills = skills + lr * (accuracy - skills)
    return skills

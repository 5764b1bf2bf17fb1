"""consensus_crowd: consensus labels and calibrated label distributions
from crowdsourced labels, for Python, with Crowd-Kit's interface.

The package runs the ``consensus`` command-line program (a Go binary; see
``find_binary`` for how it is found) on a temporary copy of the labels and
reads its tables back. Two ways to call it:

    >>> from consensus_crowd import aggregate
    >>> r = aggregate(df)                  # df: columns task, worker, label
    >>> r.labels, r.probas                 # dicts; r.labels_, r.probas_ with pandas

    >>> from consensus_crowd import DawidSkene, load_dataset
    >>> df, gt = load_dataset("rte")       # a shipped data set, as Crowd-Kit's load_dataset
    >>> DawidSkene(n_iter=100).fit_predict(df)    # a Series indexed by task

The core needs only the standard library; the Crowd-Kit classes and the
``*_`` attributes need pandas. See docs/python.md.
"""

from ._binary import BinaryNotFoundError, find_binary
from ._core import (DEFAULT_MODEL, OPTIONS, ConsensusError, ConsensusInputError, Result, aggregate, capabilities,
                    check_options)
from .aggregation import (GLAD, KOS, MACE, MMSR, Auto, Consensus, DawidSkene, GoldMajorityVote, MajorityVote,
                          OneCoinDawidSkene, Wawa, ZeroBasedSkill)
from .datasets import load_dataset
from .pairwise import BradleyTerry, NoisyBradleyTerry, PairwiseResult, aggregate_pairwise
from .multilabel import BinaryRelevance
from .segmentation import SegmentationMajorityVote
from .planning import NextResult, plan_next

__version__ = "0.1.0"

__all__ = [
    "aggregate", "capabilities", "check_options", "find_binary", "load_dataset", "Result", "ConsensusError", "ConsensusInputError", "BinaryNotFoundError",
    "DEFAULT_MODEL", "OPTIONS",
    "MajorityVote", "Wawa", "ZeroBasedSkill", "GoldMajorityVote", "DawidSkene", "OneCoinDawidSkene", "GLAD",
    "MACE", "KOS", "MMSR",
    "Consensus", "Auto", "BinaryRelevance", "SegmentationMajorityVote",
    "aggregate_pairwise", "PairwiseResult", "BradleyTerry", "NoisyBradleyTerry",
    "plan_next", "NextResult",
]

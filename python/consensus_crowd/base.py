"""Crowd-Kit's base classes (``crowdkit.aggregation.base``), for type
annotations and isinstance checks."""

from .aggregation import _Aggregator as BaseClassificationAggregator
from .pairwise import _Pairwise as BasePairwiseAggregator

__all__ = ["BaseClassificationAggregator", "BasePairwiseAggregator"]

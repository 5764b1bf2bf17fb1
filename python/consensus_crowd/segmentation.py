"""Crowd-Kit's SegmentationMajorityVote: the pixel-wise (weighted) majority
of binary image masks. It needs numpy and pandas and runs in Python (the
CLI aggregates categorical labels, not masks)."""

from ._core import _pandas

__all__ = ["SegmentationMajorityVote"]


class SegmentationMajorityVote:
    """Pixel-wise majority vote of binary segmentations, as Crowd-Kit's.

    ``fit(data, skills=None)`` takes a DataFrame with columns task, worker
    and segmentation (a boolean numpy array per row, of one shape per
    task). A pixel of a task's result is set when the skills of the
    workers that set it weigh at least half of all its workers' skills
    (every skill 1 without skills). ``on_missing_skill`` and
    ``default_skill`` are as for ``MajorityVote``: "error" raises
    ValueError for a worker without a skill, "ignore" leaves its masks out
    (a task left without masks raises ValueError), "value" gives it
    ``default_skill``. After fit, ``segmentations_`` is a Series of masks
    indexed by task, named ``agg_segmentation``.
    """

    def __init__(self, default_skill=None, on_missing_skill="error"):
        self.default_skill, self.on_missing_skill = default_skill, on_missing_skill

    def fit(self, data, skills=None):
        """Aggregate the masks of data and return self. Bad settings raise
        ValueError here, as Crowd-Kit's."""
        pd = _pandas()
        import numpy as np
        if self.on_missing_skill not in ("error", "ignore", "value"):
            raise ValueError("SegmentationMajorityVote(on_missing_skill=%r): want 'error', 'ignore' or 'value'"
                             % (self.on_missing_skill,))
        if self.default_skill is not None and self.on_missing_skill != "value":
            raise ValueError("SegmentationMajorityVote: default_skill is used with on_missing_skill='value' only")
        if self.on_missing_skill == "value" and self.default_skill is None:
            raise ValueError("SegmentationMajorityVote(on_missing_skill='value') needs default_skill")
        data = data[["task", "worker", "segmentation"]]
        if skills is None:
            weight = pd.Series(1.0, index=data.index)
        else:
            weight = data["worker"].map(pd.Series(skills, dtype=float))
            missing = weight.isna()
            if missing.any():
                if self.on_missing_skill == "error":
                    raise ValueError("SegmentationMajorityVote: no skill for worker %r (on_missing_skill='error')"
                                     % (data.loc[missing, "worker"].iloc[0],))
                if self.on_missing_skill == "value":
                    weight = weight.fillna(float(self.default_skill))
                else:
                    lost = set(data["task"]) - set(data.loc[~missing, "task"])
                    if lost:
                        raise ValueError("SegmentationMajorityVote(on_missing_skill='ignore'): %d tasks have no "
                                         "worker with a skill" % len(lost))
                    data, weight = data[~missing], weight[~missing]
        result = {}
        for task, rows in data.groupby("task", sort=True).groups.items():
            masks = [np.asarray(m, dtype=float) for m in data.loc[rows, "segmentation"]]
            w = weight.loc[rows].to_numpy(dtype=float)
            score = sum(wi * m for wi, m in zip(w, masks))
            result[task] = 2 * score - w.sum() >= 0
        self.segmentations_ = pd.Series(list(result.values()), index=pd.Index(list(result), name="task"),
                                        name="agg_segmentation", dtype=object)
        return self

    def fit_predict(self, data, skills=None):
        """Aggregate the masks of data and return ``segmentations_``."""
        return self.fit(data, skills).segmentations_

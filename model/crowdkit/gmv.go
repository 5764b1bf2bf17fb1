package crowdkit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// GoldMajorityVote is Crowd-Kit's gold majority vote: a skill-weighted
// majority vote whose skills are measured on objects with known classes
// (training gold). The skill of worker w is its accuracy on the gold
// objects,
//
//	s_w = |{i of w : j(i) gold, y_i = t_j(i)}| / |{i of w : j(i) gold}|,
//
// and the consensus of every object, gold or not, is the weighted vote
// P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] / Σ_{i ∈ j} s_w(i) (uniform if the
// weights sum to zero), as Crowd-Kit's predict_proba.
//
// Crowd-Kit refuses a worker without a label on a gold object; here such a
// worker gets the pooled accuracy of all labels on gold objects, the
// natural prior guess, so that a random split of the gold (--train-fraction)
// never fails. Every label counts, including repeated labels of one worker
// on one object (Crowd-Kit counts a repeated identical label once).
type GoldMajorityVote struct {
	// Gold holds the training class index of every object (one entry per
	// task of the data set, as latent.GoldClasses returns), or −1 for an
	// object without gold. Fit fails without any gold object.
	Gold []int
}

// Name returns "gmv".
func (GoldMajorityVote) Name() string { return "gmv" }

// ErrNoTrainingGold is returned by GoldMajorityVote.Fit when no object has
// a training class (GoldMajorityVote.Gold).
var ErrNoTrainingGold = errors.New("gmv needs training gold to measure worker skills: no task has a gold class")

// Fit measures the skills on the gold objects of d and returns the
// weighted vote. It takes no settings.
func (e GoldMajorityVote) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	if len(e.Gold) == 0 {
		return nil, ErrNoTrainingGold
	}
	if err := model.CheckGold(e.Gold, d); err != nil {
		return nil, fmt.Errorf("gmv: %w", err)
	}
	if !slices.ContainsFunc(e.Gold, func(t int) bool { return t >= 0 }) {
		return nil, ErrNoTrainingGold
	}
	start := time.Now()
	skill, n := vote.WorkerAccuracy(d, e.Gold)
	var right, total float64
	for w := range skill {
		right += skill[w] * n[w]
		total += n[w]
	}
	for w := range skill {
		if n[w] == 0 {
			skill[w] = right / total
		}
	}
	return withSkills(model.ClosedForm(e.Name(), d, vote.Weighted(d, skill), start), skill), nil
}

// NumParams returns the number of fitted parameters on d: one skill per
// worker (Parametric). Result.WorkerSkills reports them.
func (GoldMajorityVote) NumParams(d *data.Dataset) int { return voteParams(d) }

// NeedsGold reports true: gmv measures its workers' skills on training
// gold and cannot fit without it (ErrNoTrainingGold).
func (GoldMajorityVote) NeedsGold() bool { return true }

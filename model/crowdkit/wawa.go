package crowdkit

import (
	"context"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// Wawa is Worker Agreement With Aggregate, the heuristic of Crowd-Kit's
// Wawa aggregator (Ustalov et al., "Learning from Crowds with Crowd-Kit",
// 2021). It takes three steps:
//
//  1. the majority vote m_j of every object j, exact ties going to the
//     first class in the order of d.Classes, as in Crowd-Kit;
//  2. the skill of every worker, the fraction of its labels that agree
//     with the majority vote, s_w = |{i of w : y_i = m_j(i)}| / |{i of w}|;
//  3. the skill-weighted vote, P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] /
//     Σ_{i ∈ j} s_w(i).
//
// The consensus distribution is the weighted vote of step 3, as Crowd-Kit's
// predict_proba; an object whose workers all have skill zero gets the
// uniform distribution. Every label counts, including repeated labels of
// one worker on one object (Crowd-Kit counts a repeated identical label
// once when computing skills).
//
// Wawa has no settings; its zero value is ready to use.
type Wawa struct{}

// Name returns "wawa".
func (Wawa) Name() string { return "wawa" }

// Fit returns the skill-weighted vote of d. It takes no settings.
func (e Wawa) Fit(ctx context.Context, d *data.Dataset, _ *model.Settings) (*model.Result, error) {
	if err := model.CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	mv := vote.FirstArgmaxRows(d.FrequencyWeights(), d.NumTasks(), d.NumClasses())
	skill, _ := vote.WorkerAccuracy(d, mv)
	return withSkills(model.ClosedForm(e.Name(), d, vote.Weighted(d, skill), start), skill), nil
}

// NumParams returns the number of fitted parameters on d: one skill per
// worker (Parametric). Result.WorkerSkills reports them.
func (Wawa) NumParams(d *data.Dataset) int { return voteParams(d) }

package model

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/model/internal/vote"
)

// WeightedVote is a majority vote weighted by given worker skills,
// Crowd-Kit's MajorityVote.fit(data, skills): the consensus of object j is
//
//	P_j(z) = Σ_{i ∈ j} s_w(i) 1[y_i = z] / Σ_{i ∈ j} s_w(i),
//
// uniform when the skills of its workers sum to zero, and its label the
// argmax. With every skill equal it is the majority vote (mv). The skills
// come from elsewhere: an earlier fit's workers file, a qualification
// test, a platform's worker ratings.
type WeightedVote struct {
	// Skills holds the skill s_w ≥ 0 of every worker of the data set to
	// fit, one per worker; NaN marks a worker without a known skill, whose
	// labels Missing decides about.
	Skills []float64
	// Missing is what a worker without a skill gets: MissingError (the
	// zero value) refuses the fit, MissingIgnore leaves its labels out
	// (an object left with none refuses the fit), MissingValue gives it
	// the skill Default. They are Crowd-Kit's on_missing_skill "error",
	// "ignore" and "value" (with default_skill).
	Missing MissingSkill
	// Default is the skill of a worker without one under MissingValue.
	Default float64
}

// MissingSkill says what WeightedVote does with a worker without a skill.
type MissingSkill int

// The choices of WeightedVote.Missing.
const (
	MissingError  MissingSkill = iota // refuse the fit
	MissingIgnore                     // leave the worker's labels out
	MissingValue                      // give the worker WeightedVote.Default
)

// Name returns "mv": the majority vote, with weights.
func (WeightedVote) Name() string { return "mv" }

// NumParams returns the number of worker weights on d (Parametric):
// Result.WorkerValues reports each worker's weight ("weight": its skill,
// or what Missing gave it), and Result.WorkerSkills its agreement with the
// consensus label, as Crowd-Kit's skills_ after a vote.
func (WeightedVote) NumParams(d *data.Dataset) int { return d.NumWorkers() }

// Fit returns the weighted vote of d. It takes no settings. It fails as
// Check does.
func (e WeightedVote) Fit(ctx context.Context, d *data.Dataset, _ *Settings) (*Result, error) {
	if err := CheckFit(ctx, d); err != nil {
		return nil, err
	}
	start := time.Now()
	skill, err := e.weights(d)
	if err != nil {
		return nil, err
	}
	probs := vote.Weighted(d, skill)
	// The workers' skills reported are, as Crowd-Kit's skills_ after a
	// vote, their agreement with the consensus label; the given skills,
	// which need not be probabilities, are their weights.
	agree, _ := vote.WorkerAccuracy(d, vote.FirstArgmax(probs, d.NumClasses()))
	r := ClosedForm(e.Name(), d, probs, start)
	r.SetNoise(&vote.View{K: d.NumClasses(), Acc: agree, Col: "weight", Own: skill})
	r.Method = "closed form, weighted by given skills"
	return r, nil
}

// Check returns an error if e cannot fit d: Skills does not hold one entry
// per worker, a skill or Default is negative or infinite, a worker has no
// skill under MissingError, or an object has no label of a worker with one
// under MissingIgnore; d nil is an error wrapping ErrArgument.
func (e WeightedVote) Check(d *data.Dataset) error {
	if d == nil {
		return fmt.Errorf("%w: mv: no data set", ErrArgument)
	}
	_, err := e.weights(d)
	return err
}

// weights returns the weight of every worker of d, as Check checks them.
func (e WeightedVote) weights(d *data.Dataset) ([]float64, error) {
	if len(e.Skills) != d.NumWorkers() {
		return nil, fmt.Errorf("mv: %d skills for %d workers: want one per worker (NaN for none)", len(e.Skills), d.NumWorkers())
	}
	if e.Missing == MissingValue && !(e.Default >= 0 && !math.IsInf(e.Default, 1)) {
		return nil, fmt.Errorf("mv: default skill %v: want a finite number, at least 0", e.Default)
	}
	skill := make([]float64, len(e.Skills))
	missing := 0
	for w, s := range e.Skills {
		switch {
		case math.IsNaN(s):
			missing++
			switch e.Missing {
			case MissingError:
				return nil, fmt.Errorf("mv: worker %s has no skill, and %d workers in all; give every worker a skill, or say what a worker without one gets (Crowd-Kit's on_missing_skill: ignore or a value)", d.Workers[w], countNaN(e.Skills))
			case MissingValue:
				skill[w] = e.Default
			}
		case s < 0 || math.IsInf(s, 1):
			return nil, fmt.Errorf("mv: worker %s has skill %v: want a finite number, at least 0", d.Workers[w], s)
		default:
			skill[w] = s
		}
	}
	if e.Missing == MissingIgnore && missing > 0 {
		for j := range d.Tasks {
			ws, _ := d.TaskLabels(j)
			known := false
			for _, w := range ws {
				known = known || !math.IsNaN(e.Skills[w])
			}
			if !known {
				return nil, fmt.Errorf("mv: task %s has no label of a worker with a skill, and ignoring the others leaves it none", d.Tasks[j])
			}
		}
	}
	return skill, nil
}

func countNaN(x []float64) int {
	n := 0
	for _, v := range x {
		if math.IsNaN(v) {
			n++
		}
	}
	return n
}

// SkillWeigher is an Estimator that can weigh every worker's vote by a
// given skill: RFE (and its alias mv), whose weighted form is WeightedVote.
type SkillWeigher interface {
	Estimator
	// WithSkills returns the vote weighted by skills (one per worker, NaN
	// for none), with missing and def as WeightedVote's Missing and
	// Default.
	WithSkills(skills []float64, missing MissingSkill, def float64) WeightedVote
}

// WithSkills returns the majority vote weighted by skills (SkillWeigher).
func (RFE) WithSkills(skills []float64, missing MissingSkill, def float64) WeightedVote {
	return WeightedVote{Skills: skills, Missing: missing, Default: def}
}

var (
	_ Parametric   = WeightedVote{}
	_ SkillWeigher = RFE{}
)

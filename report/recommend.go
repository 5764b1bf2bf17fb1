package report

import (
	"context"
	"fmt"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/model"
)

// recommend ranks the models names as "consensus compare" does, with the
// report's gold labels, settings, seed and bootstrap replicates: by the log
// loss on the gold tasks (compare.RankFitted, on the fits the report has
// made), or without gold by the log loss of held-out labels (compare.Run,
// which fits the models on held-out splits). A model whose consensus is
// another's (model.Capabilities.SameAs: mv, rfe read through its argmax)
// is left out, as compare leaves it out: it scores as the other does.
func (r *Report) recommend(ctx context.Context, names []string, o *Settings) (*compare.Report, error) {
	var models []string
	var fits []*model.Result
	for _, n := range names {
		if !sameAs(n) {
			models = append(models, n)
			fits = append(fits, r.res[n])
		}
	}
	if len(models) == 0 {
		return nil, nil
	}
	opt := compare.Settings{Models: models, Gold: r.gold, Fit: o.Fit, Seed: o.Seed, Bootstrap: max(o.BootstrapReps, 0), MaxMemory: o.MaxMemory}
	if o.BootstrapReps < 0 {
		opt.Bootstrap = 1 // compare needs resamples to say how sure it is; one costs nothing
	}
	var rep *compare.Report
	var err error
	if r.gold != nil {
		rep, err = compare.RankFitted(r.d, fits, opt)
	} else {
		if o.Step != nil {
			opt.Progress = func(e model.Progress) {
				o.Step(e.Done, e.Total, "ranking the models on held-out labels: "+e.Item)
			}
		}
		rep, err = compare.Run(ctx, r.d, opt)
	}
	if err != nil {
		return nil, fmt.Errorf("ranking the models: %w", err)
	}
	return rep, nil
}

// choose makes the recommendation (compare.Auto with the report's
// settings and seed, as "consensus fit --model auto" chooses), before the
// fits, so that the chosen model is fitted with the others.
func (r *Report) choose(ctx context.Context, o *Settings) (*compare.AutoChoice, error) {
	opt := compare.AutoSettings{Fit: o.Fit, Seed: o.Seed}
	if o.Step != nil {
		opt.Progress = func(e model.Progress) {
			o.Step(e.Done, e.Total, "choosing the recommended model on held-out labels: "+e.Item)
		}
	}
	choice, err := compare.Auto(ctx, r.d, opt)
	if err != nil {
		return nil, fmt.Errorf("recommending a model: %w", err)
	}
	return choice, nil
}

// recommended returns the recommended model and sentences on how it was
// chosen and how the rows are ranked, or "" when there is no
// recommendation.
func (r *Report) recommended() (name, basis string) {
	if r.choice == nil {
		return "", ""
	}
	basis = "It has " + r.choice.Basis() + ", the choice of consensus fit --model auto and of consensus compare."
	if r.rec == nil {
		return r.choice.Model, basis
	}
	var what string
	switch r.rec.Criterion { // recommend leaves compare's default criterion
	case compare.HeldOut:
		what = fmt.Sprintf("the log loss of %d held-out labels (%d splits)", r.rec.N, r.rec.Splits)
	default:
		what = fmt.Sprintf("the log loss on the %d gold tasks", r.rec.N)
	}
	basis += " The rows are ranked by " + what + ", as consensus compare ranks them"
	if top, first := r.rec.Top(); top != "" && r.rec.Bootstrap > 1 {
		basis += fmt.Sprintf("; %s ranks first in %.0f%% of %d bootstrap resamples", top, 100*first, r.rec.Bootstrap)
	}
	return r.choice.Model, basis + "."
}

// rank returns the position of every model in the recommendation's
// ranking, best first; nil without a recommendation.
func (r *Report) rank() map[string]int {
	if r.rec == nil {
		return nil
	}
	m := make(map[string]int, len(r.rec.Rows))
	for i, row := range r.rec.Rows {
		m[row.Model] = i + 1
	}
	return m
}

// heldOut returns the held-out log loss of a model when the recommendation
// ranks by it.
func (r *Report) heldOut(name string) (compare.Interval, bool) {
	if r.rec == nil || r.rec.Criterion != compare.HeldOut {
		return compare.Interval{}, false
	}
	for _, row := range r.rec.Rows {
		if row.Model == name && row.Err == nil {
			return row.HeldOut, true
		}
	}
	return compare.Interval{}, false
}

// sameAs reports whether the registered model of that name shares another
// model's consensus distribution (model.Capabilities.SameAs), so that a
// curve or a ranking would show the other twice.
func sameAs(name string) bool {
	c, _ := model.DescribeName(name)
	return c.SameAs != ""
}

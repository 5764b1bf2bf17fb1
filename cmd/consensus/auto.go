package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/progress"
	"github.com/consensuslab/consensus/model"
)

// autoName is the --model value that chooses a model for the data.
const autoName = "auto"

// autoSummary is the line of --model auto in 'consensus models'.
const autoSummary = "choose the worker model that best predicts held-out labels among a few Bayesian models, then fit it: the model compare and report recommend (fit only; see docs/choosing-a-model.md)"

// autoFlags are fit's flags of --model auto.
type autoFlags struct {
	models    string
	criterion string
}

func (f *autoFlags) register(c *cobra.Command) {
	fl := c.Flags()
	fl.StringVar(&f.models, "auto-models", "", "with --model auto: comma-separated candidate models (default: "+strings.Join(compare.AutoModels, ",")+")")
	fl.StringVar(&f.criterion, "auto-criterion", "", "with --model auto: the held-out criterion, likelihood (default: the one compare and report recommend by), output-reliable, output or output-channel (see docs/choosing-a-model.md)")
}

// modelOptions are fit's flags that change a model's prior.
type modelOptions struct {
	gladPrior float64 // --glad-prior
	qPrior    float64 // --q-prior
	staged    bool    // --staged
}

// apply returns est with the options applied (withGLADPrior, withQPrior).
func (o modelOptions) apply(est model.Estimator) (model.Estimator, error) {
	est, err := withGLADPrior(est, o.gladPrior)
	if err != nil {
		return nil, err
	}
	return withQPrior(est, o.qPrior, o.staged)
}

// applySome returns the estimators of the names, each with the options o
// applied where it takes them (compare's list mixes models with and
// without a GLAD or q_j prior). It is a usage error when an option's value
// is bad or when an option given fits none of the models.
func (o modelOptions) applySome(names []string) ([]model.Estimator, error) {
	ests, glad, q, err := o.applyWhere(names)
	if err != nil {
		return nil, err
	}
	if o.gladPrior != 0 && !glad {
		return nil, usagef("--glad-prior needs a GLAD model (%s) among the models and a positive variance", model.NamesWith(model.HasPrior("glad-prior")))
	}
	if (o.qPrior != 0 || o.staged) && !q {
		return nil, usagef("--q-prior and --staged need a model with a prior on q_j (%s) among the models", model.NamesWith(model.HasPrior("q-prior")))
	}
	return ests, nil
}

// applyWhere returns the estimators of the names, each with the options o
// applied where it takes them, and whether the GLAD prior and the q_j
// prior applied to any. It is a usage error when an option's value is bad.
func (o modelOptions) applyWhere(names []string) (ests []model.Estimator, glad, q bool, err error) {
	if err := checkFinite("glad-prior", o.gladPrior); err != nil {
		return nil, false, false, err
	}
	if err := checkFinite("q-prior", o.qPrior); err != nil {
		return nil, false, false, err
	}
	ests = make([]model.Estimator, len(names))
	p := model.Priors{PriorVar: o.gladPrior, QPrior: o.qPrior, Staged: o.staged}
	for i, n := range names {
		est, err := model.ByName(n)
		if err != nil {
			return nil, false, false, usageErr(err)
		}
		var g, qp bool
		ests[i], g, qp = p.Apply(est)
		glad, q = glad || g, q || qp
	}
	return ests, glad, q, nil
}

// recommendation returns the options of compare.Auto with which compare
// and report make the recommendation: fit --model auto's choice with its
// default candidates (compare.AutoModels, with the options o applied where
// they take them) and criterion, the fit settings set and the seed.
func (o modelOptions) recommendation(set *model.Settings, seed uint64, parallel int) (*compare.AutoSettings, error) {
	cands, _, _, err := o.applyWhere(compare.AutoModels)
	if err != nil {
		return nil, err
	}
	return &compare.AutoSettings{Estimators: cands, Fit: set, Seed: seed, Threads: parallel}, nil
}

// estimators returns the estimators that fit may use for --model name:
// the named one, or with --model auto every candidate. Every one has the
// options o applied.
func (f *autoFlags) estimators(name string, o modelOptions) ([]model.Estimator, error) {
	names := []string{name}
	if name != autoName {
		if f.models != "" || f.criterion != "" {
			return nil, usagef("--auto-models and --auto-criterion need --model auto")
		}
	} else {
		names = f.candidates()
		if len(names) == 0 {
			return nil, usagef("--auto-models: no models")
		}
		if _, err := compare.ParseScorer(f.criterion); err != nil {
			return nil, usagef("--auto-criterion: %v", err)
		}
	}
	ests := make([]model.Estimator, len(names))
	for i, n := range names {
		est, err := model.ByName(n)
		if err == nil {
			est, err = o.apply(est)
		}
		if err != nil {
			if name == autoName {
				return nil, usagef("--auto-models: %v", err)
			}
			return nil, usageErr(err)
		}
		ests[i] = est
	}
	return ests, nil
}

// candidates returns the names of --auto-models, or nil for the default.
func (f *autoFlags) candidates() []string {
	if f.models == "" {
		return compare.AutoModels
	}
	return splitList(f.models)
}

// choose runs compare.Auto on d among ests and returns the chosen
// estimator; unless quiet, it writes the choice and every candidate's
// score to w.
func (f *autoFlags) choose(ctx context.Context, w io.Writer, d *data.Dataset, ests []model.Estimator, set *model.Settings, seed uint64, quiet bool) (model.Estimator, error) {
	scorer, err := compare.ParseScorer(f.criterion)
	if err != nil {
		return nil, usagef("--auto-criterion: %v", err)
	}
	opt := compare.AutoSettings{Estimators: ests, Scorer: scorer, Fit: set, Seed: seed}
	var bar *progress.Reporter
	if !quiet {
		bar = progress.New("choosing a model")
		opt.Progress = func(p model.Progress) { bar.Step(p.Done, p.Total, p.Item) }
	}
	choice, err := compare.Auto(ctx, d, opt)
	bar.Finish()
	if err != nil {
		return nil, err
	}
	if !quiet {
		if err := compare.WriteChoice(w, choice); err != nil {
			return nil, err
		}
	}
	for _, e := range ests {
		if e.Name() == choice.Model {
			return e, nil
		}
	}
	return nil, fmt.Errorf("auto: chose %s, not a candidate", choice.Model) // cannot happen
}

package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/heldout"
	"github.com/consensuslab/consensus/model"
)

// AutoModels are the candidates Auto chooses among when
// AutoSettings.Models is nil, and so the models that "consensus fit --model
// auto", "consensus compare" and "consensus report" recommend from: the
// default model (vb-ds, Bayesian Dawid-Skene) and the same form with the
// one-coin and GLAD workers. Every one gives both answers, the posterior
// of the true class (Result.Probs) and the label distribution
// (Result.Distribution), so the choice is that of the worker model that
// best predicts held-out labels: a full confusion matrix per worker, one
// accuracy per worker, or an ability per worker and a difficulty per task.
// This list and DefaultScorer are the one definition of the
// recommendation; nothing else names the candidates.
var AutoModels = []string{model.DefaultModel, "vb-onecoin", "vb-glad"}

// AutoSettings controls Auto. The zero value chooses among AutoModels by
// DefaultScorer on three splits that each hold out a fifth of every
// object's labels, on at most 20,000 labels, each fit with the
// iteration limit of the final fit (model.Settings.MaxIterations).
type AutoSettings struct {
	// Models are the candidates' registry names; nil means AutoModels.
	Models []string
	// Estimators, if not nil, are the candidates instead of Models (such
	// as registered models with other priors).
	Estimators []model.Estimator
	// Scorer is the criterion; nil means DefaultScorer.
	Scorer Scorer
	// Fit holds the fit settings of the candidates' fits (its Threads
	// is set to 1, its Progress is replaced and its MaxIterations is
	// bounded by MaxIterations below); nil means the defaults.
	Fit *model.Settings
	// MaxIterations, if positive, bounds the iterations of every
	// candidate's fit, and so the time of the choice: a fit stops at the
	// smaller of this and Fit.MaxIterations (1000 by default). Zero
	// means Fit.MaxIterations alone, the limit of the final fit. A
	// candidate whose fit stops at its limit counts as not converged, so a
	// bound below the final fit's makes a slow candidate lose: vb-ds's fits
	// to the splits of websearch and trec2010 take up to 674 iterations,
	// and stopped at 300 they would lose to vb-onecoin, 24 points less
	// accurate on trec2010.
	MaxIterations int
	// Threads is the number of goroutines the fits run on, one fit on
	// each at a time, and so the number of fits run at once; zero means
	// runtime.GOMAXPROCS(0).
	Threads int
	// HoldOutFraction is the fraction of each object's labels held out in
	// a split; zero means 0.2.
	HoldOutFraction float64
	// Splits is the number of held-out splits; zero means 3.
	Splits int
	// MaxLabels bounds the time of the choice: on a data set with more
	// labels, the candidates are fitted to the labels of a subsample of
	// the objects, drawn with Seed, with about MaxLabels labels. Zero
	// means 20,000; negative means no subsample.
	MaxLabels int
	// Seed seeds the subsample and the splits.
	Seed uint64
	// Progress, if not nil, is called (from one goroutine at a time) when
	// a fit ends, with Run "auto", Done and Total counting the fits, Item
	// the candidate's name followed by " (split k)", and the fit's Err and
	// Elapsed.
	Progress func(model.Progress)
}

// AutoCandidate is one candidate's score.
type AutoCandidate struct {
	// Model is the registry name.
	Model string
	// Score is the criterion's value, lower is better; NaN when a fit
	// failed (then Err says why) or no held-out label could be scored.
	Score float64
	// Converged is false when some fit of the candidate stopped at its
	// iteration limit.
	Converged bool
	// Iterations is the largest number of iterations of the candidate's
	// fits.
	Iterations int
	// Runtime adds up the candidate's fits.
	Runtime time.Duration
	// Err is the first error of the candidate's fits.
	Err error
}

// AutoChoice is the outcome of Auto.
type AutoChoice struct {
	// Model is the chosen candidate's registry name.
	Model string
	// Criterion is the Scorer's name.
	Criterion string
	// Candidates are the scores, in the order of AutoSettings.Models.
	Candidates []AutoCandidate
	// Tasks and Labels are the size of the data the candidates were
	// fitted to: all of it, or the subsample.
	Tasks, Labels int
	// Subsample is true when that is a subsample of the objects.
	Subsample bool
	// Splits is the number of held-out splits.
	Splits int
	// Runtime is the wall time of the choice.
	Runtime time.Duration
}

func (o AutoSettings) withDefaults() AutoSettings {
	if o.Models == nil {
		o.Models = AutoModels
	}
	if o.Scorer == nil {
		o.Scorer = DefaultScorer
	}
	if o.HoldOutFraction == 0 {
		o.HoldOutFraction = 0.2
	}
	if o.Splits == 0 {
		o.Splits = 3
	}
	if o.MaxLabels == 0 {
		o.MaxLabels = 20000
	}
	return o
}

// Auto chooses a model for d without gold labels; with the zero
// AutoSettings (but for Fit, Seed, Threads and Progress) its choice
// is the recommendation of the module: the model that "consensus fit
// --model auto" fits and that "consensus compare" and "consensus report"
// recommend, with or without gold labels, among AutoModels by
// DefaultScorer.
//
// It fits every candidate to Splits training splits of d (or of a
// subsample of its objects when d has more than MaxLabels labels), each
// holding out a fraction of every object's labels as Split does, and
// scores the fits on the held-out labels with the Scorer. The choice is
// the candidate with the lowest score that converged on every split; if
// none did, the lowest score. Ties go to the earlier candidate. The choice
// depends on d, the options and Seed only, not on Threads or the number
// of cores.
//
// Auto only chooses: fit the chosen model (model.ByName(choice.Model)) to
// all of d for the consensus. It returns an error for bad options, when
// ctx is done, or when every candidate fails.
func Auto(ctx context.Context, d *data.Dataset, opt AutoSettings) (*AutoChoice, error) {
	if d == nil {
		return nil, errors.New("auto: no data set")
	}
	start := time.Now()
	opt = opt.withDefaults()
	ests, err := estimators(opt.Estimators, opt.Models)
	if err != nil {
		return nil, err
	}
	if len(ests) == 0 {
		return nil, errors.New("auto: no candidate models")
	}
	if !(opt.HoldOutFraction > 0 && opt.HoldOutFraction < 1) {
		return nil, fmt.Errorf("auto: hold-out fraction %g not in (0, 1)", opt.HoldOutFraction)
	}
	if opt.Splits < 0 || opt.MaxIterations < 0 {
		return nil, fmt.Errorf("auto: %d splits, %d iterations", opt.Splits, opt.MaxIterations)
	}
	sub := d
	if opt.MaxLabels > 0 && d.NumLabels() > opt.MaxLabels {
		sub = subsampleTasks(d, opt.MaxLabels, opt.Seed)
	}
	trains, helds, jobs := splitJobs(sub, len(ests), opt.Splits, opt.HoldOutFraction, opt.Seed)
	var progress func(model.Progress)
	if opt.Progress != nil {
		progress = func(p model.Progress) {
			p.Run = "auto"
			opt.Progress(p)
		}
	}
	var set model.Settings
	if opt.Fit != nil {
		set = *opt.Fit
	}
	if opt.MaxIterations > 0 && (set.MaxIterations <= 0 || set.MaxIterations > opt.MaxIterations) {
		set.MaxIterations = opt.MaxIterations
	}
	fits, err := fitAll(ctx, ests, jobs, Settings{Fit: &set, Threads: opt.Threads, Progress: progress})
	if err != nil {
		return nil, err
	}
	cands := make([]AutoCandidate, len(ests))
	loss := make([]float64, len(ests))
	weight := make([]float64, len(ests))
	for i := range cands {
		cands[i] = AutoCandidate{Model: ests[i].Name(), Converged: true}
	}
	for ji, jb := range jobs {
		f, c := fits[ji], &cands[jb.model]
		c.Runtime += f.dur
		if f.err != nil {
			if c.Err == nil {
				c.Err = f.err
			}
			continue
		}
		if !f.res.Converged {
			c.Converged = false
		}
		c.Iterations = max(c.Iterations, f.res.Iterations)
		l, w, err := opt.Scorer.Score(f.res, trains[jb.split], helds[jb.split])
		if err != nil {
			if c.Err == nil {
				c.Err = err
			}
			continue
		}
		loss[jb.model] += l
		weight[jb.model] += w
	}
	best := -1
	for i := range cands {
		c := &cands[i]
		c.Score = math.NaN()
		if c.Err == nil && weight[i] > 0 {
			c.Score = loss[i] / weight[i]
		}
		if math.IsNaN(c.Score) {
			continue
		}
		if best < 0 || better(c, &cands[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("auto: no candidate could be scored: %w", errors.Join(candidateErrs(cands)...))
	}
	return &AutoChoice{
		Model: cands[best].Model, Criterion: opt.Scorer.Name(), Candidates: cands,
		Tasks: sub.NumTasks(), Labels: sub.NumLabels(), Subsample: sub != d, Splits: opt.Splits, Runtime: time.Since(start),
	}, nil
}

// Basis returns how the choice was made, to follow the chosen model's
// name in a sentence, such as "the lowest held-out likelihood loss among
// vb-ds, vb-onecoin and vb-glad (3 splits of all 462 tasks, 4620
// labels)".
func (c *AutoChoice) Basis() string {
	names := make([]string, len(c.Candidates))
	for i, k := range c.Candidates {
		names[i] = k.Model
	}
	among := "no candidates"
	if len(names) > 0 {
		among = names[0]
	}
	if n := len(names); n > 1 {
		among = strings.Join(names[:n-1], ", ") + " and " + names[n-1]
	}
	of := "all"
	if c.Subsample {
		of = "a subsample of"
	}
	return fmt.Sprintf("the lowest held-out %s loss among %s (%d splits of %s %d tasks, %d labels)",
		c.Criterion, among, c.Splits, of, c.Tasks, c.Labels)
}

// better reports whether candidate a beats b: converged before not, then
// the lower score.
func better(a, b *AutoCandidate) bool {
	if a.Converged != b.Converged {
		return a.Converged
	}
	return a.Score < b.Score
}

func candidateErrs(cands []AutoCandidate) []error {
	var errs []error
	for _, c := range cands {
		if c.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Model, c.Err))
		}
	}
	if len(errs) == 0 {
		errs = append(errs, errors.New("no held-out labels"))
	}
	return errs
}

// subsampleTasks returns a data set with the labels of a random subset of
// d's objects, about maxLabels labels in all (heldout.Subsample).
func subsampleTasks(d *data.Dataset, maxLabels int, seed uint64) *data.Dataset {
	return heldout.Subsample(d, maxLabels, seed)
}

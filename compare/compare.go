package compare

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/pool"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
	"gonum.org/v1/gonum/stat"
)

// Criterion names what models are ranked by.
type Criterion string

// The criteria. All but Accuracy are lower-is-better.
const (
	LogLoss  Criterion = "logloss"
	Accuracy Criterion = "accuracy"
	Brier    Criterion = "brier"
	ECE      Criterion = "ece"
	HeldOut  Criterion = "heldout"
)

// ParseCriterion returns the criterion named s; "" is the default,
// LogLoss with gold and HeldOut without (resolved by Run).
func ParseCriterion(s string) (Criterion, error) {
	switch c := Criterion(s); c {
	case "", LogLoss, Accuracy, Brier, ECE, HeldOut:
		return c, nil
	}
	return "", fmt.Errorf("unknown criterion %q (valid: logloss, accuracy, brier, ece, heldout)", s)
}

func (c Criterion) higherIsBetter() bool { return c == Accuracy }

// DefaultModels are the models a comparison fits when Settings.Models is
// nil: the baseline, the candidates of the recommendation (AutoModels: the
// default model and the same form with other workers), the other Bayesian
// Dawid-Skene models, the paper's Dawid-Skene and GLAD models,
// hierarchical DA-DS, the one-coin, MACE-style and regularised minimax
// entropy models under LA, and Crowd-Kit's Wawa, ZeroBasedSkill and MMSR:
// the models that fit in a few seconds on data of the size of the shipped
// sets. AllModels lists every model a comparison can fit.
var DefaultModels = uniqueNames(slices.Concat([]string{"rfe"}, AutoModels, []string{
	"vb-la-ds", "vb-hda-ds", "la-ds", "da-ds", "hda-ds", "la-glad", "da-glad",
	"la-onecoin", "la-mace", "la-rmme", "wawa", "zbs", "mmsr",
}))

// uniqueNames returns names without the repetitions of a name, in the
// order of first appearance.
func uniqueNames(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// AllModels returns every registered model except those whose
// capabilities (model.Capabilities) leave them out of a comparison on any
// data: one whose consensus is another's (mv, rfe read through its argmax),
// one that needs training gold (gmv) and one for some numbers of classes
// only (kos: two), in registry order.
func AllModels() []string {
	var names []string
	for _, c := range model.DescribeAll() {
		if c.SameAs == "" && !c.NeedsGold && c.MinClasses <= 2 && c.MaxClasses == data.MaxClasses {
			names = append(names, c.Name)
		}
	}
	return names
}

// Settings controls a comparison. The zero value compares DefaultModels.
type Settings struct {
	// Models are registry names (model.ByName); nil means DefaultModels.
	Models []string
	// Estimators, when not nil, are compared instead of Models, each in
	// a row named by its Name: for example a model with another prior,
	// such as vb.Bayes{Noise: noise.DS{}, Latent: latent.DA{}, Prior: 1}.
	Estimators []model.Estimator
	// Gold, if not nil and not empty, selects the gold criteria.
	Gold *data.Gold
	// Criterion ranks the models; "" means LogLoss with gold, HeldOut
	// without. HeldOut may be chosen with gold as well.
	Criterion Criterion
	// Fit holds the fit settings of every model (its Threads is set to
	// 1 and its Progress is replaced); nil means the defaults.
	Fit *model.Settings
	// Threads is the number of goroutines the fits run on, one fit on
	// each at a time, and so the number of fits run at once; zero means
	// runtime.GOMAXPROCS(0).
	Threads int
	// HeldOutRidge is the Fit.Ridge used by the held-out criterion
	// when Fit sets none; zero means 1. An unpenalised maximum-
	// likelihood fit often puts a parameter at infinity (a confusion
	// probability, a q_j(z) or a GLAD difficulty at its limit), which
	// gives some held-out labels probability 0 and the model an infinite
	// loss; the ridge keeps the predictions positive. Negative means none.
	HeldOutRidge float64
	// HoldOutFraction is the fraction of each object's labels held out in
	// a split; zero means 0.2.
	HoldOutFraction float64
	// Splits is the number of held-out splits R; zero means 3.
	Splits int
	// Bootstrap is the number of bootstrap resamples; zero means 200.
	Bootstrap int
	// Level is the confidence level of the intervals; zero means 0.95.
	Level float64
	// Seed seeds the splits, the bootstrap and tie-breaking.
	Seed uint64
	// MaxMemory, if positive, is the memory in bytes that the fits may
	// take: a fit whose estimate (model.FitMemory) exceeds its share,
	// MaxMemory/Threads since Threads fits run at once, is not made,
	// and its model's row reports why, instead of the comparison being
	// killed for want of memory part way.
	MaxMemory float64
	// Recommend, if not nil, makes Run also recommend a model: it calls
	// Auto on the data with these options first (Report.Recommended), and
	// adds the chosen model to the models compared if it is not among
	// them, so that the ranking shows it. Leave its Models, Estimators
	// (but for priors set on the candidates) and Scorer unset for the
	// module's recommendation (see AutoModels).
	Recommend *AutoSettings
	// Progress, if not nil, is called (from one goroutine at a time)
	// when a fit ends, with Run "compare", Done and Total counting the
	// fits, Item the model's name (followed by " (split k)" for the k-th
	// held-out split), and the fit's Err and Elapsed.
	Progress func(model.Progress)
}

// Interval is an estimate with a confidence interval.
type Interval struct {
	Value, Lo, Hi float64
}

// Row is one model's result.
type Row struct {
	// Model is the registry name.
	Model string
	// Score is the ranking criterion's value with its interval.
	Score Interval
	// Accuracy, LogLoss, Brier and ECE are the gold metrics with their
	// intervals (NaN without gold).
	Accuracy, LogLoss, Brier, ECE Interval
	// HeldOut is the held-out log loss with its interval (NaN unless the
	// criterion is HeldOut).
	HeldOut Interval
	// First is the fraction of bootstrap resamples in which the model
	// ranks first by the criterion.
	First float64
	// Converged is false when some fit of the model stopped at a limit.
	Converged bool
	// Runtime adds up the model's fits.
	Runtime time.Duration
	// Err is the error of a model that could not be fitted; such rows
	// come last.
	Err error
}

// Report is the outcome of a comparison: the rows ranked best first.
type Report struct {
	// Criterion is the criterion used.
	Criterion Criterion
	// Rows are ranked best first by Score.Value.
	Rows []Row
	// N is the number of gold tasks scored, or of held-out labels.
	N int
	// Splits is the number of held-out splits (0 with gold criteria).
	Splits int
	// Bootstrap is the number of resamples; Level the confidence level.
	Bootstrap int
	Level     float64
	// Recommended is the recommendation (Auto's choice among AutoModels,
	// whatever the criterion of the ranking), when Settings.Recommend asked
	// for it; nil otherwise.
	Recommended *AutoChoice
}

// Top returns the model ranked first by the criterion, the first row (""
// if it failed), and the fraction of bootstrap resamples in which it ranks
// first. It is not the recommendation, which Auto makes among AutoModels
// by one criterion with or without gold.
func (r *Report) Top() (string, float64) {
	if len(r.Rows) == 0 || r.Rows[0].Err != nil {
		return "", 0
	}
	return r.Rows[0].Model, r.Rows[0].First
}

// NoneFitted returns an error if no model of r could be fitted (or r
// compares none), naming the first model's failure, so that a comparison
// of nothing is not a success; nil if some model was fitted.
func (r *Report) NoneFitted() error {
	for _, row := range r.Rows {
		if row.Err == nil {
			return nil
		}
	}
	if len(r.Rows) == 0 {
		return errors.New("no model was compared")
	}
	return fmt.Errorf("none of the %d models could be fitted (%s: %v)", len(r.Rows), r.Rows[0].Model, oneLine(r.Rows[0].Err))
}

func (o Settings) withDefaults() Settings {
	if o.Models == nil {
		o.Models = DefaultModels
	}
	if o.Threads <= 0 {
		o.Threads = runtime.GOMAXPROCS(0)
	}
	if o.HeldOutRidge == 0 {
		o.HeldOutRidge = 1
	}
	if o.HoldOutFraction == 0 {
		o.HoldOutFraction = 0.2
	}
	if o.Splits == 0 {
		o.Splits = 3
	}
	if o.Bootstrap == 0 {
		o.Bootstrap = 200
	}
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Criterion == "" {
		o.Criterion = HeldOut
		if o.Gold != nil && o.Gold.Len() > 0 {
			o.Criterion = LogLoss
		}
	}
	return o
}

// Run fits the models to d as opt describes and ranks them. It returns an
// error for bad options or when ctx is done; a model that fails to fit is
// reported in its row.
func Run(ctx context.Context, d *data.Dataset, opt Settings) (*Report, error) {
	if d == nil {
		return nil, errors.New("compare: no data set")
	}
	opt = opt.withDefaults()
	ests, err := estimators(opt.Estimators, opt.Models)
	if err != nil {
		return nil, err
	}
	if len(ests) == 0 {
		return nil, errors.New("compare: no models")
	}
	if opt.Criterion != HeldOut && (opt.Gold == nil || opt.Gold.Len() == 0) {
		return nil, fmt.Errorf("compare: criterion %s needs gold labels", opt.Criterion)
	}
	if !(opt.HoldOutFraction > 0 && opt.HoldOutFraction < 1) {
		return nil, fmt.Errorf("compare: hold-out fraction %g not in (0, 1)", opt.HoldOutFraction)
	}
	if !(opt.Level > 0 && opt.Level < 1) || opt.Splits < 0 || opt.Bootstrap < 0 {
		return nil, errors.New("compare: bad splits, bootstrap or level")
	}
	var choice *AutoChoice
	if opt.Recommend != nil {
		if choice, ests, err = recommend(ctx, d, *opt.Recommend, ests); err != nil {
			return nil, err
		}
	}
	var rep *Report
	if opt.Criterion == HeldOut {
		rep, err = runHeldOut(ctx, d, ests, opt)
	} else {
		rep, err = runGold(ctx, d, ests, opt)
	}
	if err != nil {
		return nil, err
	}
	rep.Recommended = choice
	return rep, nil
}

// recommend returns Auto's choice on d with the options opt, and ests with
// the chosen estimator appended if no estimator of ests has its name.
func recommend(ctx context.Context, d *data.Dataset, opt AutoSettings, ests []model.Estimator) (*AutoChoice, []model.Estimator, error) {
	choice, err := Auto(ctx, d, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("recommendation: %w", err)
	}
	for _, e := range ests {
		if e.Name() == choice.Model {
			return choice, ests, nil
		}
	}
	opt = opt.withDefaults()
	cands, err := estimators(opt.Estimators, opt.Models)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range cands {
		if e.Name() == choice.Model {
			return choice, append(slices.Clip(ests), e), nil
		}
	}
	return nil, nil, fmt.Errorf("recommendation: chose %s, not a candidate", choice.Model) // cannot happen
}

// estimators returns ests if it is not nil, else the registry's
// estimators of names.
func estimators(ests []model.Estimator, names []string) ([]model.Estimator, error) {
	if ests != nil {
		for i, e := range ests {
			if e == nil {
				return nil, fmt.Errorf("compare: estimator %d is nil", i)
			}
		}
		return ests, nil
	}
	ests = make([]model.Estimator, len(names))
	for i, n := range names {
		e, err := model.ByName(n)
		if err != nil {
			return nil, err
		}
		ests[i] = e
	}
	return ests, nil
}

// job is one fit.
type job struct {
	model int
	split int // -1: all labels
	d     *data.Dataset
}

type fitOut struct {
	res *model.Result
	err error
	dur time.Duration
}

// fitAll runs the jobs on opt.Threads goroutines, at most one a job, and
// returns their results in job order. The memory share of a fit is the
// limit over the fits that really run at once: --parallel beyond the
// number of jobs does not shrink it.
func fitAll(ctx context.Context, ests []model.Estimator, jobs []job, opt Settings) ([]fitOut, error) {
	opt.Threads = min(opt.Threads, max(len(jobs), 1))
	out := make([]fitOut, len(jobs))
	po := pool.Settings{Threads: opt.Threads}
	if opt.Progress != nil {
		po.Ended = func(e pool.Ended) {
			jb := jobs[e.Index]
			item := ests[jb.model].Name()
			if jb.split >= 0 {
				item = fmt.Sprintf("%s (split %d)", item, jb.split+1)
			}
			opt.Progress(model.Progress{Run: "compare", Done: e.Ended, Total: len(jobs), Item: item, Err: e.Err, Elapsed: out[e.Index].dur})
		}
	}
	err := pool.Run(ctx, len(jobs), po, func(i int) error {
		jb := jobs[i]
		var set model.Settings
		if opt.Fit != nil {
			set = *opt.Fit
		}
		set.Threads, set.Progress = 1, nil
		set.Start, set.Fixed = nil, nil
		if err := memoryShare(ests[jb.model], jb.d, &set, opt); err != nil {
			out[i] = fitOut{err: err}
			return err
		}
		start := time.Now()
		res, err := safeFit(ctx, ests[jb.model], jb.d, &set)
		out[i] = fitOut{res: res, err: err, dur: time.Since(start)}
		return err
	})
	if ctx.Err() != nil {
		return nil, err
	}
	return out, nil
}

// memoryShare returns an error if opt.MaxMemory is set and fitting e to d
// is estimated to need more than its share of it (see Settings.MaxMemory).
func memoryShare(e model.Estimator, d *data.Dataset, s *model.Settings, opt Settings) error {
	if opt.MaxMemory <= 0 {
		return nil
	}
	need, share := model.FitMemory(e, d, s), opt.MaxMemory/float64(opt.Threads)
	if need <= share {
		return nil
	}
	return fmt.Errorf("needs about %.3g GB of memory, more than its share of %.3g GB (the memory limit over %d fits at once); not fitted",
		need/1e9, share/1e9, opt.Threads)
}

// safeFit fits e, turning a panic into an error so that one broken model
// does not end the comparison.
func safeFit(ctx context.Context, e model.Estimator, d *data.Dataset, s *model.Settings) (r *model.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return e.Fit(ctx, d, s)
}

// metricOf returns the metric of criterion c for consensus con: its
// accuracy rule for Accuracy (the mean over tie-breaking draws for a
// frequency baseline), the metric of the scored probabilities otherwise.
func metricOf(c Criterion, con metrics.Consensus, seed uint64) metrics.Metric {
	switch c {
	case Accuracy:
		return con.AccuracyMetric(seed)
	case Brier:
		return metrics.Brier
	case ECE:
		return func(p []float64, k int, g *data.Gold) (float64, error) {
			return metrics.ECE(p, k, g, metrics.DefaultBins)
		}
	}
	return metrics.LogLoss
}

func runGold(ctx context.Context, d *data.Dataset, ests []model.Estimator, opt Settings) (*Report, error) {
	jobs := make([]job, len(ests))
	for i := range ests {
		jobs[i] = job{model: i, split: -1, d: d}
	}
	fits, err := fitAll(ctx, ests, jobs, opt)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ests))
	for i, e := range ests {
		names[i] = e.Name()
	}
	return rankGold(d, names, fits, opt)
}

// rankGold ranks the fits of the models names on opt.Gold. It returns the
// first error of a metric, which a gold set checked against d does not
// give.
func rankGold(d *data.Dataset, names []string, fits []fitOut, opt Settings) (*Report, error) {
	k := d.NumClasses()
	g := opt.Gold
	rows := make([]Row, len(names))
	preds := make([][]float64, len(names))
	cons := make([]metrics.Consensus, len(names))
	for i, f := range fits {
		rows[i] = Row{Model: names[i], Err: f.err, Runtime: f.dur}
		if f.err != nil {
			continue
		}
		rows[i].Converged = f.res.Converged
		cons[i] = f.res.Consensus()
		p := cons[i].Scored()
		preds[i] = p
		for _, c := range []struct {
			crit Criterion
			dst  *Interval
		}{{Accuracy, &rows[i].Accuracy}, {LogLoss, &rows[i].LogLoss}, {Brier, &rows[i].Brier}, {ECE, &rows[i].ECE}} {
			m := metricOf(c.crit, cons[i], opt.Seed)
			v, err := m(p, k, g)
			if err != nil {
				return nil, err
			}
			lo, hi, err := metrics.Bootstrap(p, k, g, m, opt.Bootstrap, opt.Seed, opt.Level)
			if err != nil {
				return nil, err
			}
			*c.dst = Interval{v, lo, hi}
		}
		rows[i].HeldOut = Interval{math.NaN(), math.NaN(), math.NaN()}
		switch opt.Criterion {
		case Accuracy:
			rows[i].Score = rows[i].Accuracy
		case Brier:
			rows[i].Score = rows[i].Brier
		case ECE:
			rows[i].Score = rows[i].ECE
		default:
			rows[i].Score = rows[i].LogLoss
		}
	}
	// Wins on shared resamples of the gold tasks.
	n := g.Len()
	ms := make([]metrics.Metric, len(names))
	for i := range ms {
		ms[i] = metricOf(opt.Criterion, cons[i], opt.Seed)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0xc0de))
	rep := &data.Gold{Task: make([]int32, n), Label: make([]uint16, n)}
	vals := make([]float64, len(names))
	wins := make([]float64, len(names))
	for range opt.Bootstrap {
		for i := range n {
			s := rng.IntN(n)
			rep.Task[i], rep.Label[i] = g.Task[s], g.Label[s]
		}
		for i, p := range preds {
			if p == nil {
				vals[i] = math.NaN()
				continue
			}
			v, err := ms[i](p, k, rep)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		credit(wins, vals, opt.Criterion.higherIsBetter())
	}
	for i := range rows {
		rows[i].First = wins[i] / float64(max(opt.Bootstrap, 1))
	}
	return finish(rows, opt, n, 0), nil
}

// credit adds one win, shared among exact ties, to the best of vals (NaN
// values never win).
func credit(wins, vals []float64, higher bool) {
	best := math.NaN()
	for _, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		if math.IsNaN(best) || (higher && v > best) || (!higher && v < best) {
			best = v
		}
	}
	if math.IsNaN(best) {
		return
	}
	var tied []int
	for i, v := range vals {
		if v == best {
			tied = append(tied, i)
		}
	}
	for _, i := range tied {
		wins[i] += 1 / float64(len(tied))
	}
}

// finish ranks the rows: fitted models by score (ties by name), then the
// failures.
func finish(rows []Row, opt Settings, n, splits int) *Report {
	higher := opt.Criterion.higherIsBetter()
	sort.SliceStable(rows, func(a, b int) bool {
		ra, rb := rows[a], rows[b]
		if (ra.Err == nil) != (rb.Err == nil) {
			return ra.Err == nil
		}
		va, vb := ra.Score.Value, rb.Score.Value
		if math.IsNaN(va) != math.IsNaN(vb) {
			return !math.IsNaN(va)
		}
		if va != vb {
			if higher {
				return va > vb
			}
			return va < vb
		}
		return ra.Model < rb.Model
	})
	return &Report{Criterion: opt.Criterion, Rows: rows, N: n, Splits: splits, Bootstrap: opt.Bootstrap, Level: opt.Level}
}

// quantiles returns the (1-level)/2 and (1+level)/2 empirical quantiles of
// vals (sorted in place).
func quantiles(vals []float64, level float64) (float64, float64) {
	for _, v := range vals {
		if math.IsNaN(v) {
			return math.NaN(), math.NaN()
		}
	}
	slices.Sort(vals)
	return stat.Quantile((1-level)/2, stat.Empirical, vals, nil), stat.Quantile((1+level)/2, stat.Empirical, vals, nil)
}

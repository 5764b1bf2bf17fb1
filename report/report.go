package report

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/consensuslab/consensus/compare"
	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/internal/unvoted"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
)

// DefaultModels are the estimators a report compares when Settings.Models
// is empty: those of compare.DefaultModels, so that the report shows every
// model "consensus compare" ranks: the baseline, the candidates of the
// recommendation (compare.AutoModels, the default model among them), the
// other Bayesian Dawid-Skene models, the paper's LA and DA forms of Dawid-Skene and GLAD, the hierarchical ones,
// the one-coin, MACE-style and regularised minimax entropy models and
// Crowd-Kit's Wawa, ZeroBasedSkill and MMSR.
var DefaultModels = slices.Clone(compare.DefaultModels)

// Settings controls a report. The zero value selects every default.
type Settings struct {
	// Title is the report's heading; empty means "Consensus report" and
	// the data set's name.
	Title string

	// Models names the estimators to fit and compare (see model.ByName);
	// empty means DefaultModels. It is ignored when Scores is given.
	Models []string

	// Noise names the noise model (any of model.NoiseModels, such as "ds"
	// or "glad") whose LA and DA forms are contrasted in the sections on
	// worker quality, ambiguous objects and disagreement; empty means
	// "ds". Both forms are fitted if Models does not include them.
	Noise string

	// Scores, if not nil, is the model comparison to show (for example
	// computed by package compare), instead of the one New computes from
	// the models it fits.
	Scores []Score

	// Fit holds the fit settings; nil means the defaults. Its Progress
	// field is replaced by that of Settings.
	Fit *model.Settings

	// Seed breaks ties in consensus labels and seeds the bootstrap.
	Seed uint64

	// Top is the number of rows of the tables of ambiguous objects and of
	// disagreements; zero means 15.
	Top int

	// BootstrapReps is the number of bootstrap replicates of the 95%
	// intervals of accuracy and log loss; zero means 200, a negative
	// value turns the intervals off.
	BootstrapReps int

	// MaxMemory, if positive, is the memory in bytes that a fit may
	// take: New fails before a fit estimated to need more
	// (model.FitMemory), and the ranking on held-out labels leaves out
	// such a model (compare.Settings.MaxMemory).
	MaxMemory float64

	// Step, if not nil, is called before each fit with the number of fits
	// done, their total and a description such as "fitting la-ds".
	Step func(done, total int, what string)

	// Progress, if not nil, is called after every iteration of a fit.
	Progress func(model.Progress)

	// NoRecommendation leaves out the recommendation and the ranking of
	// the models. The recommendation is compare.Auto's choice, the model
	// "consensus fit --model auto" fits and "consensus compare"
	// recommends, with or without gold; it is added to the models if they
	// do not include it. The ranking is package compare's (as "consensus
	// compare" ranks them): with gold labels it uses the report's fits;
	// without, it fits every model on held-out splits, which takes a few
	// times as long as the report's own fits. Both are left out when
	// Scores is given.
	NoRecommendation bool
}

// Score is one row of the model comparison table.
type Score struct {
	// Model is the estimator's name, such as "da-glad", and Summary its
	// one-line description.
	Model, Summary string
	// Gold holds the scores on the gold tasks; Gold.N is 0 without gold.
	Gold metrics.Summary
	// AccuracyCI and LogLossCI are 95% bootstrap intervals over the gold
	// tasks; NaN when not computed.
	AccuracyCI, LogLossCI [2]float64
	// LogLikelihood, Iterations, Converged and Runtime describe the fit;
	// Iterations is 0 for estimators without parameters (rfe, mv).
	LogLikelihood float64
	Iterations    int
	Converged     bool
	Runtime       time.Duration
	// Note is a remark shown under the table, such as how a baseline was
	// scored, or a class the model makes the label of many tasks that no
	// worker labelled so (compare.UnvotedClasses), or a class its labels
	// give and agree on that the model all but drops
	// (compare.AbsentClasses); it may be empty.
	Note string
}

// Report is the content of a report, computed by New and written by
// WriteHTML.
type Report struct {
	title  string
	d      *data.Dataset
	gold   *data.Gold
	stats  data.Stats
	scores []Score
	res    map[string]*model.Result
	la, da string // the contrasted pair, such as "la-ds" and "da-ds"
	top    int
	seed   uint64
	rec    *compare.Report     // the ranking; nil without a recommendation
	choice *compare.AutoChoice // the recommendation; nil without one
	next   *nextView           // the section "What to label next"
}

// New fits the models of opt on d and computes the content of a report.
// gold may be nil. The fits stop, and New returns ctx's error, when ctx is
// done.
func New(ctx context.Context, d *data.Dataset, gold *data.Gold, opt *Settings) (*Report, error) {
	var o Settings
	if opt != nil {
		o = *opt
	}
	if d == nil || d.NumTasks() == 0 {
		return nil, errors.New("report: no data")
	}
	if gold != nil && gold.Len() == 0 {
		gold = nil
	}
	if o.Top <= 0 {
		o.Top = 15
	}
	if o.BootstrapReps == 0 {
		o.BootstrapReps = 200
	}
	if o.Noise == "" {
		o.Noise = "ds"
	}
	names := o.Models
	if len(names) == 0 {
		names = DefaultModels
	}
	if o.Scores != nil {
		names = nil
	}
	r := &Report{
		title: o.Title, d: d, gold: gold, stats: d.Stats(), res: make(map[string]*model.Result),
		top: o.Top, seed: o.Seed,
	}
	r.la, r.da = contrasted(o.Noise)
	if r.la == "" || r.da == "" {
		if _, err := model.NoiseByName(o.Noise); err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		return nil, fmt.Errorf("report: noise model %s has no LA and DA forms to contrast", o.Noise)
	}
	if r.title == "" {
		r.title = "Consensus report"
		if d.Name != "" {
			r.title += ": " + d.Name
		}
	}
	if o.Scores == nil && !o.NoRecommendation {
		choice, err := r.choose(ctx, &o)
		if err != nil {
			return nil, err
		}
		r.choice = choice
		if !slices.Contains(names, choice.Model) {
			names = append(slices.Clip(names), choice.Model)
		}
	}
	fits := slices.Clone(names)
	for _, n := range []string{r.la, r.da} {
		if !slices.Contains(fits, n) {
			fits = append(fits, n)
		}
	}
	summaries := make(map[string]string)
	for _, e := range model.Registry() {
		summaries[e.Name] = e.Summary
	}
	ests := make([]model.Estimator, len(fits))
	for i, n := range fits {
		est, err := model.ByName(n)
		if err != nil {
			return nil, err
		}
		ests[i] = est
	}
	if err := checkMemory(d, ests, o); err != nil {
		return nil, err
	}
	for i, est := range ests {
		n := fits[i]
		if o.Step != nil {
			o.Step(i, len(fits), "fitting "+n)
		}
		var s model.Settings
		if o.Fit != nil {
			s = *o.Fit
		}
		s.Progress = o.Progress
		res, err := est.Fit(ctx, d, &s)
		if err != nil {
			return nil, fmt.Errorf("fitting %s: %w", n, err)
		}
		r.res[n] = res
	}
	if o.Scores == nil && !o.NoRecommendation {
		rec, err := r.recommend(ctx, names, &o)
		if err != nil {
			return nil, err
		}
		r.rec = rec
	}
	next, err := r.planNext(ctx)
	if err != nil {
		return nil, err
	}
	r.next = next
	if o.Step != nil {
		o.Step(len(fits), len(fits), "writing the report")
	}
	if o.Scores != nil {
		r.scores = o.Scores
		return r, nil
	}
	for _, n := range names {
		s, err := r.score(r.res[n], summaries[n], o.BootstrapReps)
		if err != nil {
			return nil, err
		}
		r.scores = append(r.scores, s)
	}
	return r, nil
}

// score evaluates one fitted estimator by the scoring rule of
// model.Result.Consensus, as the command line scores it.
func (r *Report) score(res *model.Result, summary string, reps int) (Score, error) {
	s := Score{
		Model: res.Model, Summary: summary, LogLikelihood: res.LogLikelihood,
		Iterations: res.Iterations, Converged: res.Converged, Runtime: res.Runtime,
		AccuracyCI: [2]float64{math.NaN(), math.NaN()}, LogLossCI: [2]float64{math.NaN(), math.NaN()},
	}
	var notes []string
	for _, u := range unvoted.Classes(res.Data, res.Probs) {
		c := res.Data.Classes[u.Class]
		notes = append(notes, fmt.Sprintf("class %s is this model's label of %.1f%% of the tasks, %.0f%% of them without a label %s, where %.2f%% of the labels are %s: it may stand for tasks the workers label otherwise (compare.UnvotedClasses)",
			c, 100*u.Share, 100*u.Unvoted, c, 100*u.Labels, c))
	}
	for _, a := range compare.AbsentClasses(res) {
		notes = append(notes, fmt.Sprintf("class %s is the most frequent label of %.1f%% of the tasks, and its labels agree within tasks (z = %.1f), but it is %.2f%% of this model's consensus (compare.AbsentClasses)",
			res.Data.Classes[a.Class], 100*a.Votes, a.Agreement, 100*a.Share))
	}
	s.Note = strings.Join(notes, "; ")
	if r.gold == nil {
		return s, nil
	}
	k := res.K()
	c := res.Consensus()
	pred := c.Scored()
	if c.Baseline() {
		s.Note = fmt.Sprintf("scores of add-one smoothed frequencies; accuracy averaged over %d tie-breaking draws", metrics.TieDraws)
	}
	var err error
	if s.Gold, err = c.Evaluate(r.gold, r.seed); err != nil {
		return Score{}, err
	}
	acc := c.AccuracyMetric(r.seed)
	if reps > 0 {
		lo, hi, err := metrics.Bootstrap(pred, k, r.gold, acc, reps, r.seed, 0.95)
		if err != nil {
			return Score{}, err
		}
		s.AccuracyCI = [2]float64{lo, hi}
		if lo, hi, err = metrics.Bootstrap(pred, k, r.gold, metrics.LogLoss, reps, r.seed, 0.95); err != nil {
			return Score{}, err
		}
		s.LogLossCI = [2]float64{lo, hi}
	}
	return s, nil
}

// entropy returns the entropy of p in base len(p), in [0, 1].
func entropy(p []float64) float64 {
	h := 0.0
	for _, v := range p {
		if v > 0 {
			h -= v * math.Log(v)
		}
	}
	return h / math.Log(float64(len(p)))
}

// tv returns the total variation distance between p and q.
func tv(p, q []float64) float64 {
	s := 0.0
	for i := range p {
		s += math.Abs(p[i] - q[i])
	}
	return s / 2
}

// topBy returns the indices of the n objects with the largest key, largest
// first, ties in object order.
func topBy(numTasks, n int, key func(j int) float64) []int {
	idx := make([]int, numTasks)
	keys := make([]float64, numTasks)
	for j := range idx {
		idx[j] = j
		keys[j] = key(j)
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] > keys[idx[b]] })
	return idx[:min(n, len(idx))]
}

// labelCounts describes the labels of object j, such as "cat ×3, dog ×1",
// most frequent first.
func (r *Report) labelCounts(j int) string {
	k := r.d.NumClasses()
	c := make([]int, k)
	_, labels := r.d.TaskLabels(j)
	for _, y := range labels {
		c[y]++
	}
	order := make([]int, k)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return c[order[a]] > c[order[b]] })
	var parts []string
	for _, z := range order {
		if c[z] > 0 {
			parts = append(parts, fmt.Sprintf("%s ×%d", r.d.Classes[z], c[z]))
		}
	}
	return strings.Join(parts, ", ")
}

// workerQuality returns the skill of every worker with labels
// (model.Result.WorkerSkills: the fitted probability of reporting the
// consensus class) and a description, for a fitted model with worker
// parameters. ok is false for a model without them (RFE and the
// Crowd-Kit methods).
func workerQuality(name string, res *model.Result) (q []float64, what string, ok bool) {
	if res == nil || len(res.WorkerColumns()) == 0 {
		return nil, "", false
	}
	for _, s := range res.WorkerSkills() {
		if !math.IsNaN(s) { // a worker without labels
			q = append(q, s)
		}
	}
	if len(q) == 0 {
		return nil, "", false
	}
	return q, "worker skill under " + name, true
}

// checkMemory returns an error naming the first of the estimators whose
// fit of d is estimated to need more than o.MaxMemory, if it is set.
func checkMemory(d *data.Dataset, ests []model.Estimator, o Settings) error {
	if o.MaxMemory <= 0 {
		return nil
	}
	for _, est := range ests {
		if need := model.FitMemory(est, d, o.Fit); need > o.MaxMemory {
			return fmt.Errorf("fitting %s needs about %.3g GB of memory, more than the limit of %.3g GB; leave it out of the models", est.Name(), need/1e9, o.MaxMemory/1e9)
		}
	}
	return nil
}

// contrasted returns the names of the registered maximum-likelihood models
// of the noise model named noise under LA and under DA (such as la-ds and
// da-ds), as the registry describes them (model.Capabilities), or empty
// names when it has none.
func contrasted(noise string) (la, da string) {
	for _, c := range model.DescribeAll() {
		if c.Noise != noise || c.Variational {
			continue
		}
		switch {
		case c.Assumption == "la" && la == "":
			la = c.Name
		case c.Assumption == "da" && da == "":
			da = c.Name
		}
	}
	return la, da
}

package experiments

import (
	"context"
	"math"
	"slices"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
	_ "github.com/consensuslab/consensus/model/all" // every family of estimators, for ByName
)

// RealSettings describes the real-data experiment of the paper's tables 2
// and 3: every model fitted on every data set and scored on its gold
// labels.
type RealSettings struct {
	// Datasets names the shipped data sets to use (datasets.Load), in the
	// order of the tables; nil means the six shipped data sets in the
	// paper's order.
	Datasets []string
	// Models names the estimators (model.ByName); nil means the paper's
	// seven: rfe, la-ds, da-ds, la-glad, da-glad, la-mme, da-mme.
	Models []string
	// Protocols are the ways the models are fitted; each gives its own
	// tables. Nil means DefaultRealProtocols(false).
	Protocols []RealProtocol
	// Method is the optimiser of every fit; the zero value, model.Auto,
	// picks per model (EM for Dawid-Skene). Run uses model.LBFGS for all.
	Method model.Method
	// TieDraws is the number of tie-breaking draws the RFE accuracy is
	// averaged over (the paper's footnote: 10); zero means 10.
	TieDraws int
	// Seed seeds the tie-breaking: the RFE accuracy averages the draws
	// with seeds Seed, Seed+1, ..., and the other models use Seed.
	Seed uint64
	// Threads is the number of fits run at the same time, each with one
	// thread; zero means runtime.GOMAXPROCS(0).
	Threads int
}

// RealProtocol is one way of fitting the models of the real-data
// experiment.
type RealProtocol struct {
	// Name describes the protocol in headings.
	Name string
	// Key names the protocol in real.csv, such as "default".
	Key string
	// Ridge is Settings.Ridge.
	Ridge float64
	// MaxIterations bounds the iterations of the fits of each noise
	// model, by its name ("ds", "glad", "mme"); a missing or zero entry
	// means the model's default (1000).
	MaxIterations map[string]int
}

// DefaultRealProtocols returns the protocols Run uses. The first is the
// paper's: maximum likelihood (no penalty), L-BFGS limited to 1000
// iterations for Dawid-Skene and GLAD and 300 for minimax entropy (whose
// iterations cost about K² times more per label). The second is our
// ridge protocol: penalty λ = 1, fitted to convergence (at most 5000
// iterations; 500 for minimax entropy, which takes up to about 1100 on
// Adult and would dominate the run time). With quick the limits are 100,
// 100 and 30, and 300.
func DefaultRealProtocols(quick bool) []RealProtocol {
	p := []RealProtocol{
		{Name: "maximum likelihood (default settings, no penalty)", Key: "default",
			MaxIterations: map[string]int{"ds": 1000, "glad": 1000, "mme": 300}},
		{Name: "ridge λ = 1, to convergence (MME at most 500 iterations)", Key: "ridge", Ridge: 1,
			MaxIterations: map[string]int{"ds": 5000, "glad": 5000, "mme": 500}},
	}
	if quick {
		p[0].MaxIterations = map[string]int{"ds": 100, "glad": 100, "mme": 30}
		p[1].MaxIterations = map[string]int{"ds": 300, "glad": 300, "mme": 300}
	}
	return p
}

// RealSettingsFor returns the settings Run uses: all six shipped data
// sets, the seven models, L-BFGS and DefaultRealProtocols. With Quick it uses temp
// only, with lower iteration limits.
func RealSettingsFor(o SharedSettings) RealSettings {
	c := RealSettings{
		Method:    model.LBFGS,
		Protocols: DefaultRealProtocols(o.Quick),
		Seed:      o.Seed,
		Threads:   o.Threads,
	}
	if o.Quick {
		c.Datasets = []string{"temp"}
	}
	return c
}

func (c RealSettings) withDefaults() RealSettings {
	if c.Datasets == nil {
		for _, p := range paperData {
			if p.Name != "price" {
				c.Datasets = append(c.Datasets, p.Name)
			}
		}
	}
	if c.Models == nil {
		c.Models = paperModels
	}
	if c.TieDraws == 0 {
		c.TieDraws = metrics.TieDraws
	}
	if c.Protocols == nil {
		c.Protocols = DefaultRealProtocols(false)
	}
	return c
}

// RealCell is the result of one model on one data set.
type RealCell struct {
	// Accuracy is the fraction of gold objects whose consensus label is
	// right (for RFE the mean over the tie-breaking draws).
	Accuracy float64
	// LogLoss is the base-K log loss of the consensus distributions on
	// the gold objects; +Inf when some gold class has probability 0.
	LogLoss float64
	// LogLossAddOne is the log loss of the add-one smoothed label
	// frequencies, for RFE only (NaN for the other models).
	LogLossAddOne float64
	// Ties is the number of gold objects whose consensus distribution has
	// several classes at its maximum.
	Ties int
	// Iterations, Status and Converged describe the fit (see
	// model.Result); zero values for RFE.
	Iterations int
	Status     string
	Converged  bool
	// MaxIterations is the iteration limit the fit ran with.
	MaxIterations int
	// Elapsed is the wall time of the fit. It is not written to any file.
	Elapsed time.Duration
}

// RealResult holds the real-data experiment.
type RealResult struct {
	// Settings are the experiment's settings, with defaults filled in.
	Settings RealSettings
	// Stats holds the statistics of each data set and Gold its number of
	// gold objects, in the order of Settings.Datasets.
	Stats []data.Stats
	Gold  []int
	// Cells holds the results, Cells[p][i][m] for protocol p, data set i
	// and model m of Settings.Models.
	Cells [][][]RealCell
}

// Real runs the real-data experiment: it fits every model of cfg on every
// data set under every protocol, at most cfg.Threads at a time, and scores
// them on the gold labels.
func Real(ctx context.Context, cfg RealSettings, progress func(model.Progress)) (*RealResult, error) {
	cfg = cfg.withDefaults()
	res := &RealResult{Settings: cfg, Cells: make([][][]RealCell, len(cfg.Protocols))}
	var jobs []job
	for i, name := range cfg.Datasets {
		d, gold, err := datasets.Load(name)
		if err != nil {
			return nil, err
		}
		res.Stats = append(res.Stats, d.Stats())
		res.Gold = append(res.Gold, gold.Len())
		for p, proto := range cfg.Protocols {
			res.Cells[p] = append(res.Cells[p], make([]RealCell, len(cfg.Models)))
			for m, mname := range cfg.Models {
				est, err := model.ByName(mname)
				if err != nil {
					return nil, err
				}
				cell := &res.Cells[p][i][m]
				set := &model.Settings{Method: cfg.Method, Ridge: proto.Ridge, Threads: threadsPerFit(cfg.Threads)}
				cost := float64(d.NumLabels()) * 1e-3
				if mm, ok := est.(model.Composite); ok {
					n, _ := mm.Parts()
					set.MaxIterations = proto.MaxIterations[n.Name()]
					k := float64(d.NumClasses())
					cost *= float64(max(set.MaxIterations, 1)) * k
					if proto.Ridge > 0 {
						cost *= 0.05 // converges in a few hundred iterations
					}
					if n.TaskDim(d.NumClasses()) > 1 {
						cost *= 4 * k // a matrix per object (minimax entropy)
					}
				}
				jobs = append(jobs, job{
					name: name + " " + mname + " (" + proto.Key + ")",
					cost: cost,
					run: func() error {
						start := time.Now()
						r, err := est.Fit(ctx, d, set)
						if err != nil {
							return err
						}
						if *cell, err = scoreReal(r, gold, cfg); err != nil {
							return err
						}
						cell.MaxIterations = set.MaxIterations
						if r.Consensus().Baseline() { // no iterations
							cell.MaxIterations = 0
						} else if cell.MaxIterations == 0 {
							cell.MaxIterations = 1000
						}
						cell.Elapsed = time.Since(start)
						return nil
					},
				})
			}
		}
	}
	if err := runJobs(ctx, cfg.Threads, jobs, progress); err != nil {
		return nil, err
	}
	return res, nil
}

// scoreReal scores one fit on the gold labels.
func scoreReal(r *model.Result, gold *data.Gold, cfg RealSettings) (RealCell, error) {
	k := r.K()
	ll, err := metrics.LogLoss(r.Probs, k, gold)
	if err != nil {
		return RealCell{}, err
	}
	c := RealCell{
		LogLoss:       ll,
		LogLossAddOne: math.NaN(),
		Ties:          goldTies(r.Probs, k, gold),
		Iterations:    r.Iterations,
		Status:        r.Status,
		Converged:     r.Converged,
	}
	if con := r.Consensus(); con.Baseline() {
		if c.Accuracy, err = metrics.MeanAccuracy(r.Probs, k, gold, cfg.Seed, cfg.TieDraws); err != nil {
			return RealCell{}, err
		}
		if c.LogLossAddOne, err = metrics.LogLoss(con.Scored(), k, gold); err != nil {
			return RealCell{}, err
		}
		c.Status = ""
	} else if c.Accuracy, err = metrics.Accuracy(r.Probs, k, gold, cfg.Seed); err != nil {
		return RealCell{}, err
	}
	return c, nil
}

// goldTies counts the gold objects whose distribution has a tied maximum.
func goldTies(p []float64, k int, gold *data.Gold) int {
	n := 0
	for _, j := range gold.Task {
		row := p[int(j)*k : (int(j)+1)*k]
		best, cnt := math.Inf(-1), 0
		for _, v := range row {
			switch {
			case v > best:
				best, cnt = v, 1
			case v == best:
				cnt++
			}
		}
		if cnt > 1 {
			n++
		}
	}
	return n
}

// formIndex returns the index in models of the maximum-likelihood form of
// the noise model named noise under the latent assumption named latent
// ("la" or "da"), as the registry describes each model (model.Describe),
// or -1 if models has none.
func formIndex(models []string, noise, latent string) int {
	return slices.IndexFunc(models, func(m string) bool {
		c, ok := model.DescribeName(m)
		return ok && c.Noise == noise && c.Assumption == latent && !c.Variational
	})
}

// baselineIndex returns the index in models of the relative frequency
// estimator (model.RFE under its own name, not an alias such as mv), or
// -1 if models has none.
func baselineIndex(models []string) int {
	return slices.IndexFunc(models, func(m string) bool {
		e, err := model.ByName(m)
		_, rfe := e.(model.RFE)
		c, _ := model.DescribeName(m)
		return err == nil && rfe && c.SameAs == ""
	})
}

// families are the three noise models, each with an LA and a DA form.
var families = []struct{ name, title string }{{"ds", "DS"}, {"glad", "GLAD"}, {"mme", "MME"}}

// outcome of one LA/DA comparison.
type outcome int

const (
	tie outcome = iota
	laWins
	daWins
)

// compare returns which of la and da is better; higher is better unless
// lower is set. Equal values (including two infinities) are a tie.
func compare(la, da float64, lower bool) outcome {
	if lower {
		la, da = -la, -da
	}
	switch {
	case math.IsNaN(la) || math.IsNaN(da) || la == da:
		return tie
	case da > la:
		return daWins
	}
	return laWins
}

// paperRow returns the paper's row for data set name, or nil.
func paperRow(name string) *paperDataset {
	for i := range paperData {
		if paperData[i].Name == name {
			return &paperData[i]
		}
	}
	return nil
}

// paperAbsAcc returns the paper's absolute accuracy (in %) of model m
// (index in paperModels) on row p.
func paperAbsAcc(p *paperDataset, m int) float64 {
	v := parsePaper(p.Acc[m])
	if m > 0 {
		v += parsePaper(p.Acc[0])
	}
	return math.Round(v*100) / 100 // the paper's numbers have two decimals
}

// Wins counts the LA/DA comparisons of accuracy and log loss.
type Wins struct {
	// DA, LA and Ties count the comparisons won by the DA model, won by the
	// LA model and tied.
	DA, LA, Ties int
}

func (w *Wins) add(o outcome) {
	switch o {
	case daWins:
		w.DA++
	case laWins:
		w.LA++
	default:
		w.Ties++
	}
}

// Total returns the number of comparisons.
func (w Wins) Total() int { return w.DA + w.LA + w.Ties }

// WinCounts returns the LA/DA comparisons of protocol p over the data sets
// and noise models of r for which both forms were run: ours in accuracy and
// log loss, and the paper's on the same data sets.
func (r *RealResult) WinCounts(p int) (acc, ll, paperAcc, paperLL Wins) {
	for i, name := range r.Settings.Datasets {
		pr := paperRow(name)
		for _, f := range families {
			la, da := formIndex(r.Settings.Models, f.name, "la"), formIndex(r.Settings.Models, f.name, "da")
			if la < 0 || da < 0 {
				continue
			}
			c := r.Cells[p][i]
			acc.add(compare(c[la].Accuracy, c[da].Accuracy, false))
			ll.add(compare(c[la].LogLoss, c[da].LogLoss, true))
			if pr != nil {
				pla, pda := formIndex(paperModels, f.name, "la"), formIndex(paperModels, f.name, "da")
				paperAcc.add(compare(parsePaper(pr.Acc[pla]), parsePaper(pr.Acc[pda]), false))
				paperLL.add(compare(parsePaper(pr.LogLoss[pla]), parsePaper(pr.LogLoss[pda]), true))
			}
		}
	}
	return acc, ll, paperAcc, paperLL
}

// pairWinner returns, for each model column, whether its value wins its
// LA/DA pair (by the values vals, higher better unless lower).
func pairWinner(models []string, vals []float64, lower bool) []bool {
	win := make([]bool, len(models))
	for _, f := range families {
		la, da := formIndex(models, f.name, "la"), formIndex(models, f.name, "da")
		if la < 0 || da < 0 {
			continue
		}
		switch compare(vals[la], vals[da], lower) {
		case laWins:
			win[la] = true
		case daWins:
			win[da] = true
		}
	}
	return win
}

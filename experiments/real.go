package experiments

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/consensuslab/consensus/data"
	"github.com/consensuslab/consensus/datasets"
	"github.com/consensuslab/consensus/metrics"
	"github.com/consensuslab/consensus/model"
)

// RealConfig describes the real-data experiment of the paper's tables 2
// and 3: every model fitted on every data set and scored on its gold
// labels.
type RealConfig struct {
	// Datasets names the shipped data sets to use (datasets.Load), in the
	// order of the tables; nil means the six shipped data sets in the
	// paper's order.
	Datasets []string
	// Models names the estimators (model.ByName); nil means the paper's
	// seven: rfe, la-ds, da-ds, la-glad, da-glad, la-mme, da-mme.
	Models []string
	// MaxIterations bounds the iterations of the fits of each noise
	// model, by its name ("ds", "glad", "mme"); a missing or zero entry
	// means model's default (1000).
	MaxIterations map[string]int
	// Method is the optimiser of every fit.
	Method model.Method
	// TieDraws is the number of tie-breaking draws the RFE accuracy is
	// averaged over (the paper's footnote: 10); zero means 10.
	TieDraws int
	// Seed seeds the tie-breaking: the RFE accuracy averages the draws
	// with seeds Seed, Seed+1, ..., and the other models use Seed.
	Seed uint64
	// Parallel is the number of fits run at the same time, each with one
	// thread; zero means runtime.GOMAXPROCS(0).
	Parallel int
}

// RealConfigFor returns the configuration Run uses: all six shipped data
// sets and the seven models, with L-BFGS limited to 1000 iterations for
// Dawid-Skene and GLAD and 300 for minimax entropy (whose iterations cost
// K² times more per label). With Quick it uses temp only and 100 and 30
// iterations.
func RealConfigFor(o Options) RealConfig {
	c := RealConfig{
		MaxIterations: map[string]int{"ds": 1000, "glad": 1000, "mme": 300},
		Seed:          o.Seed,
		Parallel:      o.Parallel,
	}
	if o.Quick {
		c.Datasets = []string{"temp"}
		c.MaxIterations = map[string]int{"ds": 100, "glad": 100, "mme": 30}
	}
	return c
}

func (c RealConfig) withDefaults() RealConfig {
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
		c.TieDraws = 10
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
	// Config is the configuration, with defaults filled in.
	Config RealConfig
	// Stats holds the statistics of each data set and Gold its number of
	// gold objects, in the order of Config.Datasets.
	Stats []data.Stats
	Gold  []int
	// Cells holds the results, Cells[i][m] for data set i and model m of
	// Config.Models.
	Cells [][]RealCell
}

// Real runs the real-data experiment: it fits every model of cfg on every
// data set, at most cfg.Parallel at a time, and scores them on the gold
// labels.
func Real(ctx context.Context, cfg RealConfig, progress Progress) (*RealResult, error) {
	cfg = cfg.withDefaults()
	res := &RealResult{Config: cfg}
	var jobs []job
	for i, name := range cfg.Datasets {
		d, gold, err := datasets.Load(name)
		if err != nil {
			return nil, err
		}
		res.Stats = append(res.Stats, d.Stats())
		res.Gold = append(res.Gold, gold.Len())
		res.Cells = append(res.Cells, make([]RealCell, len(cfg.Models)))
		for m, mname := range cfg.Models {
			est, err := model.ByName(mname)
			if err != nil {
				return nil, err
			}
			cell := &res.Cells[i][m]
			set := &model.Settings{Method: cfg.Method, Threads: 1, Context: ctx}
			cost := float64(d.NumLabels()) * 1e-3
			if mm, ok := est.(model.Model); ok {
				set.MaxIterations = cfg.MaxIterations[mm.Noise.Name()]
				k := float64(d.NumClasses())
				cost *= float64(max(set.MaxIterations, 1)) * k
				if mm.Noise.Name() == "mme" {
					cost *= 4 * k
				}
			}
			jobs = append(jobs, job{
				name: name + " " + mname,
				cost: cost,
				run: func() error {
					start := time.Now()
					r, err := est.Fit(d, set)
					if err != nil {
						return err
					}
					*cell = scoreReal(r, gold, cfg)
					cell.MaxIterations = set.MaxIterations
					if r.Params == nil {
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
	if err := runJobs(ctx, cfg.Parallel, jobs, progress); err != nil {
		return nil, err
	}
	return res, nil
}

// scoreReal scores one fit on the gold labels.
func scoreReal(r *model.Result, gold *data.Gold, cfg RealConfig) RealCell {
	k := r.K()
	c := RealCell{
		LogLoss:       metrics.LogLoss(r.Probs, k, gold),
		LogLossAddOne: math.NaN(),
		Ties:          goldTies(r.Probs, k, gold),
		Iterations:    r.Iterations,
		Status:        r.Status,
		Converged:     r.Converged,
	}
	if r.Params == nil { // RFE
		c.Accuracy = metrics.MeanAccuracy(r.Probs, k, gold, cfg.Seed, cfg.TieDraws)
		c.LogLossAddOne = metrics.LogLoss(metrics.AddOne(r.Data.Counts(), k), k, gold)
		c.Status = ""
	} else {
		c.Accuracy = metrics.Accuracy(r.Probs, k, gold, cfg.Seed)
	}
	return c
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

// modelIndex returns the index of name in the configured models, or -1.
func (r *RealResult) modelIndex(name string) int {
	return slices.Index(r.Config.Models, name)
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

// WinCounts returns the LA/DA comparisons over the data sets and noise
// models of r for which both forms were run: ours in accuracy and log
// loss, and the paper's on the same data sets.
func (r *RealResult) WinCounts() (acc, ll, paperAcc, paperLL Wins) {
	for i, name := range r.Config.Datasets {
		p := paperRow(name)
		for _, f := range families {
			la, da := r.modelIndex("la-"+f.name), r.modelIndex("da-"+f.name)
			if la < 0 || da < 0 {
				continue
			}
			acc.add(compare(r.Cells[i][la].Accuracy, r.Cells[i][da].Accuracy, false))
			ll.add(compare(r.Cells[i][la].LogLoss, r.Cells[i][da].LogLoss, true))
			if p != nil {
				pla, pda := slices.Index(paperModels, "la-"+f.name), slices.Index(paperModels, "da-"+f.name)
				paperAcc.add(compare(parsePaper(p.Acc[pla]), parsePaper(p.Acc[pda]), false))
				paperLL.add(compare(parsePaper(p.LogLoss[pla]), parsePaper(p.LogLoss[pda]), true))
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
		la, da := slices.Index(models, "la-"+f.name), slices.Index(models, "da-"+f.name)
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

// modelTitle returns the column title of a model, such as "LA DS".
func modelTitle(m string) string {
	if m == "rfe" {
		return "RFE"
	}
	a, n, _ := strings.Cut(m, "-")
	return strings.ToUpper(a) + " " + strings.ToUpper(n)
}

func datasetTitle(name string, k int) string {
	if p := paperRow(name); p != nil {
		return fmt.Sprintf("%s (K = %d)", p.Title, k)
	}
	return fmt.Sprintf("%s (K = %d)", name, k)
}

// Markdown returns real.md: the accuracy and log loss tables beside the
// paper's, the LA/DA win counts, the RFE smoothing check and the fit
// diagnostics.
func (r *RealResult) Markdown() string {
	cfg := r.Config
	var b strings.Builder
	b.WriteString("## Real data (paper tables 2 and 3)\n\n")
	fmt.Fprintf(&b, "Models fitted with %s, one thread each; iteration limits: DS %d, GLAD %d, MME %d (see the diagnostics table). "+
		"Accuracy ties are broken with seed %d; the RFE accuracy is the mean over %d tie-breaking draws (seeds %d to %d), as in the paper's footnote. "+
		"The paper's numbers are copied from its tables 2 and 3; Price is not public and has no numbers of ours.\n\n",
		cfg.Method, iterLimit(cfg, "ds"), iterLimit(cfg, "glad"), iterLimit(cfg, "mme"),
		cfg.Seed, cfg.TieDraws, cfg.Seed, cfg.Seed+uint64(cfg.TieDraws)-1)

	head := []string{"Data set", ""}
	for _, m := range cfg.Models {
		head = append(head, modelTitle(m))
	}
	rfe := r.modelIndex("rfe")
	rows := r.tableRows()

	// Accuracy.
	b.WriteString("### Accuracy (%)\n\n")
	b.WriteString("RFE is absolute; the six models are differences to RFE, as in the paper. " +
		"**Bold**: the better of each LA/DA pair (the paper bolds the best model of a row instead). " +
		"The row \"ours − paper\" compares absolute accuracies, in percentage points.\n\n")
	t := newTable(head...)
	t.align[1] = 'l'
	for _, row := range rows {
		i, p := row.i, row.paper
		title := datasetTitle(row.name, row.k)
		if i >= 0 {
			vals := make([]float64, len(cfg.Models))
			for m := range cfg.Models {
				vals[m] = 100 * r.Cells[i][m].Accuracy
			}
			win := pairWinner(cfg.Models, vals, false)
			cells := []string{title, "ours"}
			for m, v := range vals {
				s := num(v, 2)
				if m != rfe && rfe >= 0 {
					s = signed(v-vals[rfe], 2)
				}
				if win[m] {
					s = bold(s)
				}
				cells = append(cells, s)
			}
			t.add(cells...)
			title = ""
		}
		if p != nil {
			vals := make([]float64, len(cfg.Models))
			cells := []string{title, "paper"}
			for m, name := range cfg.Models {
				pm := slices.Index(paperModels, name)
				if pm < 0 {
					vals[m] = math.NaN()
					continue
				}
				vals[m] = parsePaper(p.Acc[pm])
			}
			win := pairWinner(cfg.Models, vals, false)
			for m, name := range cfg.Models {
				pm := slices.Index(paperModels, name)
				s := "–"
				if pm >= 0 {
					s = paperText(p.Acc[pm])
				}
				if win[m] {
					s = bold(s)
				}
				cells = append(cells, s)
			}
			t.add(cells...)
		}
		if i >= 0 && p != nil {
			cells := []string{"", "ours − paper"}
			for m, name := range cfg.Models {
				pm := slices.Index(paperModels, name)
				if pm < 0 {
					cells = append(cells, "–")
					continue
				}
				cells = append(cells, signed(100*r.Cells[i][m].Accuracy-paperAbsAcc(p, pm), 2))
			}
			t.add(cells...)
		}
		if i < 0 {
			t.add(notPublic(len(cfg.Models))...)
		}
	}
	b.WriteString(t.String())

	// Log loss.
	b.WriteString("\n### Log loss (base K; uniform probabilities score 1)\n\n")
	b.WriteString("∞: some gold object has probability exactly 0 for its true class. " +
		"RFE is unsmoothed here, which is what the paper's RFE column shows (see below). " +
		"**Bold**: the better of each LA/DA pair. The row \"ours − paper\" is n/a where either value is infinite.\n\n")
	t = newTable(head...)
	t.align[1] = 'l'
	for _, row := range rows {
		i, p := row.i, row.paper
		title := datasetTitle(row.name, row.k)
		if i >= 0 {
			vals := make([]float64, len(cfg.Models))
			for m := range cfg.Models {
				vals[m] = r.Cells[i][m].LogLoss
			}
			win := pairWinner(cfg.Models, vals, true)
			cells := []string{title, "ours"}
			for m, v := range vals {
				s := num(v, 3)
				if win[m] {
					s = bold(s)
				}
				cells = append(cells, s)
			}
			t.add(cells...)
			title = ""
		}
		if p != nil {
			vals := make([]float64, len(cfg.Models))
			for m, name := range cfg.Models {
				if pm := slices.Index(paperModels, name); pm >= 0 {
					vals[m] = parsePaper(p.LogLoss[pm])
				} else {
					vals[m] = math.NaN()
				}
			}
			win := pairWinner(cfg.Models, vals, true)
			cells := []string{title, "paper"}
			for m, name := range cfg.Models {
				s := "–"
				if pm := slices.Index(paperModels, name); pm >= 0 {
					s = paperText(p.LogLoss[pm])
				}
				if win[m] {
					s = bold(s)
				}
				cells = append(cells, s)
			}
			t.add(cells...)
		}
		if i >= 0 && p != nil {
			cells := []string{"", "ours − paper"}
			for m, name := range cfg.Models {
				pm := slices.Index(paperModels, name)
				if pm < 0 {
					cells = append(cells, "–")
					continue
				}
				d := r.Cells[i][m].LogLoss - parsePaper(p.LogLoss[pm])
				if math.IsInf(r.Cells[i][m].LogLoss, 0) || math.IsInf(parsePaper(p.LogLoss[pm]), 0) {
					d = math.NaN()
				}
				cells = append(cells, signed(d, 3))
			}
			t.add(cells...)
		}
		if i < 0 {
			t.add(notPublic(len(cfg.Models))...)
		}
	}
	b.WriteString(t.String())

	// Win counts.
	acc, ll, pacc, pll := r.WinCounts()
	b.WriteString("\n### LA against DA\n\n")
	fmt.Fprintf(&b, "Each data set gives three LA/DA comparisons (DS, GLAD, MME); the paper counts DA wins over 21 comparisons "+
		"(7 data sets) and reports %d/%d in accuracy and %d/%d in log loss. Price is not public, so we can make %d comparisons; "+
		"the paper's row \"same data sets\" recounts its own tables over those.\n\n",
		PaperAccuracyDAWins, PaperComparisons, PaperLogLossDAWins, PaperComparisons, acc.Total())
	t = newTable("", "DA wins", "LA wins", "ties", "comparisons")
	t.add("accuracy, ours", strconv.Itoa(acc.DA), strconv.Itoa(acc.LA), strconv.Itoa(acc.Ties), strconv.Itoa(acc.Total()))
	t.add("accuracy, paper, same data sets", strconv.Itoa(pacc.DA), strconv.Itoa(pacc.LA), strconv.Itoa(pacc.Ties), strconv.Itoa(pacc.Total()))
	t.add("log loss, ours", strconv.Itoa(ll.DA), strconv.Itoa(ll.LA), strconv.Itoa(ll.Ties), strconv.Itoa(ll.Total()))
	t.add("log loss, paper, same data sets", strconv.Itoa(pll.DA), strconv.Itoa(pll.LA), strconv.Itoa(pll.Ties), strconv.Itoa(pll.Total()))
	b.WriteString(t.String())

	// RFE smoothing.
	if rfe >= 0 {
		b.WriteString("\n### RFE log loss: smoothed or not?\n\n")
		b.WriteString("The paper's footnote says the RFE log loss uses add-one smoothing, but its table shows ∞ for five data sets, " +
			"which smoothing makes impossible. Our unsmoothed values match its column (∞, and the Textual entailment value):\n\n")
		t = newTable("Data set", "unsmoothed", "add-one smoothed", "paper")
		for _, row := range rows {
			if row.i < 0 {
				continue
			}
			c := r.Cells[row.i][rfe]
			ps := "–"
			if row.paper != nil {
				ps = paperText(row.paper.LogLoss[0])
			}
			t.add(datasetTitle(row.name, row.k), num(c.LogLoss, 6), num(c.LogLossAddOne, 6), ps)
		}
		b.WriteString(t.String())
	}

	// Diagnostics.
	b.WriteString("\n### Fits\n\n")
	b.WriteString("Iterations and stop reason of every fit (\"IterationLimit\": stopped at the limit, not at an optimum). " +
		"Ties: gold objects whose consensus has a tied maximum (broken at random).\n\n")
	dh := []string{"Data set", "gold"}
	for _, m := range cfg.Models {
		dh = append(dh, modelTitle(m))
	}
	t = newTable(dh...)
	for i, name := range cfg.Datasets {
		cells := []string{datasetTitle(name, r.Stats[i].Classes), strconv.Itoa(r.Gold[i])}
		for m := range cfg.Models {
			c := r.Cells[i][m]
			s := fmt.Sprintf("%d ties", c.Ties)
			if c.MaxIterations > 0 {
				s = fmt.Sprintf("%d it, %s", c.Iterations, c.Status)
				if c.Ties > 0 {
					s += fmt.Sprintf(", %d ties", c.Ties)
				}
			}
			cells = append(cells, s)
		}
		t.add(cells...)
	}
	b.WriteString(t.String())
	return b.String()
}

// notPublic returns the "ours" row of a data set we do not have.
func notPublic(models int) []string {
	cells := []string{"", "ours", "not public"}
	for range models - 1 {
		cells = append(cells, "–")
	}
	return cells
}

func iterLimit(c RealConfig, noise string) int {
	if v := c.MaxIterations[noise]; v > 0 {
		return v
	}
	return 1000
}

// tableRow is one data set row of the tables: ours (i ≥ 0), the paper's
// (paper != nil) or both.
type tableRow struct {
	name  string
	k     int
	i     int
	paper *paperDataset
}

// tableRows returns the rows of the tables: the paper's data sets in its
// order (ours beside them where we ran them, Price without ours), then any
// data set of ours the paper does not have.
func (r *RealResult) tableRows() []tableRow {
	var rows []tableRow
	for pi := range paperData {
		p := &paperData[pi]
		i := slices.Index(r.Config.Datasets, p.Name)
		if i < 0 && p.Name != "price" {
			continue // a shipped data set we did not run this time
		}
		rows = append(rows, tableRow{name: p.Name, k: p.K, i: i, paper: p})
	}
	for i, name := range r.Config.Datasets {
		if paperRow(name) == nil {
			rows = append(rows, tableRow{name: name, k: r.Stats[i].Classes, i: i})
		}
	}
	return rows
}

// WriteCSV writes real.csv: one row per data set and model with the raw
// numbers (accuracy as a fraction, log losses, fit diagnostics) and the
// paper's accuracy (in %, absolute) and log loss.
func (r *RealResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"dataset", "model", "accuracy", "log_loss", "log_loss_add_one", "gold", "gold_ties",
		"max_iterations", "iterations", "status", "converged", "paper_accuracy_pct", "paper_log_loss"})
	for i, name := range r.Config.Datasets {
		p := paperRow(name)
		for m, mname := range r.Config.Models {
			c := r.Cells[i][m]
			pacc, pll := "", ""
			if pm := slices.Index(paperModels, mname); p != nil && pm >= 0 {
				pacc = csvNum(paperAbsAcc(p, pm))
				pll = csvNum(parsePaper(p.LogLoss[pm]))
			}
			cw.Write([]string{name, mname, csvNum(c.Accuracy), csvNum(c.LogLoss), csvNum(c.LogLossAddOne),
				strconv.Itoa(r.Gold[i]), strconv.Itoa(c.Ties), strconv.Itoa(c.MaxIterations), strconv.Itoa(c.Iterations),
				c.Status, strconv.FormatBool(c.Converged), pacc, pll})
		}
	}
	cw.Flush()
	return cw.Error()
}

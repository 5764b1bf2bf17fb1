package experiments

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// modelTitle returns the column title of a model: its name in capitals
// with the first hyphen a space, such as "LA DS" and "RFE".
func modelTitle(m string) string {
	return strings.ToUpper(strings.Replace(m, "-", " ", 1))
}

func datasetTitle(name string, k int) string {
	if p := paperRow(name); p != nil {
		return fmt.Sprintf("%s (K = %d)", p.Title, k)
	}
	return fmt.Sprintf("%s (K = %d)", name, k)
}

// Markdown returns real.md: for every protocol the accuracy and log loss
// tables beside the paper's and the LA/DA win counts, then the RFE
// smoothing check and the fit diagnostics.
func (r *RealResult) Markdown() string {
	cfg := r.Settings
	var b strings.Builder
	b.WriteString("## Real data (paper tables 2 and 3)\n\n")
	fmt.Fprintf(&b, "All fits use %s from the paper's initialisation. Protocols: ", cfg.Method)
	for p, proto := range cfg.Protocols {
		if p > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "(%d) %s, iteration limits DS %d, GLAD %d, MME %d", p+1, proto.Name,
			iterLimit(proto, "ds"), iterLimit(proto, "glad"), iterLimit(proto, "mme"))
	}
	fmt.Fprintf(&b, ". Accuracy ties are broken with seed %d; the RFE accuracy is the mean over %d tie-breaking draws (seeds %d to %d), "+
		"as in the paper's footnote. The paper's numbers are copied from its tables 2 and 3; Price is not public.\n\n",
		cfg.Seed, cfg.TieDraws, cfg.Seed, cfg.Seed+uint64(cfg.TieDraws)-1)
	for p, proto := range cfg.Protocols {
		fmt.Fprintf(&b, "### Protocol %d: %s\n\n", p+1, proto.Name)
		b.WriteString(r.accuracyTable(p))
		b.WriteString("\n")
		b.WriteString(r.logLossTable(p))
		b.WriteString("\n")
		b.WriteString(r.winsTable(p))
		b.WriteString("\n")
	}
	b.WriteString(r.rfeTable())
	b.WriteString(r.fitsTable())
	return b.String()
}

func (r *RealResult) head() []string {
	head := []string{"Data set", ""}
	for _, m := range r.Settings.Models {
		head = append(head, modelTitle(m))
	}
	return head
}

// paperValues returns the paper's values of row p for the configured
// models (NaN for a model the paper does not have) and their text.
func (r *RealResult) paperValues(row [7]string) ([]float64, []string) {
	vals := make([]float64, len(r.Settings.Models))
	texts := make([]string, len(r.Settings.Models))
	for m, name := range r.Settings.Models {
		pm := slices.Index(paperModels, name)
		if pm < 0 {
			vals[m], texts[m] = math.NaN(), "–"
			continue
		}
		vals[m], texts[m] = parsePaper(row[pm]), paperText(row[pm])
	}
	return vals, texts
}

// accuracyTable returns the accuracy table of protocol p.
func (r *RealResult) accuracyTable(p int) string {
	rfe := baselineIndex(r.Settings.Models)
	return r.metricTable(p, metricSpec{
		intro: "Accuracy (%). RFE is absolute, the six models are differences to RFE, as in the paper. " +
			"**Bold**: the better of each LA/DA pair (the paper bolds the best model of a row instead). " +
			"\"ours − paper\" compares absolute accuracies, in percentage points.\n\n",
		value: func(c RealCell) float64 { return 100 * c.Accuracy },
		text: func(vals []float64, m int) string {
			if m != rfe && rfe >= 0 {
				return signed(vals[m]-vals[rfe], 2)
			}
			return num(vals[m], 2)
		},
		paper: func(pr *paperDataset) [7]string { return pr.Acc },
		diff: func(ours float64, pr *paperDataset, pm int) string {
			return signed(ours-paperAbsAcc(pr, pm), 2)
		},
	})
}

// metricSpec describes a table of one metric over the models (columns)
// and the data sets (rows): for each data set the row of our values, the
// paper's row and their difference.
type metricSpec struct {
	intro string                   // the text before the table
	value func(c RealCell) float64 // a cell's value
	lower bool                     // whether lower values are better
	// text formats the value of model m among a row's values.
	text func(vals []float64, m int) string
	// paper returns the paper's values for a data set, by the paper's
	// model columns.
	paper func(pr *paperDataset) [7]string
	// diff formats ours − the paper's value of its model column pm.
	diff func(ours float64, pr *paperDataset, pm int) string
}

// metricTable returns the table s describes for protocol p: for each data
// set "ours" (the better of each LA/DA pair in bold), "paper" and "ours −
// paper" where both exist, or the "not public" row.
func (r *RealResult) metricTable(p int, s metricSpec) string {
	cfg := r.Settings
	var b strings.Builder
	b.WriteString(s.intro)
	t := newTable(r.head()...)
	t.align[1] = 'l'
	for _, row := range r.tableRows() {
		i, pr := row.i, row.paper
		title := datasetTitle(row.name, row.k)
		if i >= 0 {
			vals := make([]float64, len(cfg.Models))
			for m := range cfg.Models {
				vals[m] = s.value(r.Cells[p][i][m])
			}
			win := pairWinner(cfg.Models, vals, s.lower)
			cells := []string{title, "ours"}
			for m := range vals {
				c := s.text(vals, m)
				if win[m] {
					c = bold(c)
				}
				cells = append(cells, c)
			}
			t.add(cells...)
			title = ""
		}
		if pr != nil {
			t.add(r.paperRow(title, s.paper(pr), s.lower)...)
		}
		if i >= 0 && pr != nil {
			t.add(r.diffRow(func(m, pm int) string {
				return s.diff(s.value(r.Cells[p][i][m]), pr, pm)
			})...)
		}
		if i < 0 {
			t.add(notPublic(len(cfg.Models))...)
		}
	}
	b.WriteString(t.String())
	return b.String()
}

// diffRow returns the "ours − paper" row of a table: for every model,
// cell(m, pm) with pm its column in the paper's tables, or "–" for a
// model the paper did not fit.
func (r *RealResult) diffRow(cell func(m, pm int) string) []string {
	cells := []string{"", "ours − paper"}
	for m, name := range r.Settings.Models {
		pm := slices.Index(paperModels, name)
		if pm < 0 {
			cells = append(cells, "–")
			continue
		}
		cells = append(cells, cell(m, pm))
	}
	return cells
}

// paperRow returns the "paper" row of a table for one data set: the
// paper's values, the better of each LA/DA pair in bold (the lower one when
// lower is set).
func (r *RealResult) paperRow(title string, values [7]string, lower bool) []string {
	vals, texts := r.paperValues(values)
	win := pairWinner(r.Settings.Models, vals, lower)
	cells := []string{title, "paper"}
	for m, s := range texts {
		if win[m] {
			s = bold(s)
		}
		cells = append(cells, s)
	}
	return cells
}

// logLossTable returns the log loss table of protocol p.
func (r *RealResult) logLossTable(p int) string {
	return r.metricTable(p, metricSpec{
		intro: "Log loss (base K: uniform probabilities score 1). ∞: some gold object has probability exactly 0 for its true class. " +
			"RFE is unsmoothed, which is what the paper's RFE column shows (see below). **Bold**: the better of each LA/DA pair. " +
			"\"ours − paper\" is n/a where either value is infinite.\n\n",
		value: func(c RealCell) float64 { return c.LogLoss },
		lower: true,
		text:  func(vals []float64, m int) string { return num(vals[m], 3) },
		paper: func(pr *paperDataset) [7]string { return pr.LogLoss },
		diff: func(ours float64, pr *paperDataset, pm int) string {
			theirs := parsePaper(pr.LogLoss[pm])
			d := ours - theirs
			if math.IsInf(ours, 0) || math.IsInf(theirs, 0) {
				d = math.NaN()
			}
			return signed(d, 3)
		},
	})
}

// winsTable returns the LA/DA win counts of protocol p.
func (r *RealResult) winsTable(p int) string {
	acc, ll, pacc, pll := r.WinCounts(p)
	var b strings.Builder
	fmt.Fprintf(&b, "LA against DA: each data set gives three comparisons (DS, GLAD, MME). The paper counts DA wins over 21 comparisons "+
		"(7 data sets): %d/%d in accuracy and %d/%d in log loss. Without Price we can make %d; the rows \"paper\" recount "+
		"the paper's tables over the same data sets.\n\n",
		PaperAccuracyDAWins, PaperComparisons, PaperLogLossDAWins, PaperComparisons, acc.Total())
	t := newTable("", "DA wins", "LA wins", "ties", "comparisons")
	add := func(name string, w Wins) {
		t.add(name, strconv.Itoa(w.DA), strconv.Itoa(w.LA), strconv.Itoa(w.Ties), strconv.Itoa(w.Total()))
	}
	add("accuracy, ours", acc)
	add("accuracy, paper", pacc)
	add("log loss, ours", ll)
	add("log loss, paper", pll)
	b.WriteString(t.String())
	return b.String()
}

// rfeTable returns the check of the RFE smoothing.
func (r *RealResult) rfeTable() string {
	rfe := baselineIndex(r.Settings.Models)
	if rfe < 0 || len(r.Cells) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("### RFE log loss: smoothed or not?\n\n")
	b.WriteString("The paper's footnote says the RFE log loss uses add-one smoothing, but its table shows ∞ for five data sets, " +
		"which smoothing rules out. The unsmoothed values are the ones that match its column:\n\n")
	t := newTable("Data set", "unsmoothed", "add-one smoothed", "paper")
	for _, row := range r.tableRows() {
		if row.i < 0 {
			continue
		}
		c := r.Cells[0][row.i][rfe]
		ps := "–"
		if row.paper != nil {
			ps = paperText(row.paper.LogLoss[0])
		}
		t.add(datasetTitle(row.name, row.k), num(c.LogLoss, 6), num(c.LogLossAddOne, 6), ps)
	}
	b.WriteString(t.String())
	return b.String()
}

// fitsTable returns the iterations and stop reasons of every fit.
func (r *RealResult) fitsTable() string {
	cfg := r.Settings
	var b strings.Builder
	b.WriteString("\n### Fits\n\n")
	b.WriteString("Iterations and stop reason of every fit (IterationLimit: stopped at the limit, not at an optimum). " +
		"Ties: gold objects whose consensus has a tied maximum (broken at random).\n\n")
	dh := []string{"Protocol", "Data set", "gold"}
	for _, m := range cfg.Models {
		dh = append(dh, modelTitle(m))
	}
	t := newTable(dh...)
	t.align[1] = 'l'
	for p := range cfg.Protocols {
		for i, name := range cfg.Datasets {
			cells := []string{strconv.Itoa(p + 1), datasetTitle(name, r.Stats[i].Classes), strconv.Itoa(r.Gold[i])}
			for m := range cfg.Models {
				c := r.Cells[p][i][m]
				s := fmt.Sprintf("%d ties", c.Ties)
				if c.MaxIterations > 0 {
					s = fmt.Sprintf("%d it, %s", c.Iterations, shortStatus(c.Status))
					if c.Ties > 0 {
						s += fmt.Sprintf(", %d ties", c.Ties)
					}
				}
				cells = append(cells, s)
			}
			t.add(cells...)
		}
	}
	b.WriteString(t.String())
	return b.String()
}

// shortStatus keeps the gonum status of a fit's Status, dropping the
// explanation of an error.
func shortStatus(s string) string {
	st, _, _ := strings.Cut(s, ":")
	return st
}

// notPublic returns the "ours" row of a data set we do not have.
func notPublic(models int) []string {
	cells := []string{"", "ours", "not public"}
	for range models - 1 {
		cells = append(cells, "–")
	}
	return cells
}

func iterLimit(c RealProtocol, noise string) int {
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
		i := slices.Index(r.Settings.Datasets, p.Name)
		if i < 0 && p.Name != "price" {
			continue // a shipped data set we did not run this time
		}
		rows = append(rows, tableRow{name: p.Name, k: p.K, i: i, paper: p})
	}
	for i, name := range r.Settings.Datasets {
		if paperRow(name) == nil {
			rows = append(rows, tableRow{name: name, k: r.Stats[i].Classes, i: i})
		}
	}
	return rows
}

// WriteCSV writes real.csv: one row per protocol, data set and model with the raw
// numbers (accuracy as a fraction, log losses, fit diagnostics) and the
// paper's accuracy (in %, absolute) and log loss.
func (r *RealResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"protocol", "dataset", "model", "accuracy", "log_loss", "log_loss_add_one", "gold", "gold_ties",
		"max_iterations", "iterations", "status", "converged", "paper_accuracy_pct", "paper_log_loss"})
	for p, proto := range r.Settings.Protocols {
		for i, name := range r.Settings.Datasets {
			pr := paperRow(name)
			for m, mname := range r.Settings.Models {
				c := r.Cells[p][i][m]
				pacc, pll := "", ""
				if pm := slices.Index(paperModels, mname); pr != nil && pm >= 0 {
					pacc = csvNum(paperAbsAcc(pr, pm))
					pll = csvNum(parsePaper(pr.LogLoss[pm]))
				}
				cw.Write([]string{proto.Key, name, mname, csvNum(c.Accuracy), csvNum(c.LogLoss), csvNum(c.LogLossAddOne),
					strconv.Itoa(r.Gold[i]), strconv.Itoa(c.Ties), strconv.Itoa(c.MaxIterations), strconv.Itoa(c.Iterations),
					c.Status, strconv.FormatBool(c.Converged), pacc, pll})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
